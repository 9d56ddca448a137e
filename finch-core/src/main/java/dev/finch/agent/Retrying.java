package dev.finch.agent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A provider that asks again when its provider is {@linkplain AgentProvider.Failure#overloaded() overloaded} (HTTP 429
 * or 529, an "overloaded" error), with exponential backoff: the n-th wait is a random time between half and all of
 * {@code min(maxBackoff, initialBackoff × 2^(n-1))}. It gives up after {@link Policy#maxAttempts()} attempts, and at once
 * when the next wait would end past the conversation's {@linkplain AgentProvider.Conversation#deadline() deadline};
 * the failure it then throws is the last one, saying how many attempts were made. Any other failure, and an
 * interruption while it waits, passes straight through. Every adapter of {@code finch-providers} is wrapped in one;
 * an embedder's own provider may be too.
 */
public final class Retrying implements AgentProvider {
    private final AgentProvider provider;
    private final Policy policy;
    private final Clock clock;

    /**
     * When to ask again: at most {@code maxAttempts} attempts in all (1: never again), the first wait about
     * {@code initialBackoff}, each next one twice as long up to {@code maxBackoff}.
     */
    public record Policy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        /** 5 attempts, waiting about 1, 2, 4 and 8 seconds between them (at most 30). */
        public static final Policy DEFAULT = new Policy(5, Duration.ofSeconds(1), Duration.ofSeconds(30));
        /** One attempt: no retry. */
        public static final Policy NONE = new Policy(1, Duration.ZERO, Duration.ZERO);

        public Policy {
            if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1");
            Objects.requireNonNull(initialBackoff, "initialBackoff");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalArgumentException("backoffs must satisfy 0 <= initialBackoff <= maxBackoff");
            }
        }

        /** The longest wait before attempt {@code attempt + 1} (attempt counts from 1). */
        Duration ceiling(int attempt) {
            Duration d = initialBackoff;
            for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) d = d.multipliedBy(2);
            return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
        }
    }

    private Retrying(AgentProvider provider, Policy policy, Clock clock) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** {@code provider} asked again under {@code policy}. */
    public static Retrying of(AgentProvider provider, Policy policy) { return new Retrying(provider, policy, Clock.systemUTC()); }

    /** {@code provider} asked again under {@link Policy#DEFAULT}. */
    public static Retrying of(AgentProvider provider) { return of(provider, Policy.DEFAULT); }

    /** The provider asked. */
    public AgentProvider provider() { return provider; }

    public Policy policy() { return policy; }

    @Override public Turn next(Conversation conversation) throws Failure, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return provider.next(conversation);
            } catch (Failure f) {
                if (!f.overloaded()) throw f;
                if (attempt >= policy.maxAttempts()) throw gaveUp(f, attempt, "");
                Duration ceiling = policy.ceiling(attempt);
                long half = ceiling.toNanos() / 2;
                Duration wait = Duration.ofNanos(half + (half > 0 ? ThreadLocalRandom.current().nextLong(half + 1) : 0));
                Instant due = conversation.deadline();
                if (due != null && clock.instant().plus(wait).isAfter(due)) throw gaveUp(f, attempt, ", and the next would pass the deadline");
                if (!wait.isZero()) Thread.sleep(wait.toMillis(), (int) (wait.toNanos() % 1_000_000));
            }
        }
    }

    private static Failure gaveUp(Failure last, int attempts, String why) {
        return new Failure(last.getMessage() + " (after " + attempts + (attempts == 1 ? " attempt" : " attempts") + why + ")", last, true);
    }

    @Override public String toString() { return "Retrying[" + provider + ", " + policy + "]"; }
}
