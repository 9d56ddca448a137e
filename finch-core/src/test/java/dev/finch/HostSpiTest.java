package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.host.FileHost;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.host.LocalFileHost;
import dev.finch.host.ProcessHost;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host SPI of {@code finch-core}: file and process hosts of the embedder's own, installed on {@link SessionOptions}
 * or made by {@link Finch.Builder#fileHosts} / {@link Finch.Builder#processHosts}, and the project, task-output and
 * host-machine roots installed from the options — availability, never authority, for every host alike.
 */
class HostSpiTest {
    static final Finch FINCH = Finch.create();

    @TempDir Path tmp;

    /** An in-memory file host over some roots; it records every call it receives. */
    static class MemoryFiles implements FileHost {
        final Set<Root> roots;
        final Map<String, byte[]> files = Collections.synchronizedMap(new TreeMap<>());
        final List<String> calls = new CopyOnWriteArrayList<>();

        MemoryFiles(Root... roots) { this.roots = roots.length == 0 ? EnumSet.noneOf(Root.class) : EnumSet.of(roots[0], roots); }

        MemoryFiles with(String path, String text) {
            files.put(path, text.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        String text(String path) { return new String(files.get(path), StandardCharsets.UTF_8); }

        private byte[] file(ConcretePath p) throws HostFailure {
            byte[] b = files.get(p.toString());
            if (b == null) throw new HostFailure(HostCode.NOT_FOUND, "no such file: " + p);
            return b;
        }

        @Override public boolean installed(Root root) { return roots.contains(root); }

        @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
            calls.add("read " + path);
            byte[] b = file(path);
            if (b.length > maxBytes) throw new HostFailure(HostCode.TOO_LARGE, path + " is over " + maxBytes + " bytes");
            return b.clone();
        }

        @Override public void write(ConcretePath path, byte[] data) {
            calls.add("write " + path);
            files.put(path.toString(), data.clone());
        }

        @Override public long size(ConcretePath path) throws HostFailure {
            calls.add("size " + path);
            return file(path).length;
        }

        @Override public byte[] slice(ConcretePath path, long offset, int length) throws HostFailure {
            calls.add("slice " + path);
            byte[] b = file(path);
            int from = (int) Math.min(offset, b.length);
            return java.util.Arrays.copyOfRange(b, from, Math.min(b.length, from + length));
        }

        @Override public Listing list(ConcretePath directory, int max) {
            calls.add("list " + directory);
            String prefix = directory.toString() + "/";
            List<Entry> entries = new ArrayList<>();
            synchronized (files) {
                files.forEach((p, b) -> {
                    if (p.startsWith(prefix) && entries.size() < max) entries.add(new Entry(directory.relative() + "/" + p.substring(prefix.length()), "file", b.length));
                });
            }
            return new Listing(entries, false);
        }

        @Override public Reader open(ConcretePath path) throws HostFailure {
            return new InputStreamReader(openBytes(path), StandardCharsets.UTF_8);
        }

        @Override public InputStream openBytes(ConcretePath path) throws HostFailure {
            calls.add("open " + path);
            return new ByteArrayInputStream(file(path));
        }
    }

    /** A process host that runs nothing: it records each call and answers a fixed result. */
    static final class RecordingProcesses implements ProcessHost {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override public Completed run(String executable, List<String> arguments) {
            calls.add(executable + " " + arguments);
            return new Completed(7, "ran " + String.join(",", arguments), "");
        }
    }

    private static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "spi.lisp").withLanguage(Language.LISP)); }

    private static Outcome forth(Session s, String program) { return s.submit(Submission.of(program, "spi.fth").withLanguage(Language.FORTH)); }

    private static String code(Outcome o) {
        assertThat(o.diagnostics()).as("%s", o).isNotEmpty();
        return o.diagnostics().get(0).code();
    }

    private static String readAndSay(String readWord, String pathWord, String rel) {
        return "(match-result (bytes-to-string (" + readWord + " (" + pathWord + " \"" + rel + "\"))) (ok s (say s)) (err e (say \"bad\")))";
    }

    // ---- a file host of the embedder's own --------------------------------------------------------------------

    @Test
    void aCustomFileHostServesReadsAndWritesOnceGranted() {
        MemoryFiles mem = new MemoryFiles(Root.WORKSPACE).with("${workspace}/notes.txt", "remember the milk");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(mem)
                .withGrant("fs.read(${workspace}/**)").withGrant("fs.write(${workspace}/out/**)"));
        Outcome read = lisp(s, readAndSay("file-read", "path", "notes.txt"));
        assertThat(read.status()).as("%s", read).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(read.output()).isEqualTo("remember the milk");

        Outcome write = forth(s, "\"out/reply.txt\" path \"on it\" string-to-bytes file-write");
        assertThat(write.status()).as("%s", write).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(mem.text("${workspace}/out/reply.txt")).isEqualTo("on it");
        assertThat(mem.calls).containsExactly("read ${workspace}/notes.txt", "write ${workspace}/out/reply.txt");
    }

    @Test
    void aCustomFileHostIsCalledOnlyAfterApprovalAndOnce() {
        MemoryFiles mem = new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "hello");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(mem));
        Outcome o = lisp(s, "(say \"before \") " + readAndSay("file-read", "path", "a.txt"));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        assertThat(mem.calls).as("nothing dispatched before approval").isEmpty();
        Outcome done = s.approve(o.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("before hello");
        assertThat(mem.calls).containsExactly("read ${workspace}/a.txt");
    }

    @Test
    void aRootTheCustomHostDoesNotServeIsNotInstalledEvenWhenGranted() {
        MemoryFiles mem = new MemoryFiles(Root.WORKSPACE).with("${project}/a.txt", "never served");
        List<EffectRequest> requests = new ArrayList<>();
        EffectObserver observer = new EffectObserver() {
            @Override public void requested(EffectRequest r) { requests.add(r); }

            @Override public void settled(EffectJournal.Entry e) { }
        };
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(mem).withGrant("fs.read(${project}/**)"));
        Outcome o = s.submit(Submission.of(readAndSay("project-file-read", "project-path", "a.txt"), "p.lisp").withObserver(observer));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-HOST-002");
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("host");
        assertThat(requests).as("no request for an operation that cannot happen here").isEmpty();
        assertThat(mem.calls).isEmpty();
        // And without the grant: still not installed, never a prompt.
        Outcome ungranted = lisp(FINCH.newSession(SessionOptions.DEFAULT.withFileHost(mem)), readAndSay("project-file-read", "project-path", "a.txt"));
        assertThat(code(ungranted)).isEqualTo("E-HOST-002");
        assertThat(ungranted.requiredCapabilities()).isEmpty();
    }

    @Test
    void aCustomHostServesTheOtherRootsWithTheirOwnGrants() {
        MemoryFiles mem = new MemoryFiles(Root.PROJECT, Root.TASK_OUTPUT).with("${project}/spec.md", "# spec");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(mem)
                .withGrant("fs.read(${project}/**)").withGrant("fs.write(${task.output}/**)"));
        Outcome o = forth(s, "\"spec.md\" project-path project-file-read bytes-to-string if-ok say else say then "
                + "\"summary.md\" task-output-path \"done\" string-to-bytes task-output-file-write");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("# spec");
        assertThat(mem.text("${task.output}/summary.md")).isEqualTo("done");
        // A grant on one root never covers another: writing the project pauses for its own approval.
        Outcome w = lisp(s, "(project-file-write (project-path \"spec.md\") (string-to-bytes \"x\"))");
        assertThat(w.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(w.requiredCapabilities()).containsExactly("fs.write(${project}/spec.md)");
        // The workspace is not served by this host at all.
        assertThat(code(lisp(s, readAndSay("file-read", "path", "spec.md")))).isEqualTo("E-HOST-002");
    }

    @Test
    void aFailingCustomHostFailsTheOperationNotTheSession() {
        FileHost broken = new MemoryFiles(Root.WORKSPACE) {
            @Override public byte[] read(ConcretePath path, long maxBytes) { throw new IllegalStateException("disk on fire"); }

            @Override public long size(ConcretePath path) { return -1; }

            @Override public byte[] slice(ConcretePath path, long offset, int length) { return null; }
        };
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(broken).withGrant("fs.read(${workspace}/**)"));
        Outcome o = lisp(s, readAndSay("file-read", "path", "a.txt"));
        assertThat(code(o)).isEqualTo("E-HOST-005");
        // The host's exception goes to the host's log; the program reads only that the host failed (issue 35 item 8).
        assertThat(o.diagnostics().get(0).message()).contains("the file host failed").doesNotContain("disk on fire");
        assertThat(code(lisp(s, "(say (int-to-string (file-size (path \"a.txt\"))))"))).isEqualTo("E-HOST-005");
        assertThat(code(lisp(s, "(file-slice (path \"a.txt\") 0 4)"))).isEqualTo("E-HOST-005");
        // The session is intact and runs the next submission.
        assertThat(lisp(s, "(+ 1 2)").status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test
    void aCustomHostThatAnswersMoreThanTheReadBoundIsRefused() {
        FileHost greedy = new MemoryFiles(Root.WORKSPACE) {
            @Override public byte[] read(ConcretePath path, long maxBytes) { return new byte[(int) Math.min(maxBytes + 1, 1 << 24)]; }
        };
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withFileHost(greedy).withGrant("fs.read(${workspace}/**)"));
        assertThat(code(lisp(s, "(file-read (path \"big.bin\"))"))).isEqualTo("E-HOST-006");
    }

    // ---- the builder's factories ------------------------------------------------------------------------------

    @Test
    void theBuildersFactoryMakesEachSessionsHostFromItsOptions() throws IOException {
        Path ws = Files.createDirectories(tmp.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "local bytes");
        List<SessionOptions> seen = new CopyOnWriteArrayList<>();
        AtomicInteger reads = new AtomicInteger();
        Finch finch = Finch.builder().fileHosts(options -> {
            seen.add(options);
            LocalFileHost local = new LocalFileHost(options.roots());
            return new MemoryFiles(Root.WORKSPACE) {                        // an auditing wrapper over the local host
                @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
                    reads.incrementAndGet();
                    return local.read(path, maxBytes);
                }
            };
        }).build();
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(ws).withGrant("fs.read(${workspace}/**)");
        Outcome o = lisp(finch.newSession(options), readAndSay("file-read", "path", "a.txt"));
        assertThat(o.output()).as("%s", o).isEqualTo("local bytes");
        assertThat(reads).hasValue(1);
        finch.newSession(options);
        assertThat(seen).as("one host per session, made from its options").hasSize(2).allSatisfy(x -> assertThat(x.workspace()).contains(ws));
    }

    @Test
    void theSessionsOwnHostWinsOverTheBuildersFactory() {
        AtomicInteger made = new AtomicInteger();
        Finch finch = Finch.builder().fileHosts(options -> {
            made.incrementAndGet();
            return new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "factory");
        }).build();
        MemoryFiles own = new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "own");
        Outcome o = lisp(finch.newSession(SessionOptions.DEFAULT.withFileHost(own).withGrant("fs.read(${workspace}/**)")),
                readAndSay("file-read", "path", "a.txt"));
        assertThat(o.output()).isEqualTo("own");
        assertThat(made).hasValue(0);
    }

    @Test
    void aFactoryThatAnswersNullIsRefusedWhenTheSessionOpens() {
        Finch finch = Finch.builder().fileHosts(options -> null).build();
        assertThatThrownBy(finch::newSession).isInstanceOf(NullPointerException.class).hasMessageContaining("fileHosts");
    }

    @Test
    void aRestoredSessionGetsTheFactorysHost() {
        MemoryFiles mem = new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "after restore");
        Finch finch = Finch.builder().fileHosts(options -> mem).imageKey(dev.finch.persist.Images.KEY).build();
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(tmp));
        Outcome o = lisp(s, readAndSay("file-read", "path", "a.txt"));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        String image = s.save(o.executionId());
        Outcome done = finch.restore(image, SessionOptions.DEFAULT.withWorkspace(tmp)).approve(o.executionId(), Scope.ONCE);
        assertThat(done.output()).as("%s", done).isEqualTo("after restore");
        assertThat(mem.calls).containsExactly("read ${workspace}/a.txt");
    }

    @Test
    void aRestoredSessionGetsTheHostOfTheRestoringOptions() {
        MemoryFiles before = new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "before");
        MemoryFiles after = new MemoryFiles(Root.WORKSPACE).with("${workspace}/a.txt", "after restore");
        Finch finch = Finch.builder().imageKey(dev.finch.persist.Images.KEY).build();
        Session s = finch.newSession(SessionOptions.DEFAULT.withFileHost(before));
        Outcome o = lisp(s, readAndSay("file-read", "path", "a.txt"));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        String image = s.save(o.executionId());
        Outcome done = finch.restore(image, SessionOptions.DEFAULT.withFileHost(after)).approve(o.executionId(), Scope.ONCE);
        assertThat(done.output()).as("%s", done).isEqualTo("after restore");
        assertThat(before.calls).isEmpty();
    }

    // ---- roots installed from the options, local host ---------------------------------------------------------

    private Path dir(String name, String file, String text) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(name));
        if (file != null) Files.writeString(d.resolve(file), text);
        return d;
    }

    @Test
    void projectTaskOutputAndHostMachineRootsWorkEndToEndInLisp() throws IOException {
        Path project = dir("project", "README", "project readme");
        Path out = dir("out", null, null);
        Path machine = dir("machine", "hosts", "127.0.0.1 localhost");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withRoot(Root.PROJECT, project).withRoot(Root.TASK_OUTPUT, out)
                .withRoot(Root.HOST_MACHINE, machine)
                .withGrant("fs.read(${project}/**)").withGrant("fs.write(${task.output}/**)").withGrant("fs.read(${host-machine}/hosts)"));
        assertThat(s.options().root(Root.PROJECT)).contains(project);
        assertThat(s.options().workspace()).isEmpty();
        Outcome o = lisp(s, readAndSay("project-file-read", "project-path", "README") + " (say \" | \") "
                + readAndSay("host-file-read", "host-path", "hosts")
                + " (task-output-file-write (task-output-path \"report.txt\") (string-to-bytes \"written\"))");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("project readme | 127.0.0.1 localhost");
        assertThat(Files.readString(out.resolve("report.txt"))).isEqualTo("written");
        assertThat(Files.exists(project.resolve("report.txt"))).isFalse();
        // The workspace is not installed: a workspace word fails before any request.
        assertThat(code(lisp(s, readAndSay("file-read", "path", "README")))).isEqualTo("E-HOST-002");
    }

    @Test
    void projectTaskOutputAndHostMachineRootsWorkEndToEndInCoForth() throws IOException {
        Path ws = dir("ws", "a.txt", "ws");
        Path project = dir("project", "a.txt", "from the project");
        Path out = dir("out", null, null);
        Path machine = dir("machine", "a.txt", "from the machine");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withWorkspace(ws).withRoot(Root.PROJECT, project)
                .withRoot(Root.TASK_OUTPUT, out).withRoot(Root.HOST_MACHINE, machine));
        Outcome o = forth(s, "\"a.txt\" project-path project-file-read \"copy.txt\" task-output-path swap task-output-file-write "
                + "\"a.txt\" host-path host-file-read bytes-to-string if-ok say else say then");
        // Installing the roots granted nothing: each concrete operation is approved on its own.
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${project}/a.txt)");
        o = s.approve(o.executionId(), Scope.ONCE);
        assertThat(o.requiredCapabilities()).containsExactly("fs.write(${task.output}/copy.txt)");
        o = s.approve(o.executionId(), Scope.ONCE);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${host-machine}/a.txt)");
        o = s.approve(o.executionId(), Scope.ONCE);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("from the machine");
        assertThat(Files.readString(out.resolve("copy.txt"))).isEqualTo("from the project");
    }

    @Test
    void aRootTheOptionsDoNotInstallIsNotInstalledOnTheLocalHost() throws IOException {
        Path ws = dir("ws", "a.txt", "ws");
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withWorkspace(ws).withGrant("fs.read(${host-machine}/**)"));
        Outcome o = lisp(s, readAndSay("host-file-read", "host-path", "a.txt"));
        assertThat(code(o)).isEqualTo("E-HOST-002");
        assertThat(o.requiredCapabilities()).isEmpty();
    }

    // ---- a process host of the embedder's own -----------------------------------------------------------------

    @Test
    void aCustomProcessHostReceivesProcessRun() {
        RecordingProcesses proc = new RecordingProcesses();
        Session s = FINCH.newSession(SessionOptions.DEFAULT.withProcessHost(proc).withGrant("process.run(/usr/bin/git)"));
        Outcome o = lisp(s, "(say (show (process-run \"/usr/bin/git\" (list \"status\" \"--short\"))))");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("{\"exit\":7,\"stderr\":\"\",\"stdout\":\"ran status,--short\"}");
        assertThat(proc.calls).containsExactly("/usr/bin/git [status, --short]");
        // Without a grant the host is not called until the person approves.
        Outcome paused = forth(FINCH.newSession(SessionOptions.DEFAULT.withProcessHost(proc)), "\"/bin/rm\" [ \"-rf\" \"x\" ] process-run drop");
        assertThat(paused.requiredCapabilities()).containsExactly("process.run(/bin/rm)");
        assertThat(proc.calls).hasSize(1);
    }

    @Test
    void theBuildersProcessFactoryAndAFailingProcessHost() {
        AtomicReference<SessionOptions> seen = new AtomicReference<>();
        Finch finch = Finch.builder().processHosts(options -> {
            seen.set(options);
            return (executable, arguments) -> { throw new IllegalStateException("no sandbox available"); };
        }).build();
        Session s = finch.newSession(SessionOptions.DEFAULT.withGrant("process.run(/usr/bin/env)"));
        assertThat(seen.get()).isEqualTo(s.options());
        Outcome o = lisp(s, "(process-run \"/usr/bin/env\" (empty-list string))");
        assertThat(code(o)).isEqualTo("E-HOST-010");
        assertThat(o.diagnostics().get(0).message()).contains("the process host failed").doesNotContain("no sandbox available");
    }

    // ---- the options value ------------------------------------------------------------------------------------

    @Test
    void optionsAreAnImmutableValueFromABuilderOrWithers() {
        Path ws = Path.of("/srv/ws");
        SessionOptions old = SessionOptions.builder().workspace(ws).grants(List.of("fs.read(${workspace}/**)")).deferred(true).build();
        SessionOptions built = SessionOptions.DEFAULT.withWorkspace(ws).withGrant("fs.read(${workspace}/**)").withDeferredHost(true);
        assertThat(old).isEqualTo(built);
        assertThat(old.roots()).containsExactly(Map.entry(Root.WORKSPACE, ws));
        assertThat(SessionOptions.builder().build()).isEqualTo(SessionOptions.DEFAULT);
        assertThat(old.toBuilder().build()).isEqualTo(old).hasSameHashCodeAs(old);
        assertThat(old.toBuilder().deferred(false).build()).isNotEqualTo(old);
        assertThat(java.util.Arrays.stream(SessionOptions.class.getConstructors())).as("no public constructor: a builder only").isEmpty();
        SessionOptions more = built.withRoot(Root.TASK_OUTPUT, Path.of("/srv/out")).withRoot(Root.PROJECT, Path.of("/srv/repo"));
        assertThat(more.roots().keySet()).containsExactly(Root.WORKSPACE, Root.PROJECT, Root.TASK_OUTPUT);
        assertThat(built.roots()).hasSize(1);
        assertThatThrownBy(() -> more.roots().put(Root.HOST_MACHINE, Path.of("/"))).isInstanceOf(UnsupportedOperationException.class);
        assertThat(more.withRoot(Root.PROJECT, Path.of("/elsewhere")).root(Root.PROJECT)).contains(Path.of("/elsewhere"));
        assertThat(more.fileHost()).isEmpty();
        assertThat(more.withFileHost(new MemoryFiles()).withProcessHost(new RecordingProcesses()).processHost()).isPresent();
    }
}
