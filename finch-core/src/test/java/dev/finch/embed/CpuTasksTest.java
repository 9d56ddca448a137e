package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import dev.finch.vm.runtime.CpuTasks;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 15, item 2: CPU tasks ({@code defer-cpu}, Lisp {@code (defer :cpu …)}) through the public API, in both
 * tiers: a join of an unfinished task is a scheduler suspension that continues once the task is done; poll never
 * waits; cancel, refusals and the run's limits.
 *
 * <p>No assertion depends on timing: a task is made "not done yet" by queueing it behind one that occupies the only
 * worker until the test lets it go ({@link Gate}: a suspended run's task computing forever, ended by cancelling that
 * run), and "done" by waiting for it (a poll loop, or the future).
 */
class CpuTasksTest {
    /**
     * A pure closure that computes a while (300,000 turns of a loop) and answers 42 (Co-Forth). Whether it has finished
     * when the program joins it is up to the machine, unless a {@link Gate} holds it back.
     */
    private static final String SLOW = "[: ( -- int ) 0 begin dup 600000 < while 2 + repeat drop 42 ;]";
    /** A pure closure that never ends. */
    private static final String FOREVER = "[: ( -- int ) begin true while repeat 0 ;]";

    private static Finch finch(Finch.Tier tier) { return Finch.builder().tier(tier).build(); }

    /**
     * A Finch of one CPU worker that another session's suspended run keeps busy (its task computes forever) until
     * {@link #open}: a task queued meanwhile certainly has not started, whatever the machine's load, and starts once the
     * gate opens (the holding run is cancelled, which cancels its task). Runs here have no step limit and a deadline of
     * two minutes (a hang guard; the holding task shares its run's).
     */
    record Gate(Finch finch, Session holder, String held) {
        /** Every gate made, opened after each test whatever it did (a task computing forever would outlive it). */
        static final java.util.List<Gate> MADE = new java.util.concurrent.CopyOnWriteArrayList<>();

        static Gate closed(Finch.Builder builder) {
            Finch f = builder.cpuWorkers(1).maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build();
            Session holder = f.newSession();
            Outcome held = holder.submit(Submission.of(FOREVER + " defer-cpu unit yield drop", "hold.fth"));
            assertThat(held).as("%s", held).isInstanceOf(Outcome.Suspended.class);
            Gate gate = new Gate(f, holder, held.executionId());
            MADE.add(gate);
            return gate;
        }

        Session newSession() { return finch.newSession(); }

        void open() { assertThat(holder.cancel(held)).isTrue(); }
    }

    @AfterEach void openEveryGate() {
        for (Gate g : Gate.MADE) g.holder().cancel(g.held());
        Gate.MADE.clear();
    }

    /** Submits {@code text} and continues it, as the CLI does, while it waits for a task: waits for the task, resumes. */
    static Outcome runThrough(Session s, String text, String sourceId) throws Exception {
        Outcome o = s.submit(Submission.of(text, sourceId));
        for (int i = 0; i < 100 && o.waitingTask().isPresent(); i++) {
            o.waitingTask().get().done().get(HangGuard.SECONDS, TimeUnit.SECONDS);
            o = s.resume(o.executionId());
        }
        return o;
    }

