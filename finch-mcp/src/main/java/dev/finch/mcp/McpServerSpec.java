package dev.finch.mcp;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MCP server a session reaches: a command Finch starts and speaks to over its standard input and output, or a
 * streamable-HTTP endpoint. The name is the server's name in programs ({@code mcp.call(NAME,TOOL)},
 * {@code mcp.<name>.<tool>}); a name a grant cannot spell (letters, digits, {@code _ . + -}) is refused.
 */
public sealed interface McpServerSpec {
    /** The server's name. */
    String name();

    /** A server started as {@code command args…} with {@code env} added to its environment, spoken to over stdio. */
    record Stdio(String name, String command, List<String> args, Map<String, String> env) implements McpServerSpec {
        public Stdio {
            checkName(name);
            Objects.requireNonNull(command, "command");
            if (command.isBlank()) throw new IllegalArgumentException("MCP server '" + name + "' has an empty command");
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }
    }

    /** A server at a streamable-HTTP endpoint, with {@code headers} sent on every request (an authorization, say). */
    record Http(String name, URI url, Map<String, String> headers) implements McpServerSpec {
        public Http {
            checkName(name);
            Objects.requireNonNull(url, "url");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException("MCP server '" + name + "' needs an http or https URL, not " + url);
            }
            headers = Map.copyOf(headers);
        }
    }

    /** A stdio server. */
    static McpServerSpec stdio(String name, String command, String... args) { return new Stdio(name, command, List.of(args), Map.of()); }

    /** A streamable-HTTP server. */
    static McpServerSpec http(String name, String url) { return new Http(name, URI.create(url), Map.of()); }

    private static void checkName(String name) {
        if (!dev.finch.host.words.McpBindings.capabilityName(name)) {
            throw new IllegalArgumentException("'" + name + "' cannot name an MCP server: use letters, digits, '_', '.', '+' or '-' (a grant names it)");
        }
    }
}
