package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Root;
import dev.finch.capabilities.Scope;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.lisp.Lisp;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.host.FileHost;
import dev.finch.host.LocalFileHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The separately installed roots (host-machine, project, task.output), one level down: on the VM with a
 * {@link LocalFileHost} holding several roots (the availability/authority split without a session); the path types'
 * separation is tested through sessions. Roots installed from {@code SessionOptions}, and file hosts of the
 * embedder's own, are tested end to end in {@code dev.finch.HostSpiTest}.
 */
class RootsTest {
    static final Vm VM = new Vm();

    @TempDir Path tmp;
    Path ws;
    Path host;
    Path project;
    Path out;

    @AfterAll
    static void close() { VM.close(); }

    @BeforeEach
    void roots() throws IOException {
        ws = Files.createDirectories(tmp.resolve("ws"));
        host = Files.createDirectories(tmp.resolve("host"));
        project = Files.createDirectories(tmp.resolve("project"));
        out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(ws.resolve("a.txt"), "ws-a");
        Files.writeString(host.resolve("a.txt"), "host-a");
        Files.writeString(project.resolve("a.txt"), "project-a");
        Files.writeString(out.resolve("a.txt"), "out-a");
    }

    private HostConfig config(String... grants) {
        GrantSet g = GrantSet.EMPTY;
        int i = 0;
        for (String spec : grants) g = g.add(Grant.of("g" + (++i), spec, Scope.SESSION).value()).value();
        LocalFileHost files = new LocalFileHost(Map.of(Root.WORKSPACE, ws, Root.HOST_MACHINE, host, Root.PROJECT, project, Root.TASK_OUTPUT, out));
        return HostConfig.NONE.with(FileHost.class, files).withGrants(g);
    }

    private static RunResult run(String lisp, HostConfig config) {
        Environment env = VmState.EMPTY.environment();
        Lowering l = new Lisp().lower(lisp, "roots", env);
        assertThat(l.diagnostics()).isEmpty();
        Verification v = Verifier.verify(l.module().orElseThrow(), env);
        assertThat(v.diagnostics()).isEmpty();
        return VM.run("r1", v.module().orElseThrow(), VmState.EMPTY, Limits.DEFAULT, OutputSink.NONE, new CancelToken(), config);
    }

    static String read(String word, String pathWord, String rel) {
        return "(match-result (bytes-to-string (" + word + " (" + pathWord + " \"" + rel + "\"))) (ok s (say s)) (err e (say \"bad\")))";
    }

    static String pending(RunResult r) {
        assertThat(r).isInstanceOf(RunResult.Suspended.class);
        return ((RunResult.Suspended) r).suspension().pendingRequest().orElseThrow().requirement().toString();
    }

    @Test
    void installingARootGrantsNothing() {
        HostConfig none = config();
        assertThat(pending(run(read("host-file-read", "host-path", "a.txt"), none))).isEqualTo("fs.read(${host-machine}/a.txt)");
        assertThat(pending(run(read("project-file-read", "project-path", "a.txt"), none))).isEqualTo("fs.read(${project}/a.txt)");
        assertThat(pending(run(read("task-output-file-read", "task-output-path", "a.txt"), none))).isEqualTo("fs.read(${task.output}/a.txt)");
    }

    @Test
    void aGrantOnOneRootNeverCoversAnother() {
        HostConfig wsOnly = config("fs.read(${workspace}/**)", "fs.write(${workspace}/**)");
        assertThat(pending(run(read("host-file-read", "host-path", "a.txt"), wsOnly))).isEqualTo("fs.read(${host-machine}/a.txt)");
        assertThat(pending(run(read("project-file-read", "project-path", "a.txt"), wsOnly))).isEqualTo("fs.read(${project}/a.txt)");
        HostConfig projectRead = config("fs.read(${project}/**)", "fs.write(${task.output}/**)");
        assertThat(pending(run("(project-file-write (project-path \"a.txt\") (string-to-bytes \"x\"))", projectRead)))
                .isEqualTo("fs.write(${project}/a.txt)");
        assertThat(pending(run(read("file-read", "path", "a.txt"), projectRead))).isEqualTo("fs.read(${workspace}/a.txt)");
    }

    @Test
    void eachRootReadsAndWritesItsOwnDirectory() throws IOException {
        HostConfig all = config("fs.read(${host-machine}/**)", "fs.read(${project}/**)", "fs.read(${task.output}/**)", "fs.write(${task.output}/**)");
        assertThat(((RunResult.Completed) run(read("host-file-read", "host-path", "a.txt"), all)).output()).isEqualTo("host-a");
        assertThat(((RunResult.Completed) run(read("project-file-read", "project-path", "a.txt"), all)).output()).isEqualTo("project-a");
        Files.createDirectories(out.resolve("r"));
        RunResult w = run("(task-output-file-write (task-output-path \"r/new.txt\") (string-to-bytes \"made\"))", all);
        assertThat(w).isInstanceOf(RunResult.Completed.class);
        assertThat(Files.readString(out.resolve("r/new.txt"))).isEqualTo("made");
        assertThat(Files.exists(ws.resolve("r"))).isFalse();
    }

    @Test
    void escapesAreRefusedUnderEveryRoot() throws IOException {
        Files.createSymbolicLink(project.resolve("link"), ws);
        HostConfig all = config("fs.read(${project}/**)", "fs.read(${host-machine}/**)");
        RunResult link = run(read("project-file-read", "project-path", "link/a.txt"), all);
        assertThat(((RunResult.Failed) link).diagnostics().get(0).code()).isEqualTo("E-HOST-003");
        RunResult dotdot = run("(host-file-read (host-path (string-append \"..\" \"/ws/a.txt\")))", all);
        assertThat(((RunResult.Failed) dotdot).diagnostics().get(0).code()).isEqualTo("E-CAP-005");
        assertThat(((RunResult.Failed) dotdot).output()).doesNotContain("ws-a");
        // The same text as a literal is refused before running.
        Environment env = VmState.EMPTY.environment();
        Lowering l = new Lisp().lower(read("project-file-read", "project-path", "../ws/a.txt"), "roots", env);
        var v = Verifier.verify(l.module().orElseThrow(), env);
        assertThat(v.diagnostics()).extracting(d -> d.phase().spelling() + " " + d.code()).containsExactly("verify E-CAP-005");
    }

    @Test
    void aGrantedRequestForARootThatIsNotInstalledFails() {
        HostConfig wsHostOnly = HostConfig.NONE.with(FileHost.class, LocalFileHost.workspace(ws))
                .withGrants(GrantSet.EMPTY.add(Grant.of("g1", "fs.read(${project}/**)", Scope.SESSION).value()).value());
        RunResult r = run(read("project-file-read", "project-path", "a.txt"), wsHostOnly);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-HOST-002");
    }

    @Test
    void pathTypesOfDifferentRootsDoNotMix() {
        // Through a session: a workspace path is not a host-machine path, statically.
        Outcome o = HostFixture.lisp(HostFixture.session(ws, "fs.read(${workspace}/**)"), "(host-file-read (path \"a.txt\"))");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
        Outcome p = HostFixture.lisp(HostFixture.session(ws, "fs.read(${workspace}/**)"), "(file-read (project-path \"a.txt\"))");
        assertThat(p.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
    }
}