    private static String code(Outcome o) { return o.diagnostics().get(0).code(); }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aJoinOfAnUnfinishedTaskSuspendsTheRunAndTheResumeCompletesIt(Finch.Tier tier) throws Exception {
        Gate gate = Gate.closed(Finch.builder().tier(tier));
        Session s = gate.newSession();
        Outcome first = s.submit(Submission.of("\"a\" say " + SLOW + " defer-cpu task-join \"b\" say 1 +", "j.fth"));
        assertThat(first).as("%s", first).isInstanceOf(Outcome.Suspended.class);
        assertThat(first.waiting()).contains(Outcome.Waiting.TASK);
        assertThat(first.yielded()).isEmpty();
        assertThat(first.pendingRequest()).isEmpty();
        assertThat(first.output()).isEqualTo("a");
        assertThat(FinchJson.write(first)).contains("\"waiting\":\"task\"").contains("\"yielded\":null");
        gate.open();
        first.waitingTask().orElseThrow().done().get(HangGuard.SECONDS, TimeUnit.SECONDS);
        Outcome done = s.resume(first.executionId());
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("ab");
        assertThat(done.values()).containsExactly(Value.of(43));
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aJoinInsideDefinitionsPausesThereAndResumesThere(Finch.Tier tier) throws Exception {
        Gate gate = Gate.closed(Finch.builder().tier(tier));
        Session s = gate.newSession();
        Outcome first = s.submit(Submission.of(": inner ( -- int ) " + SLOW + " defer-cpu task-join ;\n"
                + ": go ( -- int ) \"x\" say inner \"y\" say 1 + ;\ngo go +", "w.fth"));
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.TASK);
        assertThat(first.output()).isEqualTo("x");
        gate.open();
        Outcome done = s.awaitTasks(first);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("xyxy");
        assertThat(done.values()).containsExactly(Value.of(86));
        assertThat(s.definitions().get("go")).doesNotContain("yields");
        Outcome lisp = s.awaitTasks(s.submit(Submission.of("""
                (define (count-to [n : int]) : int (let ((i 0)) (while (< i n) (set! i (+ i 1))) i))
                (define (twice n) (say "a") (let ((v (task-join (defer :cpu (lambda () (count-to n)))))) (say "b") (* 2 v)))
                (+ (twice 1000000) (twice 10))""", "w.lisp")));
        assertThat(lisp.status()).as("%s", lisp).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(lisp.output()).isEqualTo("abab");
        assertThat(lisp.values()).containsExactly(Value.of(86), Value.of(2000020));
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aJoinOfAFinishedTaskAnswersAtOnceAndPollNeverWaits(Finch.Tier tier) throws Exception {
        Gate gate = Gate.closed(Finch.builder().tier(tier));
        Session s = gate.newSession();
        // Polled at once, the task has not started (none); the gate opens when the program says so; then polled until
        // done: the value, no pause.
        CountDownLatch polled = new CountDownLatch(1);
        CompletableFuture<Outcome> run = CompletableFuture.supplyAsync(() -> s.submit(Submission.of(": wait ( task<int> -- task<int> ) task-poll begin dup \"value\" record-get unwrap is-some not while "
                + "\"task\" record-get unwrap task-poll repeat \"task\" record-get unwrap ;\n"
                + SLOW + " defer-cpu task-poll dup \"value\" record-get unwrap is-some swap \"task\" record-get unwrap\n"
                + "\"polled\" say wait dup task-poll \"value\" record-get unwrap unwrap swap task-join", "p.fth").withSink(chunk -> polled.countDown())));
        assertThat(HangGuard.await(polled)).as("polled once").isTrue();
        gate.open();
        Outcome o = run.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).containsExactly(Value.of(false), Value.of(42), Value.of(42));
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void lispDeferCpuRunsInBothTiers(Finch.Tier tier) throws Exception {
        Session s = finch(tier).newSession();
        Outcome o = runThrough(s, """
                (define (count-to [n : int]) : int
                  (let ((i 0)) (while (< i n) (set! i (+ i 1))) i))
                (define t (defer :cpu (lambda () (count-to 2000000))))
                (define u (defer :cpu (lambda () (* 6 7))))
                (+ (task-join t) (task-join u))""", "d.lisp");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).containsExactly(Value.of(2000042));
        Outcome kind = s.submit(Submission.of("(defer :gpu (lambda () 1))", "k.lisp"));
        assertThat(code(kind)).isEqualTo("E-LISP-101");
        assertThat(kind.diagnostics().get(0).expected()).isEqualTo(":cpu");
        Outcome impure = s.submit(Submission.of("(defer :cpu (lambda () (say \"x\") 1))", "i.lisp"));
        assertThat(code(impure)).isEqualTo("E-VERIFY-032");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aCancelledTaskHasNoValue(Finch.Tier tier) throws Exception {
        Session s = finch(tier).newSession();
        Outcome o = runThrough(s, FOREVER + " defer-cpu dup task-cancel task-join", "c.fth");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-TASK-001");
        noTaskKeepsRunning();
    }

    @Test void onlyPureClosuresAreDeferred() throws Exception {
        Session s = Finch.create().newSession();
        // A closure whose type shows session.emit is refused when verified; one whose declared signature hides it
        // (Co-Forth does not make a signature list say) fails when it says, and its join reports that.
        Outcome says = s.submit(Submission.of("[: ( -- int ! {session.emit} ) \"x\" say 1 ;] defer-cpu", "s.fth"));
        assertThat(code(says)).as("%s", says).isEqualTo("E-VERIFY-032");
        assertThat(says.diagnostics().get(0).expected()).isEqualTo("( -> int)");
        Outcome hidden = runThrough(s, "[: ( -- int ) \"x\" say 1 ;] defer-cpu task-join", "h.fth");
        assertThat(code(hidden)).as("%s", hidden).isEqualTo("E-TASK-003");
        assertThat(hidden.output()).isEmpty();
        Outcome fileRead = s.submit(Submission.of("[: ( -- bytes ! {fs.read(${workspace}/**)} ) \"a\" path file-read ;] defer-cpu", "f.fth"));
        assertThat(code(fileRead)).as("%s", fileRead).isEqualTo("E-VERIFY-032");
        Outcome yields = s.submit(Submission.of("[: ( -- int yields<int,unit> ) 1 yield 2 ;] defer-cpu", "y.fth"));
        assertThat(code(yields)).isEqualTo("E-VERIFY-032");
        Outcome input = s.submit(Submission.of("[: ( int -- int ) 1 + ;] defer-cpu", "i.fth"));
        assertThat(code(input)).isEqualTo("E-VERIFY-002");
    }

    @Test void taskWordsRefuseAgentHandlesWhenVerifiedAndStepHandlesWhenRun() {
        Session s = Finch.create().newSession();
        for (String w : new String[] {"task-join", "task-poll drop", "task-cancel unit"}) {
            Outcome o = s.submit(Submission.of(": f ( task<agent-result> -- unit ) " + w + " drop unit ;", "a.fth"));
            assertThat(code(o)).as(w).isEqualTo("E-VERIFY-033");
            assertThat(o.diagnostics().get(0).found()).isEqualTo("task<agent-result>");
        }
        Outcome step = s.submit(Submission.of("[: ( -- int ) 1 ;] step-spawn task-join", "s.fth"));
        assertThat(code(step)).isEqualTo("E-TASK-002");
        Outcome task = s.submit(Submission.of("[: ( -- int ) 1 ;] defer-cpu step-join", "t.fth"));
        assertThat(code(task)).isEqualTo("E-TASK-002");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aTaskThatNeverEndsHitsTheRunsStepLimit(Finch.Tier tier) throws Exception {
        Session s = Finch.builder().tier(tier).maxSteps(2_000_000).build().newSession();
        Outcome o = runThrough(s, FOREVER + " defer-cpu task-join", "l.fth");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-001");
        noTaskKeepsRunning();
    }

    @Test void aTaskThatNeverEndsHitsTheDeadline() throws Exception {
        Session s = Finch.builder().timeout(Duration.ofMillis(300)).maxSteps(Long.MAX_VALUE).build().newSession();
        Outcome o = HangGuard.ran(() -> {
            try {
                return runThrough(s, FOREVER + " defer-cpu task-join", "d.fth");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
        noTaskKeepsRunning();
    }

    @Test void aTasksValuesCountAgainstTheMemoryLimit() throws Exception {
        Session s = Finch.builder().maxMemoryBytes(1 << 20).build().newSession();
        Outcome o = runThrough(s, "[: ( -- string ) \"x\" 2000000 string-repeat ;] defer-cpu task-join string-length", "m.fth");
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
    }

    @Test void aFailedTaskFailsTheJoinNotTheRunThatNeverJoinsIt() throws Exception {
        Session s = Finch.create().newSession();
        Outcome joined = runThrough(s, "[: ( -- int ) 1 0 / ;] defer-cpu task-join", "f.fth");
        assertThat(code(joined)).isEqualTo("E-ARITH-002");
        Outcome unjoined = runThrough(s, "[: ( -- int ) 1 0 / ;] defer-cpu drop 7", "u.fth");
        assertThat(unjoined.values()).containsExactly(Value.of(7));
    }

    @Test void aRunThatEndsCancelsItsRunningTasks() throws Exception {
        Session s = Finch.create().newSession();
        Outcome o = s.submit(Submission.of(FOREVER + " defer-cpu", "e.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        noTaskKeepsRunning();
        // Its handle stayed on the stack; a later join finds it cancelled.
        Outcome later = runThrough(s, "task-join", "later.fth");
        assertThat(code(later)).isEqualTo("E-TASK-001");
    }

    @Test void aJoinWhereTheRunCannotPauseWaitsInPlace() throws Exception {
        // list-map runs its function without a resume point, and with one worker the tasks queue: each join runs
        // its queued task itself rather than deadlock.
        Session s = Finch.builder().cpuWorkers(1).build().newSession();
        Outcome o = runThrough(s, "[ 1 2 3 ] [: ( int -- int ) :> n [: ( -- int ) n n * ;] defer-cpu task-join ;] list-map", "m.fth");
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.fields().stack()).extracting(e -> e.display()).containsExactly("[1 4 9]");
        Outcome nested = runThrough(Finch.builder().cpuWorkers(1).build().newSession(), SLOW + " defer-cpu :> a [: ( -- int ) a task-join 1 + ;] defer-cpu task-join", "n.fth");
        assertThat(nested.values()).containsExactly(Value.of(43));
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aRunWaitingForATaskIsSavedAndRestoredWithItsTasks(Finch.Tier tier) throws Exception {
        byte[] key = "the host's image key, 32 bytes or more".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Finch finch = Finch.builder().tier(tier).imageKey(key).cpuWorkers(1).build();
        Session s = finch.newSession();
        // Handles in the frames: one done (joined), one cancelled, one computing forever on the only worker (hog), so
        // that the one joined last (six) is certainly still queued when the run pauses and is saved as its closure.
        String src = "[: ( -- int ) 5 ;] defer-cpu :> five  five task-join drop\n"
                + FOREVER + " defer-cpu :> gone  gone task-cancel\n"
                + FOREVER + " defer-cpu :> hog\n"
                + "[: ( -- int ) 6 7 * ;] defer-cpu :> six\n"
                + "\"a\" say six task-join five task-join + hog task-cancel";
        Outcome first = s.submit(Submission.of(src, "r.fth"));
        // The join of five may pause too (if five had not finished yet): go on until the run waits for six, task 4.
        while (first.waitingTask().isPresent() && first.waitingTask().get().task() != 4) {
            first.waitingTask().get().done().get(HangGuard.SECONDS, TimeUnit.SECONDS);
            first = s.resume(first.executionId());
        }
        assertThat(first.waitingTask()).as("%s", first).map(Outcome.TaskWait::task).contains(4L);
        String image = s.save(first.executionId());
        // The continuation is a JSON string inside the image: unescape its quotes to read it.
        assertThat(image.replace("\\\"", "\"")).contains("\"cpu_task\":\"restart\"").contains("\"cpu_task\":\"done\"").contains("\"cpu_task\":\"cancelled\"");
        assertThat(s.cancel(first.executionId())).isTrue();
        noTaskKeepsRunning();
        String id = first.executionId();

        // Restored in another Finch (another process, as far as the image knows): a task saved as its closure starts
        // again when the run uses it (six, at the join), and only then (hog is cancelled without ever running again).
        Session restored = Finch.builder().tier(tier).imageKey(key).cpuWorkers(1).build().restore(image, dev.finch.SessionOptions.DEFAULT);
        assertThat(restored.suspendedExecutions()).containsExactly(id);
        Outcome done = restored.awaitTasks(restored.resume(id));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("a");
        assertThat(done.values()).containsExactly(Value.of(47));
        noTaskKeepsRunning();
    }

    @Test void aCancelledTaskIsStillCancelledAfterARestore() throws Exception {
        byte[] key = "the host's image key, 32 bytes or more".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Gate gate = Gate.closed(Finch.builder().imageKey(key));
        Session s = gate.newSession();
        Outcome first = s.submit(Submission.of(FOREVER + " defer-cpu dup task-cancel " + SLOW + " defer-cpu task-join drop task-join", "c.fth"));
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.TASK);
        String image = s.save(first.executionId());
        s.cancel(first.executionId());
        gate.open();
        Session restored = Finch.builder().imageKey(key).build().restore(image, dev.finch.SessionOptions.DEFAULT);
        Outcome o = restored.awaitTasks(restored.resume(first.executionId()));
        assertThat(code(o)).as("%s", o).isEqualTo("E-TASK-001");
        noTaskKeepsRunning();
    }

    @Test void aStepHandleBesideATaskWaitIsSavedAndRestored() throws Exception {
        byte[] key = "the host's image key, 32 bytes or more".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Gate gate = Gate.closed(Finch.builder().imageKey(key));
        Session s = gate.newSession();
        Outcome o = s.submit(Submission.of("[: ( -- int ) 1 ;] step-spawn :> st st step-join drop " + SLOW + " defer-cpu task-join st step-join +", "s.fth"));
        assertThat(o.waiting()).as("%s", o).contains(Outcome.Waiting.TASK);
        // An ended step's handle is saved with its value, the task as its closure, which starts again after the restore.
        String image = s.save(o.executionId());
        assertThat(s.cancel(o.executionId())).isTrue();
        gate.open();
        Session restored = Finch.builder().imageKey(key).build().restore(image);
        Outcome done = restored.awaitTasks(restored.resume(o.executionId()));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.values()).containsExactly(dev.finch.vm.Value.of(43));
        noTaskKeepsRunning();
    }

    @Test void awaitTasksAnswersARefusedResumeRatherThanRetryIt() throws Exception {
        Gate gate = Gate.closed(Finch.builder());
        Session s = gate.newSession();
        Outcome first = s.submit(Submission.of(SLOW + " defer-cpu task-join", "a.fth"));
        assertThat(first.waiting()).as("%s", first).contains(Outcome.Waiting.TASK);
        // The session moves on meanwhile: the paused run could never commit, so its resume is refused.
        assertThat(s.submit(Submission.of("1", "b.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        gate.open();
        Outcome o = s.awaitTasks(first);
        assertThat(o.status()).isEqualTo(Outcome.Status.REFUSED);
        assertThat(code(o)).isEqualTo("E-SESSION-001");
        assertThat(o.waiting()).contains(Outcome.Waiting.TASK);
        assertThat(FinchJson.write(o)).contains("\"waiting\":\"task\"");
        assertThat(s.cancel(first.executionId())).isTrue();
        noTaskKeepsRunning();
    }

    @Test void theWorkerPoolIsConfigurable() {
        assertThatThrownBy(() -> Finch.builder().cpuWorkers(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Every task has stopped (allowing it a moment to reach its next fuel slice). */
    static void noTaskKeepsRunning() {
        assertThat(HangGuard.await(() -> CpuTasks.running() == 0)).as("CPU tasks still computing").isTrue();
    }
}
