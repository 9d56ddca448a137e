package dev.finch.cli;

import dev.finch.agent.AgentProvider;
import dev.finch.agent.UsageMeter;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.providers.AgentModelProvider;
import dev.finch.providers.AgentProviders;
import dev.finch.vm.value.Money;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Option;

/**
 * Which model provider serves µNorman's {@code ask}, child agents ({@code agent-spawn}, docs/agents.md) and
 * conversations from the command line — one {@link AgentProvider} of finch-providers' provider layer
 * ({@link AgentProviders}, on LangChain4j, retrying 429/529/overloaded) for all three:
 * <ul>
 *   <li>{@code --provider anthropic}: Anthropic's Messages API ({@code ANTHROPIC_API_KEY}; base URL {@code --provider-url},
 *       else {@code ANTHROPIC_BASE_URL}, else Anthropic's, without the {@code /v1});</li>
 *   <li>{@code --provider openai}: OpenAI-compatible chat completions ({@code OPENAI_API_KEY}; base URL
 *       {@code --provider-url}, else {@code OPENAI_BASE_URL}, else OpenAI's, with the {@code /v1}: a local Ollama is
 *       {@code http://localhost:11434/v1});</li>
 *   <li>{@code --provider script:FILE}: child agents and conversations answered by a scripted provider file
 *       ({@link dev.finch.agent.ScriptedProvider}, profile {@code script}), without a network; asks then have no model.</li>
 * </ul>
 * Asks go through {@link AgentModelProvider}; child agents through the profile named like the provider, whose model is
 * the first {@code --model}'s id. The command line is the host, so it states the price of each model it serves
 * ({@code --model}) and what may be spent ({@code --budget}): each run's asks may spend that much, and the tokens child
 * agents use (as the provider reports them, at their model's prices) are charged to a budget of the same amount for the
 * whole command — a child whose turn would pass it stops with {@code E-AGENT-013}. A program's grant never sets a price
 * (it may only narrow the output ceiling).
 */
final class ProviderOptions {
    /** What one run's asks may spend when {@code --budget} is not given, in US dollars. */
    static final String DEFAULT_BUDGET = "1.00";

    @Option(names = "--provider", paramLabel = "PROFILE",
            description = "The model provider of µNorman asks, child agents and conversations: anthropic (needs ANTHROPIC_API_KEY and a --model), openai (an OpenAI-compatible server: needs OPENAI_API_KEY and a --model), or script:FILE (a script file answers, no network).")
    String provider;

    @Option(names = "--provider-url", paramLabel = "URL", description = "The provider's base URL (default: ANTHROPIC_BASE_URL or OPENAI_BASE_URL, else the provider's API).")
    String providerUrl;

