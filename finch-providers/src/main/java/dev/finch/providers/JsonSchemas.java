package dev.finch.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.tools.ToolSpec;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Finch's tool declarations ({@link ToolSpec}: a JSON Schema as text) as LangChain4j's {@link ToolSpecification}s. The
 * schemas Finch declares use {@code object}, {@code string} (with {@code enum}), {@code integer}, {@code number},
 * {@code boolean} and {@code array}; bounds LangChain4j cannot carry ({@code minLength}, {@code maximum}, …) are left
 * out, and the tool surface still checks them on every call.
 */
final class JsonSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonSchemas() { }

    /** The LangChain4j declaration of {@code spec}. */
    static ToolSpecification specification(ToolSpec spec) {
        return ToolSpecification.builder().name(spec.name()).description(spec.description()).parameters(object(read(spec.inputSchema()))).build();
    }

    /** The declarations of {@code specs}, in order. */
    static List<ToolSpecification> specifications(List<ToolSpec> specs) {
        List<ToolSpecification> out = new ArrayList<>();
        for (ToolSpec s : specs) out.add(specification(s));
        return out;
    }

    private static JsonNode read(String schema) {
        try {
            return JSON.readTree(schema);
        } catch (IOException e) {
            throw new IllegalArgumentException("a tool's input schema is not JSON", e);
        }
    }

    private static JsonObjectSchema object(JsonNode s) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (s.hasNonNull("description")) b.description(s.get("description").asText());
        s.path("properties").fields().forEachRemaining(p -> b.addProperty(p.getKey(), element(p.getValue())));
        List<String> required = new ArrayList<>();
        s.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) b.required(required);
        if (s.has("additionalProperties")) b.additionalProperties(s.get("additionalProperties").asBoolean(true));
        return b.build();
    }

    private static JsonSchemaElement element(JsonNode s) {
        String description = s.hasNonNull("description") ? s.get("description").asText() : null;
        if (s.has("enum")) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().description(description).enumValues(values).build();
        }
        return switch (s.path("type").asText("string")) {
            case "object" -> object(s);
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "array" -> JsonArraySchema.builder().description(description).items(element(s.path("items"))).build();
            default -> JsonStringSchema.builder().description(description).build();
        };
    }
}
