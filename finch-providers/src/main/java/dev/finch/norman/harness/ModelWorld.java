package dev.finch.norman.harness;

import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The world µNorman's asks run in over a real model provider, as a factory of fresh worlds: each {@link #get} is one
 * run's model host — its own pool of money, its own deadline on the wall clock, its own trace — over the models the
 * host serves, each with its prices, its output ceiling and its {@link ModelProvider} (an {@code AgentModelProvider} over
 * {@code AgentProviders.anthropic(key)}, say). It is what {@code Finch.builder().models(…)} takes:
 *
 * <pre>{@code
 * Finch finch = Finch.builder()
 *         .models(ModelWorld.over(provider)
 *                 .model("claude", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 8192))
 *                 .budget(new BigDecimal("0.05"))        // dollars per run, exact to the micro-dollar
 *                 .timeLimit(Duration.ofMinutes(2))      // wall clock per run, from the run's start
 *                 .build())
 *         .build();
 * }</pre>
 *
 * <b>The host owns the money.</b> An ask names its model by its grant's {@code [id "…"]}, or by the grant's name when
 * it declares none; the world serves only the models configured here ({@code E-NORMAN-401} otherwise) and prices
 * every ask by the host's {@link HostModel}, never by the program: a grant that states a price below the host's is
 * refused ({@code E-NORMAN-402}; both before anything is sent), one that states the host's price or more is priced at
 * the host's, and a grant's {@code [ceiling n]} can only narrow the host's ceiling (it is the {@code max_tokens} the
 * provider is asked for). Every ask reserves its worst case against the pool before the provider is called
 * ({@code OverBudget} when that does not fit, and nothing is sent), is charged what it used, and is validated
 * ({@code Invalid}); past the time limit an ask is {@code PastDeadline}. The models and the budget must be stated —
 * {@link Builder#budget} or, deliberately, {@link Builder#unlimitedBudget} — since a real provider spends real money;
 * without {@link Builder#timeLimit} the world has none (the run's own timeout still stops the run). Programs narrow
 * both with {@code budget} scopes.
 * The worlds it makes are {@link ScriptedModels}, the same world the test harness runs scripts in (which is why the
 * trace and {@link ScriptedModels#spent} are there too); a real provider's world reads the wall clock.
 */
public final class ModelWorld implements Supplier<ScriptedModels> {
    private final ModelProvider provider;
    private final Map<String, ScriptedModels.Served> served;
    private final Money budget;
    private final Optional<Duration> timeLimit;

    private ModelWorld(ModelProvider provider, Map<String, ScriptedModels.Served> served, Money budget, Optional<Duration> timeLimit) {
        this.provider = provider;
        this.served = Collections.unmodifiableMap(new LinkedHashMap<>(served));
        this.budget = budget;
        this.timeLimit = timeLimit;
    }

    /** A builder of worlds over {@code provider}, which must be safe to call from several threads (concurrent steps). */
    public static Builder over(ModelProvider provider) { return new Builder(Objects.requireNonNull(provider, "provider")); }

    /** A fresh world: nothing spent of {@link #budget()}, a deadline {@link #timeLimit()} from now, an empty trace. */
    @Override public ScriptedModels get() {
        return new ScriptedModels(provider, served, budget.unlimited() ? -1 : budget.micros(), timeLimit.map(Duration::toMillis).orElse(-1L));
    }

    /** The provider of every model configured without one of its own. */
    public ModelProvider provider() { return provider; }

    /** The models each world serves, by the name a grant gives them, with the host's terms, in the order configured. */
    public Map<String, HostModel> models() {
        Map<String, HostModel> m = new LinkedHashMap<>();
        served.forEach((n, s) -> m.put(n, s.terms()));
        return Collections.unmodifiableMap(m);
    }

    /** The provider that answers the asks of {@code model}, or empty when the world does not serve it. */
    public Optional<ModelProvider> provider(String model) { return Optional.ofNullable(served.get(model)).map(ScriptedModels.Served::provider); }

    /** Money each world may spend ({@link Money#UNLIMITED} when unlimited). */
    public Money budget() { return budget; }

    /** Wall-clock time each world has, or empty when unlimited. */
    public Optional<Duration> timeLimit() { return timeLimit; }

    @Override public String toString() {
        return "ModelWorld[models " + models() + ", budget " + budget + ", time " + timeLimit.map(Duration::toString).orElse("∞") + "]";
    }

    /** States what each world has. */
    public static final class Builder {
        private final ModelProvider provider;
        private final Map<String, ScriptedModels.Served> served = new LinkedHashMap<>();
        private Money budget;
        private Optional<Duration> timeLimit = Optional.empty();

        private Builder(ModelProvider provider) { this.provider = provider; }

        /**
         * Serves the model {@code name} — what a grant's {@code [id "…"]} says, or the grant's name when it declares no
         * id — at the host's {@code terms}, answered by the world's provider.
         *
         * @throws IllegalArgumentException when the name is blank or already configured
         */
        public Builder model(String name, HostModel terms) { return model(name, terms, provider); }

        /**
         * Serves the model {@code name} at {@code terms}, answered by {@code modelProvider} (to route models to
         * different providers). Every provider of a world is real or every one simulated, since the world keeps one
         * clock ({@link ModelProvider#simulated()}).
         *
         * @throws IllegalArgumentException when the name is blank or already configured, or the provider's clock is
         *                                  not the world's
         */
        public Builder model(String name, HostModel terms, ModelProvider modelProvider) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(terms, "terms");
            Objects.requireNonNull(modelProvider, "modelProvider");
            if (name.isBlank()) throw new IllegalArgumentException("a model's name cannot be blank");
            if (served.containsKey(name)) throw new IllegalArgumentException("the model " + name + " is configured twice");
            if (modelProvider.simulated() != provider.simulated()) {
                throw new IllegalArgumentException("the provider of " + name + " is " + (modelProvider.simulated() ? "simulated" : "real")
                        + " but the world's is not: one world keeps one clock");
            }
            served.put(name, new ScriptedModels.Served(terms, modelProvider));
            return this;
        }

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

        /** Each world may spend without limit: only the programs' own budget scopes bound it. */
        public Builder unlimitedBudget() { return budget(Money.UNLIMITED); }

        /**
         * Each world has {@code time} of wall clock, whole milliseconds.
         *
         * @throws IllegalArgumentException when negative, not a whole number of milliseconds, or past a long of them
         */
        public Builder timeLimit(Duration time) {
            Objects.requireNonNull(time, "time");
            if (time.isNegative()) throw new IllegalArgumentException("a time limit cannot be negative: " + time);
            if (time.getNano() % 1_000_000 != 0) throw new IllegalArgumentException("a time limit is whole milliseconds, not " + time);
            if (time.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0) throw new IllegalArgumentException("a time limit fits in a long of milliseconds, not " + time);
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
         * @throws IllegalStateException when no model or no budget was stated
         */
        public ModelWorld build() {
            if (served.isEmpty()) throw new IllegalStateException("state the models each world serves and what they cost: model(name, HostModel)");
            if (budget == null) throw new IllegalStateException("state each world's budget: budget(dollars) or unlimitedBudget()");
            return new ModelWorld(provider, served, budget, timeLimit);
        }
    }
}
