package dev.finch;

import dev.finch.host.McpHost;
import dev.finch.host.McpTool;
import java.util.List;

/**
 * The MCP servers the sessions of a Finch reach ({@link Finch.Builder#mcp}): the seam between the embedding API and
 * an MCP client, so that {@code finch-core} depends on no SDK. {@code finch-mcp}'s {@code McpClients} implements it
 * on the official Java SDK (stdio commands and streamable-HTTP URLs, or a {@code {"mcpServers":{…}}} file).
 *
 * <p>Each session opens its own {@link Connection} when it opens (stdio servers are processes with state, so one
 * session's calls never reach another's server) and closes it when the session or its Finch closes. The session
 * installs a word per admissible tool ({@code mcp.<server>.<tool>}; see {@code dev.finch.host.words.McpBindings}) —
 * raising its manifest generation — and reinstalls them when a server announces {@code tools/list_changed}.
 * Configuring a server grants nothing: every call still needs {@code mcp.call(SERVER,TOOL)}.
 */
@FunctionalInterface
public interface McpServers {
    /**
     * Connects one session to every configured server. Never throws for a server that cannot be started or reached:
     * that server lists no tools and its calls fail with {@code E-HOST-025}. {@code toolsChanged} is called, on any
     * thread, whenever a server's tool list changes.
     */
    Connection connect(Runnable toolsChanged);

    /** One session's connections: where its calls go, the tools it sees, and what to stop when it closes. */
    interface Connection extends McpHost, AutoCloseable {
        /** Every tool the reachable servers list now. */
        List<McpTool> tools();

        /** Stops what this connection started (stdio server processes) and closes its transports. Idempotent. */
        @Override void close();
    }
}
