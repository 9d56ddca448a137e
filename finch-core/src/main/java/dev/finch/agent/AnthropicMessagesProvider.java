package dev.finch.agent;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.tools.ToolSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Anthropic's Messages API with tool use, over {@code java.net.http}: each turn is one {@code POST {base}/v1/messages}
 * with the child's system text, its tools ({@code name}, {@code description}, {@code input_schema}) and the
 * conversation as content blocks — the task as {@code text}, each assistant turn's {@code text} and {@code tool_use}
 * blocks as it answered them, each tool answer as a {@code tool_result} block naming its {@code tool_use_id} — and the
 * reply's {@code tool_use} blocks become the turn's tool calls. A reply without one is the final message. An HTTP error,
 * an {@code error} object or a malformed reply is a {@link Failure} (the child fails with {@code E-AGENT-010}).
 */
public final class AnthropicMessagesProvider implements AgentProvider {
    /** Anthropic's API, the default base URL. */
    public static final URI DEFAULT_BASE = URI.create("https://api.anthropic.com");
    /** The API version header this adapter speaks. */
    public static final String VERSION = "2023-06-01";
    private static final int MAX_REPLY_CHARS = 8 << 20;
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxStringLength(MAX_REPLY_CHARS).build()).build());

    private final URI endpoint;
    private final String apiKey;
    private final HttpClient http;
    private final Duration requestTimeout;

    private AnthropicMessagesProvider(URI base, String apiKey, Duration requestTimeout) {
        String b = base.toString();
        this.endpoint = URI.create((b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + "/v1/messages");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();
    }

    /** The adapter for {@code base} (e.g. {@link #DEFAULT_BASE}) with {@code apiKey}; one request waits at most 5 minutes. */
    public static AnthropicMessagesProvider of(URI base, String apiKey) { return new AnthropicMessagesProvider(base, apiKey, Duration.ofMinutes(5)); }

    /** This adapter with each request waiting at most {@code timeout}. */
    public AnthropicMessagesProvider withRequestTimeout(Duration timeout) {
        return new AnthropicMessagesProvider(URI.create(endpoint.toString().replaceFirst("/v1/messages$", "")), apiKey, timeout);
    }

    @Override public Turn next(Conversation c) throws Failure, InterruptedException {
        String body = request(c).toString();
        HttpRequest req = HttpRequest.newBuilder(endpoint).timeout(requestTimeout)
                .header("x-api-key", apiKey).header("anthropic-version", VERSION).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> res;
        try {
            res = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Failure("the request to " + endpoint + " failed: " + e.getMessage(), e);
        }
        if (res.body().length() > MAX_REPLY_CHARS) throw new Failure("the reply is larger than " + MAX_REPLY_CHARS + " characters");
        JsonNode reply;
        try {
            reply = JSON.readTree(res.body());
        } catch (IOException e) {
            throw new Failure("HTTP " + res.statusCode() + " with a reply that is not JSON");
        }
        if (res.statusCode() / 100 != 2 || "error".equals(reply.path("type").asText())) {
            JsonNode err = reply.path("error");
            throw new Failure("HTTP " + res.statusCode() + (err.isObject() ? " " + err.path("type").asText() + ": " + err.path("message").asText() : ""));
        }
        return turn(reply);
    }

    /** The request body of {@code c}. */
    static ObjectNode request(Conversation c) throws Failure {
        ObjectNode o = JSON.createObjectNode();
        o.put("model", c.model());
        o.put("max_tokens", c.maxTokens());
        o.put("system", c.system());
        ArrayNode tools = o.putArray("tools");
        for (ToolSpec t : c.tools()) {
            ObjectNode tool = tools.addObject().put("name", t.name()).put("description", t.description());
            tool.set("input_schema", json(t.inputSchema()));
        }
        ArrayNode messages = o.putArray("messages");
        for (Message m : c.messages()) {
            if (m instanceof UserText u) {
                ObjectNode msg = messages.addObject().put("role", "user");
                msg.putArray("content").addObject().put("type", "text").put("text", u.text());
            } else if (m instanceof AssistantTurn a) {
                ObjectNode msg = messages.addObject().put("role", "assistant");
                ArrayNode content = msg.putArray("content");
                if (!a.turn().text().isEmpty()) content.addObject().put("type", "text").put("text", a.turn().text());
                for (ToolCall call : a.turn().calls()) {
                    content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name()).set("input", json(call.argumentsJson()));
                }
            } else if (m instanceof ToolResults r) {
                ObjectNode msg = messages.addObject().put("role", "user");
                ArrayNode content = msg.putArray("content");
                for (ToolResult t : r.results()) content.addObject().put("type", "tool_result").put("tool_use_id", t.callId()).put("content", t.content());
            }
        }
        return o;
    }

    /** The turn a Messages reply answers: its text blocks joined, its tool_use blocks as calls. */
    static Turn turn(JsonNode reply) throws Failure {
        JsonNode content = reply.get("content");
        if (content == null || !content.isArray()) throw new Failure("the reply has no content array");
        StringBuilder text = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode block : content) {
            switch (block.path("type").asText()) {
                case "text" -> text.append(block.path("text").asText());
                case "tool_use" -> {
                    JsonNode input = block.get("input");
                    if (!block.hasNonNull("id") || !block.hasNonNull("name") || input == null || !input.isObject()) {
                        throw new Failure("a tool_use block needs an id, a name and an input object");
                    }
                    calls.add(new ToolCall(block.get("id").asText(), block.get("name").asText(), input.toString()));
                }
                default -> { } // thinking and other block kinds carry nothing the child acts on
            }
        }
        return new Turn(text.toString(), calls, reply.path("stop_reason").asText(""));
    }

    private static JsonNode json(String text) throws Failure {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new Failure("not JSON: " + e.getMessage());
        }
    }
}
