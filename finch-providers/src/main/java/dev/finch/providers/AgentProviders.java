package dev.finch.providers;

import dev.finch.agent.AgentProvider;
import dev.finch.agent.Retrying;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.Objects;

/**
 * The provider adapters, one per wire format, all on LangChain4j and all with tool use: Anthropic's Messages API and
 * OpenAI-compatible chat completions (OpenAI, and local servers that speak it: Ollama, vLLM, LM Studio, …). Each is a
 * {@link LangChain4jAgentProvider} inside {@link Retrying} (HTTP 429 and 529 and "overloaded" errors are asked again
 * with backoff, never past the conversation's deadline); the chat model itself retries nothing. The API key is always
 * explicit: nothing is read from the environment here. The same provider serves child agents
 * ({@code AgentProfile}), conversations and, through {@code AgentModelProvider}, µNorman's {@code ask}.
 */
public final class AgentProviders {
    /** Anthropic's API (without {@code /v1}). */
    public static final String ANTHROPIC_BASE = "https://api.anthropic.com";
    /** OpenAI's API (with {@code /v1}, as OpenAI-compatible servers are addressed: {@code http://localhost:11434/v1}). */
    public static final String OPENAI_BASE = "https://api.openai.com/v1";
    /** How long one request may take. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

    private AgentProviders() { }

    /** Anthropic's Messages API at {@link #ANTHROPIC_BASE}, retried under {@link Retrying.Policy#DEFAULT}. */
    public static AgentProvider anthropic(String apiKey) { return anthropic(ANTHROPIC_BASE, apiKey, Retrying.Policy.DEFAULT); }

    /**
     * Anthropic's Messages API at {@code baseUrl} (e.g. {@link #ANTHROPIC_BASE}, without {@code /v1}: each turn is a
     * {@code POST {baseUrl}/v1/messages}), retried under {@code policy}.
     */
    public static AgentProvider anthropic(String baseUrl, String apiKey, Retrying.Policy policy) {
        AnthropicChatModel model = AnthropicChatModel.builder().baseUrl(trim(baseUrl) + "/v1/").apiKey(key(apiKey))
                .maxRetries(0).timeout(REQUEST_TIMEOUT).build();
        return Retrying.of(LangChain4jAgentProvider.of(model), policy);
    }

    /** OpenAI's chat completions at {@link #OPENAI_BASE}, retried under {@link Retrying.Policy#DEFAULT}. */
    public static AgentProvider openAi(String apiKey) { return openAi(OPENAI_BASE, apiKey, Retrying.Policy.DEFAULT); }

    /**
     * OpenAI-compatible chat completions at {@code baseUrl} (with {@code /v1}: each turn is a
     * {@code POST {baseUrl}/chat/completions}), retried under {@code policy}. A local server that checks no key still
     * needs one here (any text).
     */
    public static AgentProvider openAi(String baseUrl, String apiKey, Retrying.Policy policy) {
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(trim(baseUrl)).apiKey(key(apiKey))
                .maxRetries(0).timeout(REQUEST_TIMEOUT).build();
        return Retrying.of(LangChain4jAgentProvider.of(model), policy);
    }

    private static String trim(String url) {
        Objects.requireNonNull(url, "baseUrl");
        return url.strip().replaceAll("/+$", "");
    }

    private static String key(String apiKey) {
        if (apiKey == null || apiKey.isBlank()) throw new IllegalArgumentException("an API key is required");
        return apiKey;
    }
}
