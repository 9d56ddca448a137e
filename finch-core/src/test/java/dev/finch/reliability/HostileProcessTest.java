package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.host.LocalProcessHost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability row 27 (issue 14, deliverable 5): a child process gets only the documented environment, never the JVM's;
 * whatever it starts ends with the call (the whole session is killed); {@code Session.cancel} and the deadline end it at
 * once; output is cut as it arrives. Each scenario asserts its code — the VM's decision: cut, cancelled, past the
 * deadline while the process ran and killed it — and that the session still answers {@code 1 2 +} afterwards. Nothing
 * bounds wall time: the processes sleep 300 s, longer than every hang guard here (the {@code get} and polling bounds),
 * so a process that was waited out rather than killed fails the test by its outcome, however loaded the machine.
 */
class HostileProcessTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Finch FINCH = Finch.builder().timeout(Duration.ofSeconds(20)).build();
    static final ExecutorService POOL = Executors.newCachedThreadPool();
    /**
     * Ends every argument this suite looks processes up by ({@code sleep 300.271…}), so that the same tests running in
     * another JVM on the machine at the same time (another build, another module) never see each other's processes.
     */
    static final String PID = Long.toString(ProcessHandle.current().pid());

    @TempDir Path ws;

    @AfterAll static void stopPool() { POOL.shutdownNow(); }

    static String str(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A Lisp program saying the JSON of one {@code process-run}. */
    static String run(String exe, String... args) {
        String list = args.length == 0 ? "(empty-list string)"
                : "(list " + java.util.Arrays.stream(args).map(HostileProcessTest::str).collect(Collectors.joining(" ")) + ")";
        return "(say (show (process-run " + str(exe) + " " + list + ")))";
    }

    static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "t").withLanguage(dev.finch.Language.LISP)); }

    static Session session(Finch finch, Path ws, String... grants) {
        return finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of(grants)).build());
    }

    static JsonNode completed(Outcome o) throws Exception {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return JSON.readTree(o.output());
    }

    static String code(Outcome o) { return o.diagnostics().get(0).code(); }

    static void stillWorks(Session s) {
        Outcome o = s.submit(Submission.of("1 2 +", "after"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.stack().get(s.stack().size() - 1).display()).isEqualTo("3");
    }

    /** True while {@code pid} is a live process (a zombie is dead: only its parent's reaping is left). */
    static boolean running(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (Files.isDirectory(Path.of("/proc"))) {
            try {
                String text = Files.readString(stat, StandardCharsets.ISO_8859_1);
                char state = text.substring(text.lastIndexOf(')') + 1).trim().charAt(0);
                return state != 'Z' && state != 'X';
            } catch (java.io.IOException gone) {
                return false;
            }
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Waits (a hang guard, far shorter than the 300 s the processes sleep) until no process with {@code argument} among its arguments is left; true when none is. */
    static boolean goneSoon(String argument) {
        return HangGuard.await(() -> withArgument(argument).isEmpty());
    }

    static List<Long> withArgument(String argument) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(argument)).orElse(false))
                .map(ProcessHandle::pid).filter(HostileProcessTest::running).collect(Collectors.toList());
    }

    static boolean goneSoon(long pid) {
        return HangGuard.await(() -> !running(pid));
    }

    // ---- environment ------------------------------------------------------------------------------------------------

    @Test
    void aChildSeesOnlyTheAllowlistNeverTheJvmsEnvironment() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/env")), "needs /usr/bin/env");
        Session s = session(FINCH, ws, "process.run(/usr/bin/env)");
        JsonNode r = completed(lisp(s, run("/usr/bin/env")));
        Map<String, String> env = parse(r.get("stdout").asText());
        assertThat(env.keySet()).containsExactlyInAnyOrderElementsOf(LocalProcessHost.ALLOWLIST);
        assertThat(env.get("PATH")).isEqualTo(LocalProcessHost.DEFAULT_PATH);
        assertThat(env.get("LANG")).isEqualTo(LocalProcessHost.DEFAULT_LOCALE);
        assertThat(env.get("LC_ALL")).isEqualTo(LocalProcessHost.DEFAULT_LOCALE);
        // HOME and TMPDIR: one private scratch directory for the call, gone after it; never the host's home.
        assertThat(env.get("HOME")).isEqualTo(env.get("TMPDIR")).isNotEqualTo(System.getenv("HOME"));
        assertThat(Path.of(env.get("HOME"))).doesNotExist();
        // Whatever the JVM holds beyond the allowlist (CI tokens, API keys, JAVA_HOME, …) never arrives.
        TreeSet<String> jvmOnly = new TreeSet<>(System.getenv().keySet());
        jvmOnly.removeAll(LocalProcessHost.ALLOWLIST);
        assertThat(env.keySet()).doesNotContainAnyElementsOf(jvmOnly);
        stillWorks(s);
    }

    @Test
    void theHostNamesWhatElseAChildSees() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/env")), "needs /usr/bin/env");
        Finch finch = Finch.builder().timeout(Duration.ofSeconds(20))
                .processEnvironment(Map.of("FINCH_VISIBLE", "yes", "LANG", "en_US.UTF-8")).build();
        Session s = session(finch, ws, "process.run(/usr/bin/env)");
        Map<String, String> env = parse(completed(lisp(s, run("/usr/bin/env"))).get("stdout").asText());
        assertThat(env).containsEntry("FINCH_VISIBLE", "yes").containsEntry("LANG", "en_US.UTF-8");
        assertThat(env.keySet()).hasSize(LocalProcessHost.ALLOWLIST.size() + 1);
        stillWorks(s);
    }

    @Test
    void aMalformedHostVariableIsRefusedAtBuildTime() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Finch.builder().processEnvironment(Map.of("A=B", "x")))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Finch.builder().processEnvironment(Map.of("A", "x\0y")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static Map<String, String> parse(String envOutput) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String line : envOutput.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) out.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return out;
    }

    // ---- nothing outlives the call ----------------------------------------------------------------------------------

    /** Whether a pid a child prints is one of this JVM's (not a PID namespace's own numbering). */
    static boolean hostPids() { return LocalProcessHost.containment() != LocalProcessHost.Containment.PID_NAMESPACE; }

    static boolean contained() { return LocalProcessHost.containment() != LocalProcessHost.Containment.DESCENDANTS; }

    @Test
    void aBackgroundChildIsGoneWhenTheCallEnds() throws Exception {
        assumeTrue(contained(),
                "needs setsid and /proc (Linux) to reach a re-parented background process");
        Session s = session(FINCH, ws, "process.run(/bin/sh)");
        // The call does not wait for the background process (which holds its stdout) to end: it completes, where waiting
        // would have passed the 20 s deadline (E-LIMIT-002) long before the 300 s sleep ends.
        JsonNode r = completed(lisp(s, run("/bin/sh", "-c", "sleep 300.271" + PID + " & echo $!")));
        long pid = Long.parseLong(r.get("stdout").asText().strip());
        if (hostPids()) assertThat(goneSoon(pid)).as("background sleep %s is gone", pid).isTrue();
        assertThat(goneSoon("300.271" + PID)).isTrue();
        stillWorks(s);
    }

    @Test
    void aChildInItsOwnProcessGroupIsGoneToo() throws Exception {
        assumeTrue(contained(), "needs setsid and /proc (Linux)");
        // With job control on, the shell puts the background job in a process group of its own (same session).
        Session s = session(FINCH, ws, "process.run(/bin/sh)");
        JsonNode r = completed(lisp(s, run("/bin/sh", "-c", "set -m; sleep 300.272" + PID + " & echo $!")));
        long pid = Long.parseLong(r.get("stdout").asText().strip());
        if (hostPids()) assertThat(goneSoon(pid)).as("sleep %s in its own group is gone", pid).isTrue();
        assertThat(goneSoon("300.272" + PID)).isTrue();
        stillWorks(s);
    }

    /**
     * Issue 35 item 5: a child that leaves its session — {@code setsid} in the background, {@code setsid -f}, a double
     * fork — is still inside the run's PID namespace, which the kernel empties when the call ends.
     */
    @Test
    void aChildThatLeavesItsSessionIsGoneToo() throws Exception {
        assumeTrue(LocalProcessHost.containment() == LocalProcessHost.Containment.PID_NAMESPACE,
                "needs a PID namespace (util-linux unshare --pid, root or CAP_SYS_ADMIN): under setsid containment a process that"
                        + " calls setsid itself escapes, as docs/embedding.md says");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs /usr/bin/setsid for the attack");
        Session s = session(FINCH, ws, "process.run(/bin/sh)", "process.run(/usr/bin/setsid)");
        completed(lisp(s, run("/bin/sh", "-c", "setsid sleep 300.291" + PID + " & (setsid sleep 300.292" + PID + " &) ; echo started")));
        completed(lisp(s, run("/usr/bin/setsid", "-f", "sleep", "300.293" + PID)));
        for (String mark : List.of("300.291" + PID, "300.292" + PID, "300.293" + PID)) assertThat(goneSoon(mark)).as("sleep %s is gone", mark).isTrue();
        stillWorks(s);
    }

    @Test
    void cancelDuringAProcessReturnsAtOnceAndKillsIt() throws Exception {
        Session s = session(FINCH, ws, "process.run(/bin/sh)");
        Future<Outcome> f = POOL.submit(() -> lisp(s, run("/bin/sh", "-c", "sleep 300.273" + PID + " & sleep 300.274" + PID)));
        // Wait until both processes exist, then cancel.
        assertThat(HangGuard.await(() -> !withArgument("300.273" + PID).isEmpty() && !withArgument("300.274" + PID).isEmpty()))
                .as("the child started").isTrue();
        String id = s.runningExecution().orElseThrow();
        assertThat(s.cancel(id)).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        // Cancelled while the process ran, which was killed for it (not waited out: it sleeps 300 s).
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(code(o)).isEqualTo("E-RUN-001");
        assertThat(o.diagnostics().get(0).message()).contains("while /bin/sh ran; its processes were killed");
        assertThat(goneSoon("300.274" + PID)).as("the child is killed").isTrue();
        if (contained()) {
            assertThat(goneSoon("300.273" + PID)).as("its background process too").isTrue();
        }
        stillWorks(s);
    }

    @Test
    void cancelReachesALocalHostTheBuildersFactoryMade() throws Exception {
        // An embedder's host is wrapped (SessionHosts' guard); the run's watch must pass through the wrapper.
        Finch finch = Finch.builder().timeout(Duration.ofSeconds(20))
                .processHosts(options -> new LocalProcessHost(options.workspace().orElse(null), Duration.ofSeconds(20), 1 << 20)).build();
        Session s = session(finch, ws, "process.run(/bin/sleep)");
        Future<Outcome> f = POOL.submit(() -> lisp(s, run("/bin/sleep", "300.279" + PID)));
        assertThat(HangGuard.await(() -> !withArgument("300.279" + PID).isEmpty())).as("the process started").isTrue();
        assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(code(o)).isEqualTo("E-RUN-001");
        assertThat(o.diagnostics().get(0).message()).contains("while /bin/sleep ran; its processes were killed");
        assertThat(goneSoon("300.279" + PID)).isTrue();
        stillWorks(s);
    }

    @Test
    void theDeadlineEndsAProcessAndEverythingItStarted() throws Exception {
        // Two seconds: the deadline passes while the process runs (it starts within milliseconds of the run), not before.
        Finch quick = Finch.builder().timeout(Duration.ofSeconds(2)).build();
        Session s = session(quick, ws, "process.run(/bin/sh)");
        Outcome o = HangGuard.ran(() -> lisp(s, run("/bin/sh", "-c", "sleep 300.275" + PID + " & sleep 300.276" + PID)));
        // It stops at the deadline while the process runs, killing it — not at the process's end.
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
        assertThat(o.diagnostics().get(0).message()).contains("while /bin/sh ran; its processes were killed");
        assertThat(goneSoon("300.276" + PID)).isTrue();
        if (contained()) assertThat(goneSoon("300.275" + PID)).isTrue();
        stillWorks(s);
    }

    // ---- output bounds ----------------------------------------------------------------------------------------------

    @Test
    void fiftyMegabytesOfOutputAreCutAsTheyArrive() throws Exception {
        Session s = session(FINCH, ws, "process.run(/usr/bin/head)", "process.run(/bin/sh)");
        Outcome out = lisp(s, run("/usr/bin/head", "-c", "52428800", "/dev/zero"));
        assertThat(code(out)).isEqualTo("E-HOST-010");
        assertThat(out.diagnostics().get(0).message()).contains("more than");
        // Cut as it arrives: the run ends with the cut (E-HOST-010), not at the 20 s deadline the sleep would reach.
        Outcome err = lisp(s, run("/bin/sh", "-c", "head -c 52428800 /dev/zero >&2; sleep 300.277" + PID));
        assertThat(code(err)).isEqualTo("E-HOST-010");
        assertThat(goneSoon("300.277" + PID)).isTrue();
        stillWorks(s);
    }

    @Test
    void anEndlessWriterIsCutAtTheBound() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/yes")), "needs /usr/bin/yes");
        Session s = session(FINCH, ws, "process.run(/usr/bin/yes)");
        Outcome o = lisp(s, run("/usr/bin/yes", "finch-endless-writer-" + PID));
        assertThat(code(o)).as("cut at the bound, not stopped by the deadline").isEqualTo("E-HOST-010");
        assertThat(goneSoon("finch-endless-writer-" + PID)).isTrue();
        stillWorks(s);
    }

    @Test
    void noReaderThreadOutlivesTheCalls() throws Exception {
        assumeTrue(contained(), "elsewhere a re-parented background process keeps its stdout open until it ends");
        Session s = session(FINCH, ws, "process.run(/bin/sh)");
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 3; i++) outcomes.add(lisp(s, run("/bin/sh", "-c", "sleep 300.278" + PID + " & echo hi")));
        assertThat(outcomes).allMatch(o -> o.status() == Outcome.Status.COMPLETED);
        assertThat(HangGuard.await(() -> readers() == 0)).as("finch-process reader threads left").isTrue();
        stillWorks(s);
    }

    static long readers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("finch-process-")).count();
    }
}
