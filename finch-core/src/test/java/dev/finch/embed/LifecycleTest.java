package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Issue 13, item 6: Finch is AutoCloseable; submitAsync answers a future. */
class LifecycleTest {
    private static final String FOREVER = "0 begin 1 + dup 0 < until";

    @Test void submitAsyncAnswersAFutureOfTheOutcome() throws Exception {
        try (Finch finch = Finch.create()) {
            Session s = finch.newSession();
            CompletableFuture<Outcome> f = s.submitAsync(Submission.of("(* 6 7)", "t"));
            Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(o.values()).containsExactly(Value.of(42));
            // Chained turns run one after the other on the same session.
            Outcome chained = s.submitAsync(Submission.of("(define (sq x) (* x x))", "a"))
                    .thenCompose(x -> s.submitAsync(Submission.of("(sq 9)", "b"))).get(HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(chained.values()).containsExactly(Value.of(42), Value.of(81));
        }
    }

    @Test void cancellingTheFutureCancelsTheRun() throws Exception {
        try (Finch finch = Finch.builder().timeout(Duration.ofSeconds(60)).maxSteps(Long.MAX_VALUE / 2).build()) {
            Session s = finch.newSession();
            CompletableFuture<Outcome> f = s.submitAsync(Submission.of(FOREVER, "loop.fth"));
            assertThat(HangGuard.await(() -> s.runningExecution().isPresent())).as("the run started").isTrue();
            assertThat(f.cancel(true)).isTrue();
            assertThat(HangGuard.await(() -> s.runningExecution().isEmpty())).as("the run stopped").isTrue();
            assertThat(s.vmRevision()).isZero();
        }
    }

    @Test void closingStopsRunsAndRefusesLaterWork() throws Exception {
        Finch finch = Finch.builder().timeout(Duration.ofSeconds(60)).maxSteps(Long.MAX_VALUE / 2).build();
        Session s = finch.newSession();
        CompletableFuture<Outcome> running = s.submitAsync(Submission.of(FOREVER, "loop.fth"));
        assertThat(HangGuard.await(() -> s.runningExecution().isPresent())).as("the run started").isTrue();
        finch.close();
        finch.close();                                       // idempotent
        Outcome stopped = running.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(stopped.status()).isIn(Outcome.Status.CANCELLED, Outcome.Status.FAILED);
        assertThat(finch.isClosed()).isTrue();
        Outcome later = s.submit(Submission.of("1", "t"));
        assertThat(later.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(later.diagnostics().get(0).code()).isEqualTo("E-SESSION-009");
        assertThat(s.call("+", Value.of(1), Value.of(2)).diagnostics().get(0).code()).isEqualTo("E-SESSION-009");
        assertThat(finch.newSession().submitAsync(Submission.of("1", "t")).get(HangGuard.SECONDS, TimeUnit.SECONDS).diagnostics().get(0).code())
                .isEqualTo("E-SESSION-009");
    }
}
