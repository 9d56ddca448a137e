package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Retrying}: which failures are asked again, how many times, and never past the deadline — counted in attempts. */
class RetryingTest {
    private static final Retrying.Policy QUICK = new Retrying.Policy(4, Duration.ofMillis(1), Duration.ofMillis(2));
    private static final AgentProvider.Conversation ASK = new AgentProvider.Conversation("m", "", "", List.of(new AgentProvider.UserText("x")), List.of(), 8);

    /** A provider failing {@code failures} times with {@code overloaded}, then answering. */
    private static AgentProvider failing(int failures, boolean overloaded, AtomicInteger attempts) {
        return c -> {
            if (attempts.incrementAndGet() <= failures) throw new AgentProvider.Failure("HTTP 429 rate_limit_error: slow down", null, overloaded);
            return AgentProvider.Turn.finalMessage("ok");
        };
    }

    @Test void anOverloadIsAskedAgainUntilItAnswers() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        assertThat(Retrying.of(failing(3, true, attempts), QUICK).next(ASK).text()).isEqualTo("ok");
        assertThat(attempts).hasValue(4);
    }

    @Test void afterThePolicysAttemptsTheLastFailureSaysHowMany() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> Retrying.of(failing(10, true, attempts), QUICK).next(ASK))
                .isInstanceOf(AgentProvider.Failure.class).hasMessage("HTTP 429 rate_limit_error: slow down (after 4 attempts)");
        assertThat(attempts).hasValue(4);
    }

    @Test void anyOtherFailureIsNotRetried() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> Retrying.of(failing(10, false, attempts), QUICK).next(ASK)).hasMessage("HTTP 429 rate_limit_error: slow down");
        assertThat(attempts).hasValue(1);
    }

    @Test void aWaitThatWouldEndPastTheDeadlineIsNotStarted() {
        AtomicInteger attempts = new AtomicInteger();
        Retrying slow = Retrying.of(failing(10, true, attempts), new Retrying.Policy(4, Duration.ofHours(1), Duration.ofHours(1)));
        assertThatThrownBy(() -> slow.next(ASK.withDeadline(Instant.now().plusSeconds(60))))
                .hasMessageEndingWith("(after 1 attempt, and the next would pass the deadline)");
        assertThat(attempts).hasValue(1);
    }

    @Test void theBackoffDoublesUpToItsCeiling() {
        Retrying.Policy p = new Retrying.Policy(10, Duration.ofSeconds(1), Duration.ofSeconds(5));
        assertThat(List.of(p.ceiling(1), p.ceiling(2), p.ceiling(3), p.ceiling(4), p.ceiling(9)))
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThatThrownBy(() -> new Retrying.Policy(0, Duration.ZERO, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(AgentProvider.Turn.finalMessage("x").usage()).isEqualTo(AgentProvider.Usage.UNKNOWN);
    }
}
