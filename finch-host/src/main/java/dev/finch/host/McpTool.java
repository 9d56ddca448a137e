package dev.finch.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.host.words.McpBindings;
import java.util.Objects;

/**
 * One tool an MCP server lists ({@code tools/list}), as Finch derives its word from it ({@link McpBindings}).
 *
 * @param server       the configured server name
 * @param name         the tool's name on that server
 * @param description  its description (empty when it has none)
 * @param inputSchema  its {@code inputSchema} (a JSON Schema object)
 * @param outputSchema its {@code outputSchema}, or null when it declares none
 */
public record McpTool(String server, String name, String description, JsonNode inputSchema, JsonNode outputSchema) {
    public McpTool {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        Objects.requireNonNull(inputSchema, "inputSchema");
    }
}
