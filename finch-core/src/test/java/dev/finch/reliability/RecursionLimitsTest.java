package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The limits of a compiled recursion whose fuel travels through its calls rather than the run's context: the
 * step budget, the deadline and cancellation still stop it (promptly: the context is charged a slice at a time),
 * from a submission and from {@code Session.call}, and a run that suspends inside a recursion that calls such
 * words resumes with the same result and the same steps as the interpreter.
 */
class RecursionLimitsTest {
    private static final String FIB = ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;";

    /** Recursion that yields every tenth level and calls fib (threaded fuel) on the way down and back up. */
    private static final String WALK = FIB + " : walk ( int -- int yields<int,unit> ) dup 0 = if else"
            + " dup 10 mod 0 = if dup yield then 12 fib drop 1 - walk 12 fib drop 1 + then ;";

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "t")); }

    private static String code(Outcome o) { return o.fields().diagnostics().get(0).code(); }

    /**
     * A small self-recursive word compiles as twins (two copies of its body, each calling the other): the depth
     * limit stops it in either copy — at an odd and at an even limit — with the interpreter's diagnostic, and the
     * least depth that completes it is the interpreter's.
     */
    @Test void theDepthLimitStopsATwinnedRecursionInEitherCopyAsTheInterpreterDoes() {
        String src = ": down ( int -- int ) dup 0 > if 1 - down 1 + then ; 500 down";
        for (int depth : new int[] {99, 100, 101, 102}) {
            Outcome compiled = Finch.builder().tier(Finch.Tier.COMPILED).maxDepth(depth).build().newSession().submit(Submission.of(src, "t"));
            Outcome interpreted = Finch.builder().tier(Finch.Tier.INTERPRETED).maxDepth(depth).build().newSession().submit(Submission.of(src, "t"));
            assertThat(code(compiled)).as("depth %d", depth).isEqualTo("E-LIMIT-003");
            assertThat(compiled.fields().diagnostics().get(0).message()).isEqualTo(interpreted.fields().diagnostics().get(0).message());
        }
        assertThat(leastDepth(Finch.Tier.COMPILED, src)).isEqualTo(leastDepth(Finch.Tier.INTERPRETED, src));
    }

    private static int leastDepth(Finch.Tier tier, String src) {
        int lo = 1;
        int hi = 4096;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Outcome o = Finch.builder().tier(tier).maxDepth(mid).build().newSession().submit(Submission.of(src, "t"));
            if (o instanceof Outcome.Completed) hi = mid;
            else lo = mid + 1;
        }
        return hi;
    }

    @Test void theStepBudgetStopsAnExpensiveRecursion() {
        Finch finch = Finch.builder().maxSteps(1_000_000).build();
        assertThat(code(run(finch.newSession(), FIB + " 40 fib"))).isEqualTo("E-LIMIT-001");
        Session s = finch.newSession();
        assertThat(run(s, FIB)).isInstanceOf(Outcome.Completed.class);
        assertThat(code(s.call("fib", Value.of(40)))).isEqualTo("E-LIMIT-001");
        // fib(25) makes 242,785 calls: well inside the budget, and the session still answers.
        assertThat(s.call("fib", Value.of(25)).values()).containsExactly(Value.of(75_025));
    }

    @Test void theDeadlineStopsARecursionPromptly() {
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(Duration.ofMillis(200)).build().newSession();
        // fib(60) makes some 10^12 calls and no step limit holds it: only the deadline can have ended it.
        Outcome o = HangGuard.ran(() -> run(s, FIB + " 60 fib"));
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
        assertThat(HangGuard.ran(() -> run(s, FIB))).isInstanceOf(Outcome.Completed.class);
        assertThat(code(HangGuard.ran(() -> s.call("fib", Value.of(60))))).isEqualTo("E-LIMIT-002");
    }

    @Test void cancellationStopsARecursionPromptly() throws Exception {
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build().newSession();
        // Defined first, so that the cancelled submission is running fib, not being compiled.
        assertThat(run(s, FIB + " 10 fib")).isInstanceOf(Outcome.Completed.class);
        CountDownLatch recursing = new CountDownLatch(1);
        CompletableFuture<Outcome> f = s.submitAsync(Submission.of("\"recursing\" say 60 fib", "busy.fth").withSink(chunk -> recursing.countDown()));
        assertThat(HangGuard.await(recursing)).as("fib is running").isTrue();
        assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
        // The deadline is two minutes and fib(60) never ends by itself: E-RUN-001 is the cancellation, not the clock.
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(code(o)).isEqualTo("E-RUN-001");
    }

    @Test void aRunSuspendedInsideARecursionResumesWithTheInterpretersResultAndSteps() {
        for (Finch.Tier tier : new Finch.Tier[] {Finch.Tier.COMPILED, Finch.Tier.INTERPRETED}) {
            Outcome o = runThrough(Finch.builder().tier(tier).build().newSession(), WALK + " 95 walk");
            assertThat(o).as(tier.name()).isInstanceOf(Outcome.Completed.class);
            assertThat(o.values()).as(tier.name()).containsExactly(Value.of(95));
        }
        // Each stretch between two yields costs the same in both tiers, so the least budget that lets every stretch
        // finish is the same (the longest stretch is one between two yields: ten levels, not the first five).
        assertThat(leastBudget(Finch.Tier.COMPILED)).isEqualTo(leastBudget(Finch.Tier.INTERPRETED));
    }

    /** Submits {@code src} and resumes it until it ends; the outcome that ended it. */
    private static Outcome runThrough(Session s, String src) {
        Outcome o = run(s, src);
        for (int i = 0; i < 100 && o instanceof Outcome.Suspended; i++) o = s.resume(o.executionId());
        return o;
    }

    private static long leastBudget(Finch.Tier tier) {
        long lo = 1;
        long hi = 1 << 20;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            Session s = Finch.builder().tier(tier).maxSteps(mid).build().newSession();
            if (runThrough(s, WALK + " 95 walk") instanceof Outcome.Completed) hi = mid;
            else lo = mid + 1;
        }
        return hi;
    }
}
