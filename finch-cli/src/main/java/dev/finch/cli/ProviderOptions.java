package dev.finch.cli;

import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.providers.LangChain4jProvider;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Which model provider serves µNorman's {@code ask} and child agents ({@code agent-spawn}, docs/agents.md) from the
 * command line. {@code --provider anthropic} (with at least one {@code --model}) serves both: asks as below, and child
 * agents through the profile {@code anthropic} — Anthropic's Messages API with tool use
 * ({@link dev.finch.agent.AnthropicMessagesProvider}, the same key and base URL), whose model is the first
 * {@code --model}'s id. {@code --provider script:FILE} serves child agents from a scripted provider file
 * ({@link dev.finch.agent.ScriptedProvider}, profile {@code script}), without a network; asks then have no model.
 *
 * <p>Where µNorman's {@code ask} goes: {@code --provider anthropic} sends it to Anthropic's Messages
 * API ({@code ANTHROPIC_API_KEY}; base URL {@code --provider-url}, else {@code ANTHROPIC_BASE_URL}, else Anthropic's,
 * without the {@code /v1} — the convention of Anthropic's SDKs), through LangChain4j's Anthropic chat model and
 * {@link LangChain4jProvider}.
 * The command line is the host, so it states the price of each model it serves ({@code --model}) and what one run may
 * spend ({@code --budget}); a program's grant never sets a price (it may only narrow the output ceiling).
 */
final class ProviderOptions {
    /** What one run's asks may spend when {@code --budget} is not given, in US dollars. */
    static final String DEFAULT_BUDGET = "1.00";

    @Option(names = "--provider", paramLabel = "PROFILE",
            description = "The model provider of µNorman asks and child agents: anthropic (needs ANTHROPIC_API_KEY and a --model), or script:FILE (child agents answered by a script file, no network).")
    String provider;

    @Option(names = "--provider-url", paramLabel = "URL", description = "The provider's base URL (default: ANTHROPIC_BASE_URL, else Anthropic's API).")
    String providerUrl;

    @Option(names = "--model", paramLabel = "ID=IN,OUT,MAX",
            description = "A model the provider serves, by the id a grant names: USD per million input and output tokens, and the most output tokens of one ask; repeatable, at least one with --provider.")
    List<String> models = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "USD", description = "The most one run's asks may spend, in US dollars (default: " + DEFAULT_BUDGET + ").")
    String budget;

    /** True when a provider was asked for. */
    boolean given() { return provider != null || providerUrl != null || !models.isEmpty() || budget != null; }

    /** The model host of each run, or empty when no provider was asked for; usage errors name what is wrong. */
    Optional<ModelWorld> world(Map<String, String> env) throws UsageException {
        if (!given()) return Optional.empty();
        if (provider == null) throw new UsageException("--provider-url, --model and --budget need --provider");
        if (script().isPresent()) {
            if (providerUrl != null || !models.isEmpty() || budget != null) {
                throw new UsageException("--provider-url, --model and --budget go with --provider anthropic, not with a script");
            }
            return Optional.empty();
        }
        if (!provider.equals("anthropic")) throw new UsageException("unknown provider '" + provider + "' (known: anthropic, script:FILE)");
        String key = env.get("ANTHROPIC_API_KEY");
        if (key == null || key.isBlank()) throw new UsageException("--provider anthropic needs the environment variable ANTHROPIC_API_KEY");
        if (models.isEmpty()) throw new UsageException("--provider needs at least one --model ID=IN,OUT,MAX: the command line states each model's prices");
        AnthropicChatModel.AnthropicChatModelBuilder b = AnthropicChatModel.builder().apiKey(key).maxRetries(2);
        String url = providerUrl != null ? providerUrl : env.get("ANTHROPIC_BASE_URL");
        if (url != null && !url.isBlank()) b.baseUrl(url.replaceAll("/+$", "") + "/v1/");
        ModelWorld.Builder w = ModelWorld.over(LangChain4jProvider.of(b.build()));
        for (String m : models) {
            int eq = m.indexOf('=');
            String[] terms = eq < 0 ? new String[0] : m.substring(eq + 1).split(",", -1);
            if (eq <= 0 || terms.length != 3) throw new UsageException("--model '" + m + "' is not ID=IN,OUT,MAX (e.g. claude-sonnet-4-5=3,15,8192)");
            try {
                w.model(m.substring(0, eq).strip(), HostModel.perMillionTokens(new BigDecimal(terms[0].strip()), new BigDecimal(terms[1].strip()),
                        Long.parseLong(terms[2].strip())));
            } catch (NumberFormatException e) {
                throw new UsageException("--model '" + m + "': prices are decimal US dollars and MAX a whole number of tokens");
            } catch (IllegalArgumentException e) {
                throw new UsageException("--model '" + m + "': " + e.getMessage());
            }
        }
        try {
            w.budget(new BigDecimal(budget == null ? DEFAULT_BUDGET : budget.strip()));
        } catch (NumberFormatException e) {
            throw new UsageException("--budget '" + budget + "' is not a decimal number of US dollars");
        } catch (IllegalArgumentException e) {
            throw new UsageException("--budget '" + budget + "': " + e.getMessage());
        }
        return Optional.of(w.build());
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
        Optional<String> file = script();
        if (file.isPresent()) {
            if (file.get().isEmpty()) throw new UsageException("--provider script:FILE needs the script file's name");
            try {
                return Optional.of(dev.finch.agent.AgentOptions.of(new dev.finch.agent.AgentProfile("script", "script",
                        dev.finch.agent.ScriptedProvider.load(java.nio.file.Path.of(file.get())))));
            } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
                throw new UsageException("cannot read the agent script " + file.get() + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new UsageException("agent script " + file.get() + ": " + e.getMessage());
            }
        }
        String url = providerUrl != null ? providerUrl : env.get("ANTHROPIC_BASE_URL");
        java.net.URI base = url == null || url.isBlank() ? dev.finch.agent.AnthropicMessagesProvider.DEFAULT_BASE : java.net.URI.create(url.strip());
        String model = models.get(0).substring(0, models.get(0).indexOf('=')).strip();
        return Optional.of(dev.finch.agent.AgentOptions.of(new dev.finch.agent.AgentProfile("anthropic", model,
                dev.finch.agent.AnthropicMessagesProvider.of(base, env.get("ANTHROPIC_API_KEY")))));
    }
}
