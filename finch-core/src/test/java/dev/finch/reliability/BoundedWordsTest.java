package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The limits still hold where compiled code skips its checks: a word that can neither loop nor recurse has no
 * depth or fuel check of its own (its caller charges its step), and a loop counts its fuel in a local.
 */
class BoundedWordsTest {
    /** Two helpers that can neither loop nor recurse; {@code inc2} calls {@code inc}. */
    private static final String HELPERS = ": inc ( int -- int ) 1 + ; : inc2 ( int -- int ) inc ;";
    /** The same work through a word on a cycle of the call graph (never taken), which keeps its own checks. */
    private static final String CHECKED = ": inc2 ( int -- int ) dup 0 < if inc2 then 1 + ;";

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "t")); }

    private static String code(Outcome o) { return o.fields().diagnostics().get(0).code(); }

    private static String loop(int n) { return "0 begin dup " + n + " < while inc2 repeat"; }

    /** Each iteration costs a back-edge and the call of inc2 (and inc2's call of inc): 3 steps, or 2 the checked way. */
    @Test void aBoundedWordCalledInALoopStillCountsItsSteps() {
        int n = 200_000;
        Finch tight = Finch.builder().maxSteps(500_000).build();
        // Without the helpers' steps the loop would need about n steps and pass; with them it needs 3n.
        Outcome bounded = run(tight.newSession(), HELPERS + " " + loop(n));
        assertThat(bounded.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(bounded)).isEqualTo("E-LIMIT-001");
        Finch roomy = Finch.builder().maxSteps(700_000).build();
        Outcome done = run(roomy.newSession(), HELPERS + " " + loop(n));
        assertThat(done).isInstanceOf(Outcome.Completed.class);
        // The checked way costs a step less per iteration: the same budget that stops 3 steps passes 2.
        assertThat(run(tight.newSession(), CHECKED + " " + loop(n))).isInstanceOf(Outcome.Completed.class);
        Finch under = Finch.builder().maxSteps(390_000).build();
        assertThat(code(run(under.newSession(), CHECKED + " " + loop(n)))).isEqualTo("E-LIMIT-001");
    }

    /** A bounded word is charged the same whether a loop (fuel in a local) or a plain word calls it. */
    @Test void aBoundedWordCostsTheSameFromALoopAndFromAWord() {
        String unrolled = HELPERS + " : ten ( int -- int ) inc2 inc2 inc2 inc2 inc2 inc2 inc2 inc2 inc2 inc2 ; : hundred ( int -- int ) ten ten ten ten ten ten ten ten ten ten ;";
        // 100 calls of inc2 (2 steps each) and 10 of ten and one of hundred: 211 steps, plus the program's own.
        Finch enough = Finch.builder().maxSteps(260).build();
        assertThat(run(enough.newSession(), unrolled + " 0 hundred")).isInstanceOf(Outcome.Completed.class);
        Finch short_ = Finch.builder().maxSteps(200).build();
        assertThat(code(run(short_.newSession(), unrolled + " 0 hundred"))).isEqualTo("E-LIMIT-001");
    }

    /** A tight loop without calls keeps its fuel in a local and still stops at the step limit and at its deadline. */
    @Test void aTightLoopStopsAtTheStepLimitAndAtItsDeadline() {
        String forever = "0 begin true while 1 + repeat";
        assertThat(code(run(Finch.builder().maxSteps(1_000_000).build().newSession(), forever))).isEqualTo("E-LIMIT-001");
        Session late = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(Duration.ofMillis(200)).build().newSession();
        Outcome o = HangGuard.ran(() -> run(late, "0 begin true while 1 + repeat"));
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
    }

    /** Cancelling a tight loop that calls only bounded words stops it promptly. */
    @Test void cancellationStopsATightLoopOfBoundedCalls() throws Exception {
        // Neither a step limit nor a deadline can end the loop before the cancellation does.
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build().newSession();
        CountDownLatch looping = new CountDownLatch(1);
        CompletableFuture<Outcome> f = s.submitAsync(Submission.of(HELPERS + " \"looping\" say 0 begin true while inc2 repeat", "busy.fth")
                .withSink(chunk -> looping.countDown()));
        assertThat(HangGuard.await(looping)).as("the loop is running").isTrue();
        assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(code(o)).isEqualTo("E-RUN-001");
    }

    /** Mutual recursion through two words, each calling a bounded helper, still meets the depth limit. */
    @Test void deepMutualRecursionThroughBoundedHelpersHitsTheDepthLimit() {
        String src = HELPERS + " : ping ( int -- int ) inc2 pong ; : pong ( int -- int ) inc ping ; 0 ping";
        assertThat(code(run(Finch.builder().maxSteps(Long.MAX_VALUE).maxDepth(5_000).build().newSession(), src))).isEqualTo("E-LIMIT-003");
        assertThat(code(run(Finch.create().newSession(), src))).isEqualTo("E-LIMIT-003");
    }

    /**
     * A chain of words that can neither loop nor recurse adds at most its own length to the stack, so it has no
     * depth check of its own: deeper than a tiny depth limit it completes, while recursion under that limit stops.
     */
    @Test void aChainOfBoundedWordsIsBoundedByItsTextNotChecked() {
        String chain = HELPERS + " : a ( int -- int ) inc2 ; : b ( int -- int ) a ; : c ( int -- int ) b ; : d ( int -- int ) c ; : e ( int -- int ) d ;";
        Finch shallow = Finch.builder().maxDepth(4).build();
        Outcome o = run(shallow.newSession(), chain + " 0 e");
        assertThat(o).isInstanceOf(Outcome.Completed.class);
        assertThat(code(run(shallow.newSession(), ": down ( int -- int ) dup 10 < if 1 + down then ; 0 down"))).isEqualTo("E-LIMIT-003");
    }

    /** Overflow in a bounded word stays an error. */
    @Test void overflowInABoundedWordIsAnError() {
        assertThat(code(run(Finch.create().newSession(), HELPERS + " 9223372036854775807 inc2"))).isEqualTo("E-ARITH-001");
    }
}