    @Option(names = "--model", paramLabel = "ID=IN,OUT,MAX",
            description = "A model the provider serves, by the id a grant names: USD per million input and output tokens, and the most output tokens of one ask; repeatable, at least one with --provider.")
    List<String> models = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "USD", description = "The most one run's asks, and the command's child agents, may spend, in US dollars (default: " + DEFAULT_BUDGET + ").")
    String budget;

    /** The provider of anthropic or openai, made once and shared by asks, children and conversations. */
    private AgentProvider network;

    /** True when a provider was asked for. */
    boolean given() { return provider != null || providerUrl != null || !models.isEmpty() || budget != null; }

    /** The network provider's name: anthropic or openai; a usage error for any other (a script is not one). */
    private String wire() throws UsageException {
        if (provider.equals("anthropic") || provider.equals("openai")) return provider;
        throw new UsageException("unknown provider '" + provider + "' (known: anthropic, openai, script:FILE)");
    }

    /** The checked network provider (anthropic or openai): its key, its models and its budget are all stated. */
    private AgentProvider network(Map<String, String> env) throws UsageException {
        if (network != null) return network;
        String name = wire();
        String keyVar = name.equals("anthropic") ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
        String key = env.get(keyVar);
        if (key == null || key.isBlank()) throw new UsageException("--provider " + name + " needs the environment variable " + keyVar);
        if (models.isEmpty()) throw new UsageException("--provider needs at least one --model ID=IN,OUT,MAX: the command line states each model's prices");
        prices();
        budgetMoney();
        String url = providerUrl != null ? providerUrl : env.get(name.equals("anthropic") ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL");
        boolean defaultUrl = url == null || url.isBlank();
        try {
            network = name.equals("anthropic")
                    ? AgentProviders.anthropic(defaultUrl ? AgentProviders.ANTHROPIC_BASE : url, key, dev.finch.agent.Retrying.Policy.DEFAULT)
                    : AgentProviders.openAi(defaultUrl ? AgentProviders.OPENAI_BASE : url, key, dev.finch.agent.Retrying.Policy.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--provider-url '" + url + "': " + e.getMessage());
        }
        return network;
    }

    /** The models the command line prices, by id, in order. */
    private Map<String, HostModel> prices() throws UsageException {
        Map<String, HostModel> out = new LinkedHashMap<>();
        for (String m : models) {
            int eq = m.indexOf('=');
            String[] terms = eq < 0 ? new String[0] : m.substring(eq + 1).split(",", -1);
            if (eq <= 0 || terms.length != 3) throw new UsageException("--model '" + m + "' is not ID=IN,OUT,MAX (e.g. claude-sonnet-4-5=3,15,8192)");
            try {
                out.put(m.substring(0, eq).strip(), HostModel.perMillionTokens(new BigDecimal(terms[0].strip()), new BigDecimal(terms[1].strip()),
                        Long.parseLong(terms[2].strip())));
            } catch (NumberFormatException e) {
                throw new UsageException("--model '" + m + "': prices are decimal US dollars and MAX a whole number of tokens");
            } catch (IllegalArgumentException e) {
                throw new UsageException("--model '" + m + "': " + e.getMessage());
            }
        }
        return out;
    }

    /** The budget, checked. */
    private Money budgetMoney() throws UsageException {
        try {
            BigDecimal dollars = new BigDecimal(budget == null ? DEFAULT_BUDGET : budget.strip());
            if (dollars.signum() < 0) throw new UsageException("--budget '" + budget + "': a budget cannot be negative");
            return Money.ofDollars(dollars);
        } catch (NumberFormatException e) {
            throw new UsageException("--budget '" + budget + "' is not a decimal number of US dollars");
        } catch (ArithmeticException e) {
            throw new UsageException("--budget '" + budget + "': a budget is exact to the micro-dollar");
        }
    }

    /** The model host of each run, or empty when no provider was asked for (or a script serves); usage errors name what is wrong. */
    Optional<ModelWorld> world(Map<String, String> env) throws UsageException {
        if (!given()) return Optional.empty();
        if (provider == null) throw new UsageException("--provider-url, --model and --budget need --provider");
        if (script().isPresent()) {
            if (providerUrl != null || !models.isEmpty() || budget != null) {
                throw new UsageException("--provider-url, --model and --budget go with --provider anthropic or openai, not with a script");
            }
            return Optional.empty();
        }
        ModelWorld.Builder w = ModelWorld.over(AgentModelProvider.of(network(env)));
        try {
            for (var m : prices().entrySet()) w.model(m.getKey(), m.getValue());
            w.budget(budgetMoney());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return Optional.of(w.build());
    }

    /**
     * The provider a conversation ({@code finch chat}) talks to, or empty without {@code --provider}: the network
     * provider of anthropic and openai (checked as {@link #world} checks it), or the scripted provider of
     * {@code script:FILE}. A script that cannot be read or parsed is a usage error naming it.
     */
    Optional<AgentProvider> conversationProvider(Map<String, String> env) throws UsageException {
        if (provider == null) {
            if (given()) throw new UsageException("--provider-url, --model and --budget need --provider");
            return Optional.empty();
        }
        if (script().isPresent()) return Optional.of(scripted());
        return Optional.of(network(env));
    }

    /** The scripted provider of {@code --provider script:FILE}. */
    private AgentProvider scripted() throws UsageException {
        String file = script().orElseThrow();
        if (file.isEmpty()) throw new UsageException("--provider script:FILE needs the script file's name");
        try {
            return dev.finch.agent.ScriptedProvider.load(java.nio.file.Path.of(file));
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            throw new UsageException("cannot read the agent script " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException("agent script " + file + ": " + e.getMessage());
        }
    }

    /**
     * The children's usage meter: each turn's tokens at its model's {@code --model} prices, against {@code --budget} for
     * the whole command; a model the command line did not price, or a turn that would pass the budget, is refused.
     */
    private UsageMeter meter() throws UsageException {
        Map<String, HostModel> priced = prices();
        long limit = budgetMoney().micros();
        AtomicLong spent = new AtomicLong();
        return (profile, model, usage) -> {
            HostModel terms = priced.get(model);
            if (terms == null) return Optional.of("the command line states no price for the model " + model + " (--model)");
            long cost;
            try {
                cost = terms.cost(Math.max(0, usage.inputTokens()), Math.max(0, usage.outputTokens()));
            } catch (ArithmeticException e) {
                return Optional.of("the turn's " + usage.total() + " tokens cost more than a budget can hold");
            }
            long before = spent.getAndUpdate(s -> s > limit - cost ? s : s + cost);
            if (before > limit - cost) {
                return Optional.of("the turn's " + usage.total() + " tokens cost " + Money.ofMicros(cost) + " and the budget of "
                        + Money.ofMicros(limit) + " has " + Money.ofMicros(Math.max(0, limit - before)) + " left");
            }
            return Optional.empty();
        };
    }

    /** The script file of {@code --provider script:FILE}. */
    private Optional<String> script() {
        return provider != null && provider.startsWith("script:") ? Optional.of(provider.substring("script:".length())) : Optional.empty();
    }

    /**
     * The child agents' provider profile, or empty without {@code --provider}; call after {@link #world}, which checked
     * the options. A script that cannot be read or parsed is a usage error naming it.
     */
    Optional<dev.finch.agent.AgentOptions> agents(Map<String, String> env) throws UsageException {
        if (provider == null) return Optional.empty();
        if (script().isPresent()) return Optional.of(dev.finch.agent.AgentOptions.of(new dev.finch.agent.AgentProfile("script", "script", scripted())));
        String model = models.isEmpty() ? "" : models.get(0).substring(0, Math.max(0, models.get(0).indexOf('='))).strip();
        return Optional.of(dev.finch.agent.AgentOptions.of(new dev.finch.agent.AgentProfile(wire(), model, network(env))).withMeter(meter()));
    }
}
