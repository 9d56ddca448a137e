package dev.finch.norman.harness;

import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The world µNorman's asks run in over a real model provider, as a factory of fresh worlds: each {@link #get} is one
 * run's model host — its own pool of money, its own deadline on the wall clock, its own trace — over one
 * {@link ModelProvider} (an {@code AnthropicProvider}, say). It is what {@code Finch.builder().models(…)} takes:
 *
 * <pre>{@code
 * Finch finch = Finch.builder()
 *         .models(ModelWorld.over(provider)
 *                 .budget(new BigDecimal("0.05"))        // dollars per run, exact to the micro-dollar
 *                 .timeLimit(Duration.ofMinutes(2))      // wall clock per run, from the run's start
 *                 .build())
 *         .build();
 * }</pre>
 *
 * Every ask reserves its worst case against the pool before the provider is called ({@code OverBudget} when that
 * does not fit, and nothing is sent), is charged at the grant's prices, and is validated ({@code Invalid}); past
 * the time limit an ask is {@code PastDeadline}. The budget must be stated — {@link Builder#budget} or, deliberately,
 * {@link Builder#unlimitedBudget} — since a real provider spends real money; without {@link Builder#timeLimit} the
 * world has none (the run's own timeout still stops the run). Programs narrow both with {@code budget} scopes.
 * The worlds it makes are {@link ScriptedModels}, the same world the test harness runs scripts in (which is why the
 * trace and {@link ScriptedModels#spent} are there too); a real provider's world reads the wall clock.
 */
public final class ModelWorld implements Supplier<ScriptedModels> {
    private final ModelProvider provider;
    private final Money budget;
    private final Optional<Duration> timeLimit;

    private ModelWorld(ModelProvider provider, Money budget, Optional<Duration> timeLimit) {
        this.provider = provider;
        this.budget = budget;
        this.timeLimit = timeLimit;
    }

    /** A builder of worlds over {@code provider}, which must be safe to call from several threads (concurrent steps). */
    public static Builder over(ModelProvider provider) { return new Builder(Objects.requireNonNull(provider, "provider")); }

    /** A fresh world: nothing spent of {@link #budget()}, a deadline {@link #timeLimit()} from now, an empty trace. */
    @Override public ScriptedModels get() {
        return new ScriptedModels(provider, budget.unlimited() ? -1 : budget.micros(), timeLimit.map(Duration::toMillis).orElse(-1L));
    }

    /** The provider every world asks. */
    public ModelProvider provider() { return provider; }

    /** Money each world may spend ({@link Money#UNLIMITED} when unlimited). */
    public Money budget() { return budget; }

    /** Wall-clock time each world has, or empty when unlimited. */
    public Optional<Duration> timeLimit() { return timeLimit; }

    @Override public String toString() { return "ModelWorld[budget " + budget + ", time " + timeLimit.map(Duration::toString).orElse("∞") + "]"; }

    /** States what each world has. */
    public static final class Builder {
        private final ModelProvider provider;
        private Money budget;
        private Optional<Duration> timeLimit = Optional.empty();

        private Builder(ModelProvider provider) { this.provider = provider; }

        /**
         * Each world may spend {@code dollars} (for example {@code new BigDecimal("0.05")}).
         *
         * @throws IllegalArgumentException when negative or finer than a micro-dollar
         */
        public Builder budget(BigDecimal dollars) {
            Objects.requireNonNull(dollars, "dollars");
            try {
                return budget(Money.ofDollars(dollars));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("a budget is exact to the micro-dollar and fits in micro-dollars, not $" + dollars.toPlainString());
            }
        }

        /**
         * Each world may spend {@code money} ({@link Money#ofMicros}, or {@link Money#UNLIMITED}).
         *
         * @throws IllegalArgumentException when negative
         */
        public Builder budget(Money money) {
            Objects.requireNonNull(money, "money");
            if (!money.unlimited() && money.micros() < 0) throw new IllegalArgumentException("a budget cannot be negative: " + money);
            this.budget = money;
            return this;
        }

        /** Each world may spend without limit: only the grants' prices and the programs' own budget scopes bound it. */
        public Builder unlimitedBudget() { return budget(Money.UNLIMITED); }

        /**
         * Each world has {@code time} of wall clock, whole milliseconds.
         *
         * @throws IllegalArgumentException when negative or not a whole number of milliseconds
         */
        public Builder timeLimit(Duration time) {
            Objects.requireNonNull(time, "time");
            if (time.isNegative()) throw new IllegalArgumentException("a time limit cannot be negative: " + time);
            if (time.getNano() % 1_000_000 != 0) throw new IllegalArgumentException("a time limit is whole milliseconds, not " + time);
            this.timeLimit = Optional.of(time);
            return this;
        }

        /** Each world has no time limit of its own (the default); the run's timeout still applies. */
        public Builder noTimeLimit() {
            this.timeLimit = Optional.empty();
            return this;
        }

        /**
         * The factory of worlds.
         *
         * @throws IllegalStateException when no budget was stated
         */
        public ModelWorld build() {
            if (budget == null) throw new IllegalStateException("state each world's budget: budget(dollars) or unlimitedBudget()");
            return new ModelWorld(provider, budget, timeLimit);
        }
    }
}
