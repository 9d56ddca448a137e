package dev.finch.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.agent.AgentProvider;
import java.util.ArrayList;
import java.util.List;

/** A transcript's messages as JSON (what {@link Conversation#save} writes and {@link Conversation#restore} reads). */
final class TranscriptJson {
    private TranscriptJson() { }

    static ObjectNode write(AgentProvider.Message m) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (m instanceof AgentProvider.UserText u) return o.put("role", "user").put("text", u.text());
        if (m instanceof AgentProvider.AssistantTurn a) {
            o.put("role", "assistant").put("text", a.turn().text()).put("stop_reason", a.turn().stopReason())
                    .put("response_id", a.turn().responseId()).put("input_tokens", a.turn().usage().inputTokens())
                    .put("output_tokens", a.turn().usage().outputTokens());
            ArrayNode calls = o.putArray("calls");
            for (AgentProvider.ToolCall c : a.turn().calls()) calls.add(call(c));
            return o;
        }
        AgentProvider.ToolResults r = (AgentProvider.ToolResults) m;
        o.put("role", "tool_results");
        ArrayNode results = o.putArray("results");
        for (AgentProvider.ToolResult x : r.results()) results.add(result(x));
        return o;
    }

    static ObjectNode call(AgentProvider.ToolCall c) {
        return JsonNodeFactory.instance.objectNode().put("id", c.id()).put("name", c.name()).put("arguments", c.argumentsJson());
    }

    static ObjectNode result(AgentProvider.ToolResult r) {
        return JsonNodeFactory.instance.objectNode().put("call_id", r.callId()).put("content", r.content());
    }

    static AgentProvider.Message read(JsonNode o) {
        switch (o.path("role").asText()) {
            case "user":
                return new AgentProvider.UserText(text(o, "text"));
            case "assistant": {
                List<AgentProvider.ToolCall> calls = new ArrayList<>();
                for (JsonNode c : o.path("calls")) calls.add(readCall(c));
                AgentProvider.Usage usage = new AgentProvider.Usage(Math.max(-1, o.path("input_tokens").asLong(-1)),
                        Math.max(-1, o.path("output_tokens").asLong(-1)));
                return new AgentProvider.AssistantTurn(new AgentProvider.Turn(text(o, "text"), calls, o.path("stop_reason").asText("end_turn"),
                        usage, o.path("response_id").asText("")));
            }
            case "tool_results": {
                List<AgentProvider.ToolResult> results = new ArrayList<>();
                for (JsonNode r : o.path("results")) results.add(readResult(r));
                return new AgentProvider.ToolResults(results);
            }
            default:
                throw new Conversation.ConversationException("a transcript message has no known role: " + o.path("role"));
        }
    }

    static AgentProvider.ToolCall readCall(JsonNode c) { return new AgentProvider.ToolCall(text(c, "id"), text(c, "name"), text(c, "arguments")); }

    static AgentProvider.ToolResult readResult(JsonNode r) { return new AgentProvider.ToolResult(text(r, "call_id"), text(r, "content")); }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual()) throw new Conversation.ConversationException("a transcript entry lacks its text field \"" + field + "\"");
        return v.asText();
    }
}
