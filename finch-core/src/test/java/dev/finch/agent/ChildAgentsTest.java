package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.finch.host.AgentHost;

/** Child agents end to end with the scripted provider: spawn, poll, await, cancel, in Lisp and Co-Forth. */
class ChildAgentsTest {
    @TempDir Path ws;
    private Finch finch;

    private static final String SCRIPT = """
            ## role reader
            >>> program lisp
            (say (match (bytes-to-string (file-read (path "public/a.txt"))) (ok s s) (err e e)))
            >>> final
            reader saw: {{output}}
            ## role snoop
            >>> program forth
            "secret/key.txt" path file-read drop
            >>> final
            snoop: {{status}} {{codes}}
            ## role sum
            >>> program forth
            2 3 + int-to-string say
            >>> final
            sum is {{output}}
            ## role *
            >>> program forth
            "public/a.txt" path file-read bytes-to-string if-ok say else say then
            >>> final
            inherited: {{output}}
            """;

    private Session session(String... grants) throws Exception {
        Files.createDirectories(ws.resolve("public"));
        Files.createDirectories(ws.resolve("secret"));
        Files.writeString(ws.resolve("public/a.txt"), "hello");
        Files.writeString(ws.resolve("secret/key.txt"), "k");
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("script", "scripted", ScriptedProvider.parse(SCRIPT)))).build();
        return finch.newSession(SessionOptions.builder().workspace(ws).grants(List.of(grants)).build());
    }

    @AfterEach void close() { if (finch != null) finch.close(); }

    private static Outcome run(Session s, String src, Language l) {
        Outcome o = s.submit(Submission.of(src, "test").withLanguage(l));
        return s.awaitTasks(o);
    }

    @Test void aLispParentSpawnsTwoChildrenWithDifferentGrantsAndAwaitsBoth() throws Exception {
        Session s = session("agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)", "fs.read(${workspace}/secret/**)");
        Outcome o = run(s, """
                (define grants (capability-list))
                (define (only [needle : string])
                  (list-map (list-filter grants (lambda (g) (match g (record ((capability c)) (string-contains c needle)))))
                            (lambda (g) (match g (record ((grant r)) r)))))
                (define (spec [role : string] [caps : list<resource<capability-grant>>])
                  { :task (string-append "read as " role) :role role :background "" :provider "" :model ""
                    :context-refs (empty-list record{id:string,kind:string,sha256:string}) :capabilities caps
                    :max-turns 4 :timeout-ms 20000 :max-output-bytes 4096 })
                (define a (agent-spawn-with (spec "reader" (only "public"))))
                (define b (agent-spawn-with (spec "snoop" (only "public"))))
                (define ra (agent-await a))
                (define rb (agent-await b))
                (match ra (record ((final-message m) (status st)) (begin (say m) (say "\\n") (say st) (say "\\n"))))
                (match rb (record ((final-message m) (status st)) (begin (say m) (say "\\n") (say st))))
                """, Language.LISP);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("reader saw: hello\ncompleted\nsnoop: failed E-HOST-001\ncompleted");
    }

    @Test void aCoForthParentSpawnsTheCompactWayAndTheChildInheritsTheWholeCeiling() throws Exception {
        Session s = session("agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)");
        Outcome o = run(s, """
                { task: "read" role: "reader" background: "" provider: "" model: ""
                  context-refs: empty-list<record{id:string,kind:string,sha256:string}>
                  capabilities: empty-list<resource<capability-grant>> max-turns: 4 timeout-ms: 20000 max-output-bytes: 4096 }
                agent-spawn-with agent-await "final-message" record-get unwrap
                "read" agent-spawn dup agent-await "final-message" record-get unwrap swap agent-poll "role" record-get unwrap
                """, Language.FORTH);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        // Given no capabilities, the reader could not read (its program was denied, so it said nothing); the compact
        // word's child (role "") inherits the parent's whole ceiling and reads.
        assertThat(o.values()).extracting(Object::toString).containsExactly("\"reader saw: \"", "\"inherited: hello\"", "\"\"");
    }

    @Test void aGrandchildRunsAtDepthTwoWhenTheDelegatedGrantAllowsIt() throws Exception {
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("script", "scripted", ScriptedProvider.parse("""
                ## role middle
                >>> program forth
                { task: "leaf" role: "leaf" background: "" provider: "" model: "" context-refs: empty-list<record{id:string,kind:string,sha256:string}> capabilities: empty-list<resource<capability-grant>> max-turns: 2 timeout-ms: 20000 max-output-bytes: 100 } agent-spawn-with agent-await dup "depth" record-get unwrap int-to-string say " " say "final-message" record-get unwrap say
                >>> final
                middle heard: {{output}}
                ## role leaf
                >>> final
                leaf here
                """)))).build();
        Session s = finch.newSession(SessionOptions.builder().grants(List.of("agent.spawn(max_depth=2,max_children=1)")).build());
        Outcome o = run(s, "\"go\" agent-spawn drop { task: \"go\" role: \"middle\" background: \"\" provider: \"\" model: \"\" "
                + "context-refs: empty-list<record{id:string,kind:string,sha256:string}> capabilities: capability-list [: ( record{capability:string,grant:resource<capability-grant>,id:string,kind:string,scope:string} -- resource<capability-grant> ) \"grant\" record-get unwrap ;] list-map "
                + "max-turns: 3 timeout-ms: 20000 max-output-bytes: 1000 } agent-spawn-with agent-await \"final-message\" record-get unwrap", Language.FORTH);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        // The second child of this session needs max_children=2: the first (compact) one used the only slot.
        assertThat(o.requiredCapabilities()).containsExactly("agent.spawn(max_depth=1,max_children=2)");
        Outcome done = s.awaitTasks(s.approve(o.executionId(), dev.finch.capabilities.Scope.ONCE));
        assertThat(done.values()).extracting(Object::toString).containsExactly("\"middle heard: 2 leaf here\"");
    }

    @Test void theSchedulerRunsAtMostItsConcurrencyAtOnceAndTheTimerStopsARunawayProgram() throws Exception {
        // Runs may take long here (no step limit to speak of): only the child's timer stops the endless program.
        finch = Finch.builder().maxSteps(1L << 60).timeout(java.time.Duration.ofSeconds(60)).agents(AgentOptions.of(new AgentProfile("script", "scripted", ScriptedProvider.parse("""
                >>> program forth
                begin true while repeat
                >>> final
                never
                """))).withConcurrency(1)).build();
        Session s = finch.newSession(SessionOptions.builder().grants(List.of("agent.spawn(max_depth=1,max_children=2)")).build());
        String spec = "{ task: \"spin\" role: \"\" background: \"\" provider: \"\" model: \"\" context-refs: empty-list<record{id:string,kind:string,sha256:string}> "
                + "capabilities: empty-list<resource<capability-grant>> max-turns: 2 timeout-ms: 700 max-output-bytes: 100 } agent-spawn-with";
        Outcome started = run(s, spec + " " + spec + " dup agent-poll \"status\" record-get unwrap", Language.FORTH);
        assertThat(started.values().get(2).toString()).as("one worker per depth: the second child waits").isEqualTo("\"queued\"");
        Outcome ended = run(s, "drop agent-await \"diagnostics\" record-get unwrap 0 list-get unwrap \"code\" record-get unwrap "
                + "swap agent-await \"diagnostics\" record-get unwrap 0 list-get unwrap \"code\" record-get unwrap", Language.FORTH);
        // Both ended by their timer (E-AGENT-008): their programs never end by themselves, and the run's deadline is a minute.
        assertThat(ended.values()).as("%s", ended).extracting(Object::toString).containsExactly("\"E-AGENT-008\"", "\"E-AGENT-008\"");
        // The timer cancelled the children's endless programs: no VM thread is left spinning.
        assertThat(dev.finch.HangGuard.await(() -> busyRunThreads() == 0)).as("busy finch-run threads after the children timed out").isTrue();
    }

    /** The VM's worker threads running Finch code (as HostileRuntimeTest counts them). */
    private static long busyRunThreads() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("finch-run-") && e.getKey() != Thread.currentThread())
                .filter(e -> java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().startsWith("dev.finch.")))
                .count();
    }

    @Test void closingFinchCancelsItsChildren() throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("wait", "m", c -> {
            entered.countDown();
            new java.util.concurrent.CountDownLatch(1).await();
            return AgentProvider.Turn.finalMessage("never");
        }))).build();
        Session s = finch.newSession(SessionOptions.builder().grants(List.of("agent.spawn(max_depth=1,max_children=1)")).build());
        assertThat(run(s, "\"x\" agent-spawn drop", Language.FORTH).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(dev.finch.HangGuard.await(entered)).isTrue();
        var scheduler = finch.agents().orElseThrow();
        finch.close();
        assertThat(scheduler.snapshot("t1").orElseThrow().status()).isEqualTo(AgentHost.Status.CANCELLED);
    }
}
