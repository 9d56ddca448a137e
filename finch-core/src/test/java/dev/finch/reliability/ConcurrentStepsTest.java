package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Concurrent steps (step-spawn / step-join, the words under µNorman's workflow and par) through the public API: values
 * of every kind, a deterministic interleaving, and every limit and failure of a run holding for its steps too.
 * Programs are run at the top level (interpreted) and inside a word (compiled), so both tiers are covered.
 */
class ConcurrentStepsTest {
    private static final Finch FINCH = Finch.create();

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "t")); }

    private static Outcome run(String src) { return run(FINCH.newSession(), src); }

    private static String code(Outcome o) { return o.fields().diagnostics().get(0).code(); }

    /** The same program at the top level, and as the body of a word that is then called. */
    private static String tier(String tier, String body, String sig) {
        return tier.equals("top") ? body : ": go ( -- " + sig + " ) " + body + " ; go";
    }

    @ParameterizedTest
    @ValueSource(strings = {"top", "word"})
    void everyKindOfValueComesBackThroughJoin(String t) {
        Outcome o = run(tier(t, """
                [: ( -- int ) 6 7 * ;] step-spawn :> a
                [: ( -- float ) 1.5 2.0 + ;] step-spawn :> b
                [: ( -- bool ) 1 2 < ;] step-spawn :> c
                [: ( -- string ) "x" "y" string-append ;] step-spawn :> d
                [: ( -- list<int> ) [ 1 2 3 ] ;] step-spawn :> e
                a step-join b step-join c step-join d step-join e step-join""", "int float bool string list<int>"));
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.fields().stack()).extracting(v -> v.display()).containsExactly("42", "3.5", "true", "\"xy\"", "[1 2 3]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"top", "word"})
    void theInterleavingIsAFunctionOfTheProgram(String t) {
        // Steps run when the spawner gives up the baton (here: at its first join), lowest id first, each until it
        // ends or waits: a ends, b finds a already ended and goes on, then c.
        String src = tier(t, """
                [: ( -- int ) "a1 " say 1 ;] step-spawn :> a
                [: ( -- int ) "b1 " say a step-join "b2 " say 1 + ;] step-spawn :> b
                [: ( -- int ) "c1 " say 3 ;] step-spawn :> c
                "root " say b step-join c step-join +""", "int");
        Set<String> outputs = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            Outcome o = run(src);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.fields().stack()).extracting(v -> v.display()).containsExactly("5");
            outputs.add(o.output());
        }
        assertThat(outputs).containsExactly("root a1 b1 b2 c1 ");
    }

    @Test void aStepsCheckedErrorStopsTheRunAndNothingCommits() {
        Session s = FINCH.newSession();
        assertThat(run(s, "1 : keep ( int -- int ) 1 + ;")).isInstanceOf(Outcome.Completed.class);
        long revision = s.vmRevision();
        var stack = s.stack();
        Outcome o = run(s, """
                "a" say
                [: ( -- int ) 1 0 / ;] step-spawn :> bad
                [: ( -- int ) 0 begin dup 1000000000 < while 1 + repeat ;] step-spawn :> slow
                bad step-join slow step-join +""");
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-ARITH-002");
        assertThat(o.output()).isEqualTo("a");
        assertThat(s.vmRevision()).isEqualTo(revision);
        assertThat(s.stack()).isEqualTo(stack);
    }

    @Test void theStepBudgetIsTheRunsAndHoldsInsideSteps() {
        Finch small = Finch.builder().maxSteps(200_000).build();
        String loop = "[: ( -- int ) 0 begin true while 1 + repeat ;] step-spawn :> a "
                + "[: ( -- int ) 0 begin true while 1 + repeat ;] step-spawn :> b a step-join b step-join +";
        Outcome o = run(small.newSession(), loop);
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-LIMIT-001");
    }

    @Test void theDeadlineHoldsInsideSteps() {
        Finch quick = Finch.builder().timeout(Duration.ofMillis(300)).maxSteps(Long.MAX_VALUE).build();
        Session s = quick.newSession();
        Outcome o = HangGuard.ran(() -> run(s, "[: ( -- int ) 0 begin true while 1 + repeat ;] step-spawn step-join"));
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
    }

    @Test void cancellingARunStopsItsSteps() throws Exception {
        // Neither a step limit nor a deadline can end the loop before the cancellation does.
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build().newSession();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch stepRuns = new CountDownLatch(1);
            Future<Outcome> f = pool.submit(() -> s.submit(Submission.of("[: ( -- int ) \"in the step\" say 0 begin true while 1 + repeat ;] step-spawn step-join", "t")
                    .withSink(chunk -> stepRuns.countDown())));
            assertThat(HangGuard.await(stepRuns)).as("the step is running").isTrue();
            assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
            Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            assertThat(code(o)).isEqualTo("E-RUN-001");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void stepsNeverJoinedStillRunBeforeTheRunEnds() {
        Outcome o = run("[: ( -- int ) \"late \" say 1 ;] step-spawn drop \"main \" say 2");
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.output()).isEqualTo("main late ");
    }

    @Test void aRunHasAtMost256LiveSteps() {
        Outcome o = run(": many ( int -- ) dup 0 > if [: ( -- int ) 1 ;] step-spawn drop 1 - many else drop then ; 300 many");
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-LIMIT-006");
        assertThat(run(": many ( int -- ) dup 0 > if [: ( -- int ) 1 ;] step-spawn drop 1 - many else drop then ; 256 many"))
                .isInstanceOf(Outcome.Completed.class);
    }

    @Test void aClosureThatYieldsIsNotAStep() {
        // (pauses while steps run are PauseWhileStepsRunTest's)
        Outcome yieldingStep = run("[: ( -- int yields<int,unit> ) 1 yield 2 ;] step-spawn step-join");
        assertThat(yieldingStep).isInstanceOf(Outcome.Failed.class);
        assertThat(code(yieldingStep)).startsWith("E-VERIFY-");
    }

    @AfterAll static void noStepOutlivesItsRun() {
        assertThat(HangGuard.await(() -> dev.finch.vm.runtime.Strands.alive() == 0)).as("step threads alive").isTrue();
    }
}
