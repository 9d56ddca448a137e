package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 item 4: an embedder's code — a pure {@code @Word} that spins or sleeps, an output sink that never returns —
 * cannot hold a run past its deadline or its cancellation. The run ends {@code E-LIMIT-002} or {@code E-RUN-001}, commits
 * nothing, its late answer is discarded, and the session answers afterwards. Nothing here bounds wall time: the host's
 * code is released only after the outcome is in (a latch), so an outcome that waited for it could not exist; the
 * {@code get} timeouts are hang guards.
 */
class HostCodeDeadlineTest {
    static final ExecutorService POOL = Executors.newCachedThreadPool();
    /** Holds the host's code until the test has its outcome. */
    static volatile CountDownLatch release = new CountDownLatch(1);
    static final AtomicInteger ENTERED = new AtomicInteger();
    static final AtomicInteger RETURNED = new AtomicInteger();
    static final AtomicBoolean SPIN = new AtomicBoolean(true);

    /** An embedder's words that do not come back on their own. */
    public static final class Stubborn {
        @Word(name = "spin", doc = "Spins (ignoring interrupts) until the test releases it; answers its input.")
        @Overload(sig = "int -> int")
        public static long spin(long x) {
            ENTERED.incrementAndGet();
            // The test's own latch, read once: the next test's fresh latch must not hold a spinner left from this one.
            CountDownLatch mine = release;
            while (SPIN.get() && mine.getCount() > 0) Thread.onSpinWait();
            RETURNED.incrementAndGet();
            return x + 1;
        }

        @Word(name = "nap", doc = "Sleeps the given milliseconds, then answers them.")
        @Overload(sig = "int -> int")
        public static long nap(long ms) {
            ENTERED.incrementAndGet();
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            RETURNED.incrementAndGet();
            return ms;
        }

        @Word(name = "flood", doc = "Answers a string of the given number of characters.")
        @Overload(sig = "int -> string")
        public static String flood(long n) { return "x".repeat((int) n); }
    }

    @AfterEach void releaseHostCode() {
        release.countDown();
        release = new CountDownLatch(1);
        ENTERED.set(0);
        RETURNED.set(0);
    }

    @AfterAll static void stop() { POOL.shutdownNow(); }

    static Finch finch(Duration timeout) { return Finch.builder().words(Stubborn.class).timeout(timeout).build(); }

    static String code(Outcome o) { return o.diagnostics().isEmpty() ? "none" : o.diagnostics().get(0).code(); }

