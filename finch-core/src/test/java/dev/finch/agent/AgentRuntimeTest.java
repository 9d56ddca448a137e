package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.host.AgentHost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent runtime through the Session API: authority at the boundary (no grant pauses, approve and deny), attenuation
 * and revalidation, the tree's depth and children bounds, budgets, context references, the starting-context hash,
 * cancellation, ownership, and a parent paused in agent-await saved and restored.
 */
class AgentRuntimeTest {
    private static final byte[] KEY = "the host's image key, 32 bytes or more".getBytes(StandardCharsets.UTF_8);
    @TempDir Path ws;
    private final List<Finch> opened = new java.util.ArrayList<>();

    @AfterEach void close() { opened.forEach(Finch::close); }

    private Finch finch(AgentProvider provider, AgentHost.Bounds bounds) {
        Finch f = Finch.builder().imageKey(KEY).agents(AgentOptions.of(new AgentProfile("p", "m1", provider)).withBounds(bounds)).build();
        opened.add(f);
        return f;
    }

    private Finch finch(String script) { return finch(ScriptedProvider.parse(script), AgentHost.Bounds.DEFAULT); }

    private Session session(Finch f, String... grants) throws Exception {
        Files.createDirectories(ws.resolve("public"));
        Files.writeString(ws.resolve("public/a.txt"), "hello");
        Files.writeString(ws.resolve("secret.txt"), "k");
        return f.newSession(SessionOptions.builder().workspace(ws).grants(List.of(grants)).build());
    }

    private static Outcome lisp(Session s, String src) { return s.awaitTasks(s.submit(Submission.of(src, "t.lisp").withLanguage(Language.LISP))); }

    private static Outcome forth(Session s, String src) { return s.awaitTasks(s.submit(Submission.of(src, "t.fth").withLanguage(Language.FORTH))); }

    /** The string on top of the outcome's stack. */
    private static String top(Outcome o) {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return ((dev.finch.vm.Value.Str) o.values().get(o.values().size() - 1)).value();
    }

    private static String str(Outcome o, int i) { return ((dev.finch.vm.Value.Str) o.values().get(i)).value(); }

    private static String code(Outcome o) { return o.diagnostics().isEmpty() ? "" : o.diagnostics().get(0).code(); }

    /** A record literal for agent-spawn-with (Lisp). */
    private static String spec(String task, String role, String caps, int turns, long timeout, long output) {
        return "{ :task \"" + task + "\" :role \"" + role + "\" :background \"\" :provider \"\" :model \"\" "
                + ":context-refs (empty-list record{id:string,kind:string,sha256:string}) :capabilities " + caps
                + " :max-turns " + turns + " :timeout-ms " + timeout + " :max-output-bytes " + output + " }";
    }

    private static final String NONE = "(empty-list resource<capability-grant>)";

    private static String field(String record, String field) { return "(unwrap (record-get " + record + " \"" + field + "\"))"; }

    // ---- authority --------------------------------------------------------------------------------------------------

