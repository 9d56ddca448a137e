package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SessionTest {
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(20)).build();

    private static Submission forth(String text) { return Submission.of(text, "test.fth").withLanguage(Language.FORTH); }

    private static List<String> displays(Outcome o) { return o.stack().stream().map(StackEntry::display).toList(); }

    private static String code(Outcome o) { return o.diagnostics().isEmpty() ? null : o.diagnostics().get(0).code(); }

    @Test
    void aNewSessionIsEmptyAtRevisionZeroGenerationOne() {
        Session s = finch.newSession();
        assertThat(s.vmRevision()).isZero();
        assertThat(s.manifestGeneration()).isEqualTo(1);
        assertThat(s.stack()).isEmpty();
    }

    @Test
    void aCompletedRunCommitsItsStackAndBumpsTheRevision() {
        Session s = finch.newSession();
        Outcome o = s.submit(forth("5 6"));
        assertThat(o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.stack()).containsExactly(new StackEntry("int", "5"), new StackEntry("int", "6"));
        assertThat(o.vmRevision()).isEqualTo(1);
        assertThat(s.vmRevision()).isEqualTo(1);
        Outcome next = s.submit(forth("*"));
        assertThat(displays(next)).containsExactly("30");
        assertThat(next.vmRevision()).isEqualTo(2);
    }

    @Test
    void aVerifyErrorCommitsNothing() {
        Session s = finch.newSession();
        s.submit(forth("5 6"));
        Outcome o = s.submit(forth("drop \"no\" 1 +"));
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
        assertThat(o.vmRevision()).isEqualTo(1);
        assertThat(displays(o)).containsExactly("5", "6");
        assertThat(s.vmRevision()).isEqualTo(1);
    }

    @Test
    void aRunTimeErrorCommitsNothingButKeepsStreamedOutput() {
        Session s = finch.newSession();
        s.submit(forth("7"));
        List<String> streamed = new ArrayList<>();
        Outcome o = s.submit(forth(": bad ( -- ) ; \"before\" say drop 1 0 / drop").withSink(streamed::add));
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("execute");
        assertThat(o.output()).isEqualTo("before");
        assertThat(streamed).containsExactly("before");
        // Neither the dropped 7 nor the definition survived the failed run.
        assertThat(displays(o)).containsExactly("7");
        assertThat(s.definitions()).doesNotContainKey("bad");
        assertThat(s.vmRevision()).isEqualTo(1);
    }

    @Test
    void definitionsAreSharedAcrossFrontends() {
        Session s = finch.newSession();
        Outcome def = s.submit(Submission.of("(define (inc [n : int]) : int (+ n 1))", "turn-1"));
        assertThat(def.language()).isEqualTo("lisp");
        assertThat(def).isInstanceOf(Outcome.Completed.class);
        Outcome use = s.submit(Submission.of("41 inc int-to-string say", "turn-2"));
        assertThat(use.language()).isEqualTo("forth");
        assertThat(use.output()).isEqualTo("42");
    }

    @Test
    void aStaleRevisionIsRefusedBeforeRunning() {
        Session s = finch.newSession();
        List<String> streamed = new ArrayList<>();
        Outcome o = s.submit(forth("\"never\" say").expecting(3, 1).withSink(streamed::add));
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-SESSION-001");
        assertThat(o.diagnostics().get(0).expected()).isEqualTo("0");
        assertThat(o.diagnostics().get(0).found()).isEqualTo("3");
        assertThat(o.diagnostics().get(0).origin().source()).isEqualTo("test.fth");
        assertThat(streamed).isEmpty();
        assertThat(s.vmRevision()).isZero();
    }

    @Test
    void aStaleGenerationIsRefusedBeforeRunning() {
        Session s = finch.newSession();
        Outcome o = s.submit(forth("1").expecting(0, 7));
        assertThat(code(o)).isEqualTo("E-SESSION-002");
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("host");
    }

    @Test
    void aCurrentRevisionIsAccepted() {
        Session s = finch.newSession();
        s.submit(forth("1"));
        Outcome o = s.submit(forth("2 +").expecting(1, 1));
        assertThat(o).isInstanceOf(Outcome.Completed.class);
        assertThat(displays(o)).containsExactly("3");
    }

    @Test
    void normanRunsInSessionsToo() {
        Outcome o = finch.newSession().submit(Submission.of("(define sq (x) (* x x))\n(sq 4)", "t.nm").withLanguage(Language.NORMAN));
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.language()).isEqualTo("norman");
        assertThat(o.fields().stack()).extracting(StackEntry::display).containsExactly("16.0");
    }

    @Test
    void aSecondThreadEnteringABusySessionGetsTheBusyDiagnostic() throws Exception {
        Session s = finch.newSession();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Outcome> first = pool.submit(() -> s.submit(forth("\"x\" say 1").withSink(chunk -> {
                inside.countDown();
                try {
                    release.await(HangGuard.SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            })));
            assertThat(HangGuard.await(inside)).isTrue();
            Outcome second = s.submit(forth("2"));
            assertThat(second).isInstanceOf(Outcome.Failed.class);
            assertThat(code(second)).isEqualTo("E-SESSION-003");
            release.countDown();
            Outcome o = first.get(HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Completed.class);
            assertThat(displays(o)).containsExactly("1");
            assertThat(s.vmRevision()).isEqualTo(1);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void cancellingFromAnotherThreadStopsTheRunAndCommitsNothing() throws Exception {
        // Neither a step limit nor a deadline can end the loop before the cancellation does.
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build().newSession();
        s.submit(forth("1"));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Outcome> run = pool.submit(() -> s.submit(forth("2 begin true while repeat")));
            assertThat(HangGuard.await(() -> s.runningExecution().isPresent())).as("the run started").isTrue();
            String id = s.runningExecution().orElseThrow();
            assertThat(s.cancel(id)).isTrue();
            Outcome o = run.get(HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(o).isInstanceOf(Outcome.Cancelled.class);
            assertThat(o.executionId()).isEqualTo(id);
            assertThat(displays(o)).containsExactly("1");
            assertThat(s.vmRevision()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aUnitYieldSuspendsAndResumeContinuesWithAccumulatedOutput() {
        Session s = finch.newSession();
        Outcome o = s.submit(forth("\"a\" say unit yield \"b\" say 3"));
        assertThat(o).isInstanceOf(Outcome.Suspended.class);
        assertThat(((Outcome.Suspended) o).isUnitYield()).isTrue();
        assertThat(o.output()).isEqualTo("a");
        assertThat(s.vmRevision()).isZero();
        assertThat(s.suspendedExecutions()).containsExactly(o.executionId());
        Outcome done = s.resume(o.executionId());
        assertThat(done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.executionId()).isEqualTo(o.executionId());
        assertThat(done.output()).isEqualTo("ab");
        assertThat(displays(done)).containsExactly("3");
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(code(s.resume(o.executionId()))).isEqualTo("E-SESSION-004");
    }

    @Test
    void aResumedRunWhoseSnapshotWentStaleCommitsNothing() {
        Session s = finch.newSession();
        Outcome paused = s.submit(forth("unit yield 1"));
        assertThat(paused).isInstanceOf(Outcome.Suspended.class);
        assertThat(s.submit(forth("2"))).isInstanceOf(Outcome.Completed.class);
        // Refused before it runs: it could never commit. It still waits, and the host can cancel it.
        Outcome late = s.resume(paused.executionId());
        assertThat(late).isInstanceOf(Outcome.Refused.class);
        assertThat(code(late)).isEqualTo("E-SESSION-001");
        assertThat(late.yielded()).contains(new StackEntry("unit", "()"));
        assertThat(displays(late)).containsExactly("2");
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(s.suspendedExecutions()).containsExactly(paused.executionId());
        assertThat(s.cancel(paused.executionId())).isTrue();
        assertThat(s.suspendedExecutions()).isEmpty();
    }

    @Test
    void resumingAnUnknownExecutionIsAStructuredRefusal() {
        Outcome o = finch.newSession().resume("nope");
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo("E-SESSION-004");
    }

    @Test
    void checkReportsSignaturesWithoutRunning() {
        Session s = finch.newSession();
        CheckResult r = s.check(forth(": sq ( int -- int ) dup * ; 9 sq int-to-string say"));
        assertThat(r.ok()).isTrue();
        assertThat(r.language()).isEqualTo("forth");
        assertThat(r.definitions()).containsExactly(new CheckResult.Definition("sq", "int -> int"));
        assertThat(r.inferredCapabilities()).contains("session.emit");
        assertThat(r.canonicalForth()).isPresent();
        assertThat(s.vmRevision()).isZero();
        CheckResult bad = s.check(forth("\"x\" 1 -"));
        assertThat(bad.ok()).isFalse();
        assertThat(bad.diagnostics().get(0).phase().spelling()).isEqualTo("verify");
    }

    @Test
    void aThousandSessionsRunConcurrentlyWithoutCrossTalk() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    Session s = finch.newSession();
                    s.submit(forth(Integer.toString(n)));
                    Outcome o = s.submit(forth("dup + int-to-string say"));
                    return o.output() + "/" + o.vmRevision();
                }));
            }
            for (int i = 0; i < 1000; i++) assertThat(results.get(i).get(60, TimeUnit.SECONDS)).isEqualTo((2 * i) + "/2");
        } finally {
            pool.shutdownNow();
        }
    }
}