    static void stillAnswers(Session s) {
        Outcome o = s.submit(Submission.of("1 2 +", "after"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.stack().get(s.stack().size() - 1).display()).isEqualTo("3");
    }

    static void awaitEntered(int n) {
        assertThat(HangGuard.await(() -> ENTERED.get() >= n)).as("the host's code was entered").isTrue();
    }

    /** The host's code, released, has come back (its answer too late for the run that called it). */
    static void awaitReturned() {
        assertThat(HangGuard.await(() -> RETURNED.get() > 0)).as("the host's code returned once released").isTrue();
    }

    @Test
    void aSpinningPureWordMeetsTheDeadlineAndCommitsNothing() throws Exception {
        Session s = finch(Duration.ofMillis(300)).newSession();
        Future<Outcome> f = POOL.submit(() -> HangGuard.ran(() -> s.submit(Submission.of("41 spin", "t.fth"))));
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        // The host's code is still spinning: the outcome did not wait for it.
        assertThat(RETURNED.get()).isZero();
        assertThat(code(o)).as("%s", o).isEqualTo("E-LIMIT-002");
        assertThat(s.vmRevision()).isZero();
        release.countDown();
        awaitReturned();
        // Its late answer is discarded: nothing was committed, the stack is as it was.
        assertThat(s.vmRevision()).isZero();
        assertThat(s.stack()).isEmpty();
        stillAnswers(s);
    }

    @Test
    void cancellingASpinningWordEndsTheRunAtOnce() throws Exception {
        Session s = finch(Duration.ofSeconds(60)).newSession();
        Future<Outcome> f = POOL.submit(() -> s.submit(Submission.of("(spin 1)", "t.lisp")));
        awaitEntered(1);
        String id = s.runningExecution().orElseThrow();
        assertThat(s.cancel(id)).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(RETURNED.get()).as("the outcome did not wait for the host's code").isZero();
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(code(o)).isEqualTo("E-RUN-001");
        release.countDown();
        awaitReturned();
        assertThat(s.vmRevision()).as("the late answer committed nothing").isZero();
        stillAnswers(s);
    }

    @Test
    void aLoopOfSlowHostCallsStopsAtTheFirstCheckPastTheDeadline() {
        // Ten calls of 150 ms under a 400 ms deadline: the deadline is checked when each call returns.
        Session s = finch(Duration.ofMillis(400)).newSession();
        Outcome o = HangGuard.ran(() -> s.submit(Submission.of("0 begin dup 10 < while 150 nap drop 1 + repeat", "t.fth")));
        assertThat(code(o)).as("%s", o).isEqualTo("E-LIMIT-002");
        assertThat(ENTERED.get()).as("calls made before the run stopped").isLessThan(10);
        assertThat(s.vmRevision()).isZero();
        stillAnswers(s);
    }

    /** Issue 35 item 9: what a host's word answers is a value like any other, held to the run's value limit. */
    @Test
    void aHostsAnswerPastTheValueLimitIsRefused() {
        Session s = Finch.builder().words(Stubborn.class).maxMemoryBytes(1 << 20).build().newSession();
        Outcome o = s.submit(Submission.of("2000000 flood", "t.fth"));
        assertThat(code(o)).as("%s", o).isEqualTo("E-LIMIT-005");
        assertThat(o.diagnostics().get(0).message()).contains("`flood` answered");
        assertThat(s.vmRevision()).isZero();
        assertThat(s.submit(Submission.of("1000 flood string-length", "t.fth")).stack().get(0).display()).isEqualTo("1000");
        stillAnswers(s);
    }

    @Test
    void aSinkThatNeverReturnsDoesNotHoldTheCaller() throws Exception {
        CountDownLatch mine = release;
        Session s = Finch.builder().timeout(Duration.ofMillis(300)).build().newSession();
        CountDownLatch sinkEntered = new CountDownLatch(1);
        Future<Outcome> f = POOL.submit(() -> HangGuard.ran(() -> s.submit(Submission.of("\"hello\" say", "t.fth").withSink(chunk -> {
            sinkEntered.countDown();
            while (mine.getCount() > 0) Thread.onSpinWait();
        }))));
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(sinkEntered.getCount()).isZero();
        assertThat(code(o)).as("%s", o).isEqualTo("E-LIMIT-002");
        assertThat(s.vmRevision()).isZero();
        release.countDown();
        stillAnswers(s);
    }

    @Test
    void aSinkThatNeverReturnsCanBeCancelled() throws Exception {
        CountDownLatch mine = release;
        Session s = Finch.builder().timeout(Duration.ofSeconds(60)).build().newSession();
        CountDownLatch sinkEntered = new CountDownLatch(1);
        Future<Outcome> f = POOL.submit(() -> s.submit(Submission.of("\"hello\" say", "t.fth").withSink(chunk -> {
            sinkEntered.countDown();
            while (mine.getCount() > 0) Thread.onSpinWait();
        })));
        assertThat(HangGuard.await(sinkEntered)).isTrue();
        assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(code(o)).as("%s", o).isEqualTo("E-RUN-001");
        release.countDown();
        stillAnswers(s);
    }

    /**
     * Behind Finch's own buffered sink, a target that never returns holds neither the run nor the caller: the run
     * completes on the caller's thread and commits (its text is in the outcome), while the delivery waits on its own
     * thread; the session answers, and a later run's text is delivered by another delivery thread.
     */
    @Test
    void aBufferedSinkWhoseTargetNeverReturnsHoldsNothing() throws Exception {
        CountDownLatch mine = release;
        Session s = Finch.builder().timeout(Duration.ofSeconds(60)).build().newSession();
        CountDownLatch sinkEntered = new CountDownLatch(1);
        dev.finch.vm.BufferedSink stuck = (dev.finch.vm.BufferedSink) dev.finch.vm.BufferedSink.of(chunk -> {
            sinkEntered.countDown();
            while (mine.getCount() > 0) Thread.onSpinWait();
        });
        Outcome o = POOL.submit(() -> s.submit(Submission.of("\"hello\" say 41 1 +", "t.fth").withSink(stuck))).get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("hello");
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(HangGuard.await(sinkEntered)).isTrue();
        assertThat(stuck.awaitDelivered(Duration.ofMillis(1))).as("still held by its target").isFalse();
        List<String> later = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        dev.finch.vm.BufferedSink other = (dev.finch.vm.BufferedSink) dev.finch.vm.BufferedSink.of(later::add);
        assertThat(s.submit(Submission.of("\"next\" say", "t.fth").withSink(other)).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(other.awaitDelivered(HangGuard.LIMIT)).isTrue();
        assertThat(later).containsExactly("next");
        release.countDown();
        assertThat(stuck.awaitDelivered(HangGuard.LIMIT)).isTrue();
    }
}