    @Test void withoutAGrantASpawnPausesBeforeAnythingIsAllocatedAndApprovalCreatesTheChild() throws Exception {
        Finch f = finch(">>> final\nok");
        Session s = session(f);
        Outcome o = s.submit(Submission.of("(say \"before\") " + field("(agent-await (agent-spawn \"go\"))", "final-message"), "t.lisp"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("agent.spawn(max_depth=1,max_children=1)");
        assertThat(o.inferredCapabilities()).contains("agent.spawn(max_depth=999999,max_children=999999)");
        assertThat(f.agents().orElseThrow().snapshot("t1")).as("no task before approval").isEmpty();
        Outcome done = s.awaitTasks(s.approve(o.executionId(), Scope.ONCE));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("before");
        assertThat(done.values()).containsExactly(dev.finch.vm.Value.of("ok"));

        Outcome again = s.submit(Submission.of("(agent-spawn \"go\")", "t.lisp"));
        Outcome denied = s.deny(again.executionId(), "no");
        assertThat(code(denied)).isEqualTo("E-HOST-001");
        assertThat(f.agents().orElseThrow().snapshot("t2")).as("a denied spawn allocates nothing").isEmpty();

        // agent-spawn-with the same way: paused before anything is allocated, then approved once.
        Outcome with = s.submit(Submission.of(field("(agent-await (agent-spawn-with " + spec("go", "", NONE, 2, 20_000, 100) + "))", "final-message"), "w.lisp"));
        assertThat(with.requiredCapabilities()).as("%s", with).containsExactly("agent.spawn(max_depth=1,max_children=2)");
        assertThat(with.pendingRequest().orElseThrow().request().operation()).isEqualTo("agent-spawn-with");
        assertThat(f.agents().orElseThrow().snapshot("t2")).isEmpty();
        assertThat(top(s.awaitTasks(s.approve(with.executionId(), Scope.ONCE)))).isEqualTo("ok");
    }

    @Test void theChildrenBoundCountsThisNodesChildrenAndTheDepthBoundHoldsDownTheTree() throws Exception {
        // The child delegates its agent.spawn grant; its own child would be at depth 2, beyond max_depth=1.
        Finch f = finch("""
                ## role parent
                >>> program lisp
                (agent-spawn "grandchild")
                >>> final
                {{status}} {{codes}}
                """);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=1)");
        Outcome two = lisp(s, "(agent-spawn \"a\") (agent-spawn \"b\")");
        assertThat(two.status()).as("%s", two).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(two.requiredCapabilities()).containsExactly("agent.spawn(max_depth=1,max_children=2)");
        s.cancel(two.executionId());

        Session t = session(f, "agent.spawn(max_depth=1,max_children=4)");
        Outcome o = lisp(t, "(define c (list-map (capability-list) (lambda (g) (match g (record ((grant r)) r)))))\n"
                + field("(agent-await (agent-spawn-with " + spec("nest", "parent", "c", 4, 20_000, 4096) + "))", "final-message"));
        assertThat(o.values()).as("%s", o).containsExactly(dev.finch.vm.Value.of("failed E-HOST-001"));
    }

    @Test void aChildHoldsOnlyWhatItWasGivenAndCannotReachMoreByAnyName() throws Exception {
        Finch f = finch("""
                ## role reader
                >>> program forth
                "public/a.txt" path file-read bytes-to-string if-ok say else say then
                >>> program forth
                "secret.txt" path file-read drop
                >>> program lisp
                (say (string-append (int-to-string (list-length (capability-list))) " " (match (unwrap (list-get (capability-list) 0)) (record ((capability c)) c))))
                >>> final
                {{status}} {{codes}}: {{output}}
                """);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)", "fs.read(${workspace}/**)");
        Outcome o = lisp(s, "(define pub (list-map (list-filter (capability-list) (lambda (g) (match g (record ((capability c)) (string-contains c \"public\")))))"
                + " (lambda (g) (match g (record ((grant r)) r)))))\n"
                + "(define r (agent-await (agent-spawn-with " + spec("read", "reader", "pub", 6, 20_000, 4096) + ")))\n"
                + field("r", "final-message"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        // The child sees exactly one grant: the one it was given (its capability-list cannot show the parent's others).
        assertThat(top(o)).isEqualTo("completed : 1 fs.read(${workspace}/public/**)");
        // The secret read was denied inside the child, with a structured diagnostic in its result.
        Outcome diags = lisp(s, "(define r2 (agent-await (agent-spawn-with " + spec("read", "reader", "pub", 6, 20_000, 4096) + ")))\n"
                + "(list-map " + field("r2", "diagnostics") + " (lambda (d) (unwrap (record-get d \"code\"))))");
        assertThat(diags.stack().get(diags.stack().size() - 1).display()).isEqualTo("[\"E-HOST-001\"]");
        // A grant id is a name, not authority: a list of strings is no list of grants (refused before anything runs).
        Outcome forged = lisp(s, "(agent-spawn-with " + spec("read", "reader", "(list \"g2\")", 6, 20_000, 4096) + ")");
        assertThat(code(forged)).isEqualTo("E-TYPE-001");
    }

    @Test void aRevokedGrantIsRevalidatedAwayAtCreation() throws Exception {
        Finch f = finch(">>> final\nok");
        Session s = session(f, "agent.spawn(max_depth=1,max_children=4)", "fs.read(${workspace}/public/**)");
        // One run lists the grants and leaves their resources on the stack; the host then revokes the file grant.
        Outcome listed = lisp(s, "(list-map (list-filter (capability-list) (lambda (g) (match g (record ((kind k)) (= k \"fs.read\")))))"
                + " (lambda (g) (match g (record ((grant r)) r))))");
        assertThat(listed.status()).as("%s", listed).isEqualTo(Outcome.Status.COMPLETED);
        String fileGrant = s.grants().grants().stream().filter(g -> g.spec().toString().startsWith("fs.read")).findFirst().orElseThrow().id();
        assertThat(s.revoke(fileGrant)).isTrue();
        Outcome o = forth(s, ":> caps { task: \"t\" role: \"\" background: \"\" provider: \"\" model: \"\" context-refs: empty-list<record{id:string,kind:string,sha256:string}>"
                + " capabilities: caps max-turns: 2 timeout-ms: 1000 max-output-bytes: 100 } agent-spawn-with");
        assertThat(code(o)).as("%s", o).isEqualTo("E-AGENT-004");
        assertThat(f.agents().orElseThrow().snapshot("t1")).as("nothing was allocated").isEmpty();
    }

    // ---- budgets ----------------------------------------------------------------------------------------------------

    @Test void turnsTimeoutAndOutputEndAChildWithTheirCodes() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        AgentProvider scripted = ScriptedProvider.parse("""
                ## role turns
                >>> program forth
                "a" say
                >>> program forth
                "b" say
                >>> final
                late
                ## role loud
                >>> program lisp
                (say (string-repeat "x" 200))
                >>> final
                done
                ## role *
                >>> final
                ok
                """);
        AgentProvider provider = c -> {
            if (c.role().equals("slow")) {
                never.await();
                return AgentProvider.Turn.finalMessage("never");
            }
            return scripted.next(c);
        };
        Finch f = finch(provider, AgentHost.Bounds.DEFAULT);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=9)");
        String body = "(define (run [r : record{agent-id:string,depth:int,diagnostics:list<record{code:string,message:string,phase:string}>,elapsed-ms:int,"
                + "final-message:string,provider-model:string,starting-context-hash:string,status:string,task-id:string,turns:int}]) "
                + "(string-append " + field("r", "status") + " \" \" (unwrap (record-get (unwrap (list-get " + field("r", "diagnostics") + " 0)) \"code\"))))\n";
        Outcome turns = lisp(s, body + "(run (agent-await (agent-spawn-with " + spec("t", "turns", NONE, 2, 20_000, 4096) + ")))");
        assertThat(top(turns)).isEqualTo("failed E-AGENT-007");
        // The slow child's provider never answers: only its 300 ms timer can have ended it (E-AGENT-008).
        Outcome slow = lisp(s, "(run (agent-await (agent-spawn-with " + spec("t", "slow", NONE, 2, 300, 4096) + ")))");
        assertThat(top(slow)).isEqualTo("failed E-AGENT-008");
        Outcome loud = lisp(s, "(run (agent-await (agent-spawn-with " + spec("t", "loud", NONE, 4, 20_000, 100) + ")))");
        assertThat(top(loud)).isEqualTo("failed E-AGENT-009");
        // Budgets are positive and host-bounded: refused before anything is allocated.
        assertThat(code(lisp(s, "(agent-spawn-with " + spec("t", "", NONE, 65, 20_000, 100) + ")"))).isEqualTo("E-AGENT-002");
        assertThat(code(lisp(s, "(agent-spawn-with " + spec("t", "", NONE, 4, 0, 100) + ")"))).isEqualTo("E-AGENT-002");
        assertThat(code(lisp(s, "(agent-spawn-with " + spec("t", "", NONE, 4, 1000, 2_000_000) + ")"))).isEqualTo("E-AGENT-002");
        never.countDown();
    }

    // ---- poll, cancel, ownership ------------------------------------------------------------------------------------

    @Test void pollNeverWaitsAndCancelEndsARunningChild() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Finch f = finch(c -> {
            entered.countDown();
            never.await();
            return AgentProvider.Turn.finalMessage("never");
        }, AgentHost.Bounds.DEFAULT);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=2)");
        Outcome o = forth(s, "\"wait\" agent-spawn");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(dev.finch.HangGuard.await(entered)).isTrue();
        Outcome poll = forth(s, "dup agent-poll dup \"status\" record-get unwrap swap \"complete\" record-get unwrap");
        assertThat(poll.stack().subList(1, 3)).extracting(e -> e.display()).containsExactly("\"running\"", "false");
        Outcome cancelled = forth(s, "drop drop dup agent-cancel agent-await \"status\" record-get unwrap");
        assertThat(top(cancelled)).isEqualTo("cancelled");
    }

    // ---- context references and the starting context ----------------------------------------------------------------

    @Test void contextReferencesAreVerifiedAndGivenToTheChildAndTheStartingHashIsDeterministic() throws Exception {
        AgentProvider echo = c -> AgentProvider.Turn.finalMessage(((AgentProvider.UserText) c.messages().get(0)).text());
        Finch f = finch(echo, AgentHost.Bounds.DEFAULT);
        AgentHost.ContextRef ref = f.agents().orElseThrow().contexts().register("doc", "notes", "the notes ✓");
        assertThat(ref.sha256()).hasSize(64).isEqualTo(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest("the notes ✓".getBytes(StandardCharsets.UTF_8))));
        Session s = session(f, "agent.spawn(max_depth=1,max_children=9)");
        String refs = "(list { :kind \"doc\" :id \"notes\" :sha256 \"" + ref.sha256() + "\" })";
        String withRef = spec("summarize", "r", NONE, 2, 20_000, 4096).replace("(empty-list record{id:string,kind:string,sha256:string})", refs);
        Outcome o = lisp(s, "(define r (agent-await (agent-spawn-with " + withRef + ")))\n" + field("r", "final-message") + " " + field("r", "starting-context-hash"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(str(o, 0)).contains("Task: summarize").contains("--- context doc:notes sha256=" + ref.sha256()).contains("the notes ✓");
        String hash = str(o, 1);

        // The same request from the same place against the same VM state: the same digest, in another Finch too.
        Finch g = finch(echo, AgentHost.Bounds.DEFAULT);
        g.agents().orElseThrow().contexts().register("doc", "notes", "the notes ✓");
        Session t = session(g, "agent.spawn(max_depth=1,max_children=9)");
        Outcome same = lisp(t, "(define r (agent-await (agent-spawn-with " + withRef + ")))\n" + field("r", "final-message") + " " + field("r", "starting-context-hash"));
        assertThat(str(same, 1)).isEqualTo(hash);
        Outcome other = lisp(t, field("(agent-await (agent-spawn-with " + withRef.replace("summarize", "translate") + "))", "starting-context-hash"));
        assertThat(top(other)).isNotEqualTo(hash).hasSize(64);

        // A reference to content other than the registered: refused before a task is allocated.
        Outcome wrong = lisp(t, "(agent-spawn-with " + withRef.replace(ref.sha256(), "0".repeat(64)) + ")");
        assertThat(code(wrong)).isEqualTo("E-AGENT-003");
        assertThat(g.agents().orElseThrow().snapshot("t4")).isEmpty();
    }

    // ---- a parent paused in agent-await, saved and restored ----------------------------------------------------------

    @Test void aParentPausedInAgentAwaitIsSavedAndRestoredAndTheChildRunsOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger turns = new AtomicInteger();
        AgentProvider gated = c -> {
            turns.incrementAndGet();
            release.await();
            return AgentProvider.Turn.finalMessage("child says hi");
        };
        Finch f = finch(gated, AgentHost.Bounds.DEFAULT);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=1)");
        Outcome first = s.submit(Submission.of("\"before \" say \"greet\" agent-spawn agent-await \"final-message\" record-get unwrap say", "p.fth"));
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.TASK);
        assertThat(dev.finch.FinchJson.write(first)).contains("\"waiting\":\"task\"");
        String image = s.save(first.executionId());
        assertThat(image.replace("\\\"", "\"")).contains("\"agent_task\":\"t1\"");
        String id = first.executionId();

        // Restored beside the same scheduler: the restoring session adopts the running child; nothing runs twice.
        Session restored = f.restore(image, SessionOptions.builder().workspace(ws).grants(List.of("agent.spawn(max_depth=1,max_children=1)")).build());
        Outcome waiting = restored.resume(id);
        assertThat(waiting.waiting()).as("%s", waiting).contains(Outcome.Waiting.TASK);
        release.countDown();
        Outcome done = restored.awaitTasks(waiting);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("before child says hi");
        assertThat(turns.get()).isEqualTo(1);
    }

    @Test void restoredWhereTheTaskIsGoneTheChildIsMadeAgainWithinTheRestoredGrantsOrIsLost() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        Finch f = finch(c -> {
            never.await();
            return AgentProvider.Turn.finalMessage("never");
        }, AgentHost.Bounds.DEFAULT);
        Session s = session(f, "agent.spawn(max_depth=1,max_children=1)", "fs.read(${workspace}/public/**)");
        Outcome first = s.submit(Submission.of("\"greet\" agent-spawn agent-await \"final-message\" record-get unwrap", "p.fth"));
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.TASK);
        String image = s.save(first.executionId());
        s.cancel(first.executionId());

        // Another process (another Finch): the scheduler has no t1, so the child is made again from its saved request.
        Finch other = finch(">>> final\nmade again");
        Session again = other.restore(image, SessionOptions.builder().workspace(ws).grants(List.of("agent.spawn(max_depth=1,max_children=1)",
                "fs.read(${workspace}/public/**)")).build());
        Outcome done = again.awaitTasks(again.resume(first.executionId()));
        assertThat(done.values()).as("%s", done).containsExactly(dev.finch.vm.Value.of("made again"));

        // Restored without the delegated grant, it cannot be made again: E-AGENT-012, a structured failure.
        Finch third = finch(">>> final\nmade again");
        Session lost = third.restore(image, SessionOptions.builder().workspace(ws).build());
        Outcome failed = lost.awaitTasks(lost.resume(first.executionId()));
        assertThat(code(failed)).as("%s", failed).isEqualTo("E-AGENT-012");
        never.countDown();
    }

    @Test void aHandleOfAnEndedChildCarriesItsResultThroughAnImage() throws Exception {
        Finch f = finch(">>> final\nfinished");
        Session s = session(f, "agent.spawn(max_depth=1,max_children=1)");
        // The run pauses at a yield after the child ended, its handle in a local: the image keeps the result.
        Outcome first = s.submit(Submission.of("\"go\" agent-spawn :> a  a agent-await drop  unit yield  a agent-poll \"status\" record-get unwrap", "p.fth"));
        first = s.awaitTasks(first);
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.YIELD);
        String image = s.save(first.executionId());
        assertThat(image.replace("\\\"", "\"")).contains("\"final_message\":\"finished\"");
        Session restored = Finch.builder().imageKey(KEY).build().restore(image, SessionOptions.DEFAULT);
        Outcome done = restored.awaitTasks(restored.resume(first.executionId()));
        assertThat(done.values()).as("%s", done).containsExactly(dev.finch.vm.Value.of("completed"));
    }

    @Test void aHandleStaysOnTheSessionStackAcrossTurnsAndThroughAnImage() throws Exception {
        Finch f = finch(">>> final\nfrom the stack");
        Session s = session(f, "agent.spawn(max_depth=1,max_children=1)");
        assertThat(forth(s, "\"go\" agent-spawn").stack()).extracting(e -> e.type()).containsExactly("task<agent-result>");
        // A later turn awaits the handle the earlier one left.
        Outcome later = forth(s, "dup agent-await \"final-message\" record-get unwrap drop");
        assertThat(later.status()).as("%s", later).isEqualTo(Outcome.Status.COMPLETED);
        Outcome paused = s.submit(Submission.of("unit yield", "y.fth"));
        String image = s.save(paused.executionId());
        // Another process: the handle comes back from the image's stack with the child's result.
        Session restored = Finch.builder().imageKey(KEY).build().restore(image, SessionOptions.DEFAULT);
        restored.resume(paused.executionId());
        Outcome o = forth(restored, "agent-await \"final-message\" record-get unwrap");
        assertThat(o.values()).as("%s", o).extracting(Object::toString).containsExactly("\"from the stack\"");
    }

    static List<String> codes(List<Diagnostic> ds) { return ds.stream().map(Diagnostic::code).toList(); }
}
