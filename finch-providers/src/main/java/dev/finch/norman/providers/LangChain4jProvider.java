package dev.finch.norman.providers;

import dev.finch.norman.harness.ModelProvider;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link ModelProvider} over any LangChain4j {@link ChatModel} ({@code dev.langchain4j:langchain4j-core}, an optional
 * dependency of this module), so every provider LangChain4j supports — OpenAI and OpenAI-compatible servers, Azure,
 * Gemini, Mistral, Ollama, Bedrock, … — answers µNorman's {@code ask}. One request is one {@link ChatModel#chat}:
 * <ul>
 *   <li>the context's {@code System} messages and the answer-format instruction (JSON only, matching the answer
 *       type's JSON Schema) are one leading {@link SystemMessage}; {@code User} and {@code Assistant} messages follow in
 *       order; a {@code Tool} message is a user message starting with {@code "Tool output:"};</li>
 *   <li>the model name is the grant's model id (or the adapter's default model when the grant declared none), and the
 *       most output tokens is the ask's reservation (at least 1);</li>
 * </ul>
 * The reply is the AI message's text with the reported output tokens (-1 when the model reports none) and finish
 * reason. A {@code CONTENT_FILTER} finish or a {@link ContentFilteredException} is a {@link ModelProvider.Refusal} of
 * category {@code content_filter}; every other failure — network, HTTP status, timeout, a malformed body — is a
 * {@link ModelProvider.ProviderError} with a short message, never an exception. Prices, budgets and validation are
 * the caller's ({@code ModelWorld}). Safe to call from several threads if the chat model is (LangChain4j's are).
 */
public final class LangChain4jProvider implements ModelProvider {
    private final ChatModel model;
    private final String defaultModel;

    private LangChain4jProvider(ChatModel model, String defaultModel) {
        this.model = Objects.requireNonNull(model, "model");
        this.defaultModel = defaultModel;
    }

    /** An adapter sending each ask to {@code model} under the grant's model id. */
    public static LangChain4jProvider of(ChatModel model) { return new LangChain4jProvider(model, null); }

    /** An adapter sending each ask to {@code model}, under {@code defaultModel} when the grant names no model id. */
    public static LangChain4jProvider of(ChatModel model, String defaultModel) {
        return new LangChain4jProvider(model, Objects.requireNonNull(defaultModel, "defaultModel"));
    }

    @Override public Response complete(Request request) {
        long start = System.nanoTime();
        ChatRequest chat;
        try {
            chat = chatRequest(request);
        } catch (IllegalArgumentException e) {
            return new ProviderError(ProviderText.shorten("cannot send the request: " + e.getMessage()), 0);
        }
        try {
            ChatResponse r = model.chat(chat);
            AiMessage ai = r.aiMessage();
            if (r.finishReason() == FinishReason.CONTENT_FILTER) return new Refusal("content_filter", ProviderText.millisSince(start));
            if (ai == null || ai.text() == null) {
                return new ProviderError("malformed response: the model answered no text" + (ai != null && ai.hasToolExecutionRequests()
                        ? " (it asked to run a tool)" : ""), ProviderText.millisSince(start));
            }
            Integer out = r.tokenUsage() == null ? null : r.tokenUsage().outputTokenCount();
            String finish = r.finishReason() == null ? "none" : r.finishReason().name().toLowerCase(java.util.Locale.ROOT);
            return new Reply(ai.text(), out == null ? -1 : out, finish, ProviderText.millisSince(start));
        } catch (ContentFilteredException e) {
            return new Refusal("content_filter", ProviderText.millisSince(start));
        } catch (HttpException e) {
            return new ProviderError(ProviderText.shorten("HTTP " + e.statusCode() + ": " + ProviderText.cause(e)), ProviderText.millisSince(start));
        } catch (LangChain4jException e) {
            return new ProviderError(ProviderText.shorten(e.getClass().getSimpleName() + ": " + ProviderText.cause(e)), ProviderText.millisSince(start));
        } catch (RuntimeException e) {
            return new ProviderError(ProviderText.shorten("provider failure: " + e.getClass().getSimpleName() + ": " + ProviderText.cause(e)),
                    ProviderText.millisSince(start));
        }
    }

    /** The chat request of one ask. */
    ChatRequest chatRequest(Request request) {
        List<String> system = new ArrayList<>();
        List<ChatMessage> turns = new ArrayList<>();
        for (ModelProvider.Message m : request.messages()) {
            switch (m.role()) {
                case "System" -> system.add(m.content());
                case "User" -> turns.add(UserMessage.from(m.content()));
                case "Assistant" -> turns.add(AiMessage.from(m.content()));
                case "Tool" -> turns.add(UserMessage.from("Tool output:\n" + m.content()));
                default -> throw new IllegalArgumentException("a message has the unknown role " + m.role());
            }
        }
        if (turns.isEmpty()) throw new IllegalArgumentException("the context has no User, Assistant or Tool message");
        system.add(ProviderText.instruction(request));
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemMessage.from(String.join("\n\n", system)));
        messages.addAll(turns);
        long cap = Math.max(1, Math.min(Integer.MAX_VALUE, request.maxOutputTokens()));
        return ChatRequest.builder().messages(messages).modelName(ProviderText.model(request, defaultModel)).maxOutputTokens((int) cap).build();
    }
}
