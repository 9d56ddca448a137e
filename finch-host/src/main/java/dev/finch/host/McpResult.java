package dev.finch.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Objects;

/**
 * What an MCP tool answered (the protocol's {@code CallToolResult}).
 *
 * @param content    the {@code content} array (text, images, resources…), as sent
 * @param structured the {@code structuredContent} object, or null when the tool sent none
 * @param error      the tool's {@code isError}: the call reached the tool, which reports a failure in {@code content}
 */
public record McpResult(JsonNode content, JsonNode structured, boolean error) {
    public McpResult {
        content = content == null ? JsonNodeFactory.instance.arrayNode() : content;
    }

    /** A successful result with these contents. */
    public static McpResult of(JsonNode content, JsonNode structured) { return new McpResult(content, structured, false); }

    /** What a program receives as the tool's output: the structured content when there is some, else the content array. */
    public JsonNode output() { return structured != null ? structured : content; }

    /** The text items of {@code content}, joined by newlines (what an error result says). */
    public String text() {
        StringBuilder b = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode item : content) {
                if ("text".equals(item.path("type").asText()) && item.path("text").isTextual()) {
                    if (b.length() > 0) b.append('\n');
                    b.append(item.get("text").textValue());
                }
            }
        }
        if (b.length() == 0) b.append(Objects.toString(content));
        return b.toString();
    }
}
