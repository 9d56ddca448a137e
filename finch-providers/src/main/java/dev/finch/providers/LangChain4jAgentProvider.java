package dev.finch.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.agent.AgentProvider;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link AgentProvider} over any LangChain4j {@link ChatModel} with tool use: one turn is one
 * {@link ChatModel#chat(ChatRequest)} carrying the system text, the conversation (the user's text, each assistant turn
 * as it answered — text and tool calls —, each tool answer as a tool-result message naming its call id), the tools
 * ({@link JsonSchemas}), the model and the most output tokens. The answer's tool-execution requests become the turn's
 * calls; its token usage, response id and finish reason ({@code end_turn}, {@code tool_use}, {@code max_tokens},
 * {@code content_filter}, …) are the turn's; a reply the provider filtered is a turn without text that stopped for
 * {@code content_filter}. Which wire format it speaks is the chat model's: {@link AgentProviders}
 * builds the Anthropic Messages and OpenAI-compatible ones.
 *
 * <p>Every failure is a {@link AgentProvider.Failure} in Finch's words ({@code HTTP 429 rate_limit_error: …}, a network
 * error, a timeout, a malformed reply), {@linkplain AgentProvider.Failure#overloaded() overloaded} for HTTP 429 and 529
 * and for an error that says "overloaded"; the LangChain4j exception is its cause, for the host. Give the chat model
 * no retries of its own ({@code maxRetries(0)}): {@link dev.finch.agent.Retrying} retries. Safe to share between
 * threads if the chat model is (LangChain4j's are).
 */
public final class LangChain4jAgentProvider implements AgentProvider {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MESSAGE = 300;

    private final ChatModel model;

    private LangChain4jAgentProvider(ChatModel model) { this.model = Objects.requireNonNull(model, "model"); }

    /** The adapter over {@code model} (configure it with {@code maxRetries(0)}). */
    public static LangChain4jAgentProvider of(ChatModel model) { return new LangChain4jAgentProvider(model); }

    @Override public Turn next(Conversation c) throws Failure, InterruptedException {
        ChatRequest request;
        try {
            request = request(c);
        } catch (IllegalArgumentException e) {
            throw new Failure("cannot send the request: " + e.getMessage(), e);
        }
        ChatResponse response;
        try {
            response = model.chat(request);
        } catch (ContentFilteredException e) {
            return new Turn("", List.of(), "content_filter");
        } catch (RuntimeException e) {
            if (Thread.interrupted()) throw new InterruptedException("interrupted while the provider answered");
            throw failure(e);
        }
        if (Thread.interrupted()) throw new InterruptedException("interrupted while the provider answered");
        return turn(response);
    }

    /** The chat request of one turn. */
    static ChatRequest request(Conversation c) {
        List<ChatMessage> messages = new ArrayList<>();
        if (!c.system().isEmpty()) messages.add(SystemMessage.from(c.system()));
        Map<String, String> toolNames = new HashMap<>();
        for (Message m : c.messages()) {
            if (m instanceof UserText u) {
                messages.add(UserMessage.from(u.text()));
            } else if (m instanceof AssistantTurn a) {
                List<ToolExecutionRequest> calls = new ArrayList<>();
                for (ToolCall call : a.turn().calls()) {
                    toolNames.put(call.id(), call.name());
                    calls.add(ToolExecutionRequest.builder().id(call.id()).name(call.name()).arguments(call.argumentsJson()).build());
                }
                String text = a.turn().text();
                if (calls.isEmpty()) messages.add(AiMessage.from(text));
                else messages.add(text.isEmpty() ? AiMessage.from(calls) : AiMessage.from(text, calls));
            } else if (m instanceof ToolResults r) {
                for (ToolResult t : r.results()) {
                    String name = toolNames.get(t.callId());
                    if (name == null) throw new IllegalArgumentException("a tool result answers no call of the conversation: " + t.callId());
                    messages.add(ToolExecutionResultMessage.from(t.callId(), name, t.content()));
                }
            }
        }
        ChatRequest.Builder b = ChatRequest.builder().messages(messages).modelName(c.model()).maxOutputTokens(Math.max(1, c.maxTokens()));
        if (!c.tools().isEmpty()) b.toolSpecifications(JsonSchemas.specifications(c.tools()));
        return b.build();
    }

    /** The turn a chat response answers. */
    static Turn turn(ChatResponse r) throws Failure {
        AiMessage ai = r.aiMessage();
        if (ai == null) throw new Failure("malformed reply: the provider answered no message");
        List<ToolCall> calls = new ArrayList<>();
        int n = 0;
        for (ToolExecutionRequest t : ai.toolExecutionRequests()) {
            n++;
            if (t.name() == null || t.name().isBlank()) throw new Failure("malformed reply: a tool call names no tool");
            String id = t.id() == null || t.id().isBlank() ? "call_" + n : t.id();
            String args = t.arguments() == null || t.arguments().isBlank() ? "{}" : t.arguments();
            calls.add(new ToolCall(id, t.name(), args));
        }
        TokenUsage u = r.tokenUsage();
        Usage usage = u == null ? Usage.UNKNOWN : new Usage(count(u.inputTokenCount()), count(u.outputTokenCount()));
        return new Turn(ai.text() == null ? "" : ai.text(), calls, stopReason(r.finishReason(), calls), usage, r.id() == null ? "" : r.id());
    }

    private static long count(Integer n) { return n == null || n < 0 ? -1 : n; }

    private static String stopReason(FinishReason f, List<ToolCall> calls) {
        if (f == null) return calls.isEmpty() ? "end_turn" : "tool_use";
        return switch (f) {
            case STOP -> "end_turn";
            case TOOL_EXECUTION -> "tool_use";
            case LENGTH -> "max_tokens";
            case CONTENT_FILTER -> "content_filter";
            default -> f.name().toLowerCase(Locale.ROOT);
        };
    }

    /** The failure of a chat call, in Finch's words; overloaded for 429, 529 and "overloaded". */
    static Failure failure(RuntimeException e) {
        HttpException http = null;
        boolean timeout = false;
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof HttpException h && http == null) http = h;
            if (t instanceof TimeoutException || t instanceof java.net.http.HttpTimeoutException) timeout = true;
            if (t.getCause() == null) break;
        }
        String message;
        int status = http == null ? -1 : http.statusCode();
        if (http != null) {
            message = "HTTP " + status + errorBody(http.getMessage());
        } else if (timeout) {
            message = "the request timed out";
        } else {
            message = "the request failed: " + rootMessage(e);
        }
        boolean overloaded = status == 429 || status == 529 || message.toLowerCase(Locale.ROOT).contains("overloaded");
        return new Failure(shorten(message), e, overloaded);
    }

    /** The provider's error object ({@code {"error":{"type","message"}}}, Anthropic's and OpenAI's shape), else the body. */
    private static String errorBody(String body) {
        if (body == null || body.isBlank()) return "";
        try {
            JsonNode err = JSON.readTree(body).path("error");
            if (err.isObject()) {
                String type = err.path("type").asText("");
                String msg = err.path("message").asText("");
                return (type.isEmpty() ? "" : " " + type) + (msg.isEmpty() ? "" : ": " + msg);
            }
        } catch (IOException | RuntimeException notJson) {
            // A body that is not JSON is quoted as it is.
        }
        return ": " + body;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage();
        return m == null || m.isBlank() ? "no reason given" : m;
    }

    private static String shorten(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() <= MAX_MESSAGE ? one : one.substring(0, MAX_MESSAGE - 1) + "…";
    }

    @Override public String toString() { return "LangChain4jAgentProvider[" + model.getClass().getSimpleName() + "]"; }
}
