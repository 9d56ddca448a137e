package dev.finch.tools;

import java.util.Objects;

/**
 * One tool as a model provider declares it: name, description and the JSON Schema of its arguments (as JSON text,
 * so an embedder can hand it to any provider SDK: OpenAI's {@code parameters}, Anthropic's {@code input_schema}).
 */
public record ToolSpec(String name, String description, String inputSchema) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
    }
}
