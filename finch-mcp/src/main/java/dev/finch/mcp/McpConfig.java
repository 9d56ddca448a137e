package dev.finch.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server file MCP clients share: {@code {"mcpServers":{"NAME":{"command":…,"args":[…],"env":{…}}}}} for a stdio
 * server, or {@code {"NAME":{"url":…,"headers":{…}}}} for a streamable-HTTP one ({@code "type"} may say
 * {@code "stdio"}, {@code "http"} or {@code "streamable-http"}). Read strictly (decisions D11): one object, no
 * duplicate keys, no trailing text; an unknown field of a server is refused, so a misspelt {@code "arg"} is not silently
 * dropped. Other top-level keys (a client's own settings) are ignored.
 */
public final class McpConfig {
    private McpConfig() { }

    private static final ObjectMapper STRICT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxStringLength(1 << 20).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final Set<String> STDIO_FIELDS = Set.of("type", "command", "args", "env");
    private static final Set<String> HTTP_FIELDS = Set.of("type", "url", "headers");

    /** The servers of the file at {@code file}; {@link IllegalArgumentException} saying what is wrong with it. */
    public static List<McpServerSpec> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the MCP configuration " + file + ": " + e.getMessage(), e);
        }
        return parse(text);
    }

    /** The servers {@code json} configures, in its order; {@link IllegalArgumentException} saying what is wrong. */
    public static List<McpServerSpec> parse(String json) {
        JsonNode root;
        try {
            root = STRICT.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the MCP configuration is not one JSON object: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) throw new IllegalArgumentException("the MCP configuration is not a JSON object");
        JsonNode servers = root.get("mcpServers");
        if (servers == null || !servers.isObject()) throw new IllegalArgumentException("the MCP configuration has no \"mcpServers\" object");
        List<McpServerSpec> out = new ArrayList<>();
        for (var e : servers.properties()) out.add(server(e.getKey(), e.getValue()));
        return List.copyOf(out);
    }

    private static McpServerSpec server(String name, JsonNode s) {
        String where = "MCP server \"" + name + "\"";
        if (!s.isObject()) throw new IllegalArgumentException(where + " is not an object");
        String type = s.has("type") ? text(s.get("type"), where + " type") : s.has("url") ? "http" : "stdio";
        switch (type) {
            case "stdio" -> {
                fields(s, STDIO_FIELDS, where);
                if (!s.has("command")) throw new IllegalArgumentException(where + " has neither \"command\" nor \"url\"");
                List<String> args = new ArrayList<>();
                JsonNode a = s.get("args");
                if (a != null) {
                    if (!a.isArray()) throw new IllegalArgumentException(where + ": \"args\" is not an array of strings");
                    for (JsonNode x : a) args.add(text(x, where + " args"));
                }
                return new McpServerSpec.Stdio(name, text(s.get("command"), where + " command"), args, strings(s.get("env"), where + " env"));
            }
            case "http", "streamable-http", "streamableHttp" -> {
                fields(s, HTTP_FIELDS, where);
                if (!s.has("url")) throw new IllegalArgumentException(where + " has no \"url\"");
                URI url;
                try {
                    url = new URI(text(s.get("url"), where + " url"));
                } catch (java.net.URISyntaxException bad) {
                    throw new IllegalArgumentException(where + ": \"url\" is not a URL: " + bad.getMessage(), bad);
                }
                return new McpServerSpec.Http(name, url, strings(s.get("headers"), where + " headers"));
            }
            default -> throw new IllegalArgumentException(where + ": type \"" + type + "\" is not stdio or http (Finch does not speak the deprecated SSE transport)");
        }
    }

    private static void fields(JsonNode s, Set<String> known, String where) {
        for (var it = s.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) throw new IllegalArgumentException(where + " has an unknown field \"" + f + "\" (known: " + String.join(", ", new java.util.TreeSet<>(known)) + ")");
        }
    }

    private static String text(JsonNode n, String what) {
        if (n == null || !n.isTextual()) throw new IllegalArgumentException(what + " is not a string");
        return n.textValue();
    }

    private static Map<String, String> strings(JsonNode n, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) return out;
        if (!n.isObject()) throw new IllegalArgumentException(what + " is not an object of strings");
        for (var e : n.properties()) out.put(e.getKey(), text(e.getValue(), what + " " + e.getKey()));
        return out;
    }
}
