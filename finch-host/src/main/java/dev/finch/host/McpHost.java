package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The binding MCP tool calls go to once the boundary has authorized {@code mcp.call(SERVER,TOOL)}: {@code mcp-call}
 * and the schema-derived {@code mcp.<server>.<tool>} words. Finch's own adapter ({@code finch-mcp}, on the official
 * SDK) connects to stdio and streamable-HTTP servers; an embedder may install another (a recorder in a test, a
 * gateway). Installing one grants nothing. Calls may come from several sessions' runs at once, so it is thread-safe.
 */
public interface McpHost {
    /** True when a server named {@code server} is configured (whether or not it is running now). */
    boolean serves(String server);

    /**
     * Calls {@code tool} of {@code server} with {@code arguments} (a JSON object) and waits for its result, giving up
     * with any {@link HostFailure} as soon as {@code watch} answers (the run was cancelled or passed its deadline).
     * A tool that reports an error answers a result with {@link McpResult#error()} set; a server that cannot be
     * reached or stops fails with {@link HostCode#MCP_SERVER_FAILED}, a protocol error with {@link HostCode#MCP_REFUSED}.
     */
    McpResult call(String server, String tool, JsonNode arguments, dev.finch.vm.boundary.Watch watch) throws HostFailure;
}
