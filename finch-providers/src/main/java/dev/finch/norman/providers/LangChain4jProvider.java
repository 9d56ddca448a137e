package dev.finch.norman.providers;

import dev.finch.norman.harness.ModelProvider;
import dev.finch.providers.LangChain4jAgentProvider;
import dev.langchain4j.model.chat.ChatModel;

/**
 * A {@link ModelProvider} over any LangChain4j {@link ChatModel} ({@code dev.langchain4j:langchain4j-core}, an optional
 * dependency of this module), so every provider LangChain4j supports — OpenAI and OpenAI-compatible servers, Azure,
 * Gemini, Mistral, Ollama, Bedrock, … — answers µNorman's {@code ask}. It is {@link AgentModelProvider} over
 * {@link LangChain4jAgentProvider}: the one mapping of asks and turns to LangChain4j (see those for the request and
 * the reply). The chat model's own retries are the only ones; {@code AgentProviders} builds adapters that retry on
 * overload themselves. Safe to call from several threads if the chat model is (LangChain4j's are).
 */
public final class LangChain4jProvider {
    private LangChain4jProvider() { }

    /** An adapter sending each ask to {@code model} under the grant's model id. */
    public static ModelProvider of(ChatModel model) { return AgentModelProvider.of(LangChain4jAgentProvider.of(model)); }

    /** An adapter sending each ask to {@code model}, under {@code defaultModel} when the grant names no model id. */
    public static ModelProvider of(ChatModel model, String defaultModel) {
        return AgentModelProvider.of(LangChain4jAgentProvider.of(model), defaultModel);
    }
}
