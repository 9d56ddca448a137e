package dev.finch.cli;

import dev.finch.Finch;
import dev.finch.mcp.McpClients;
import dev.finch.mcp.McpConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --mcp-config FILE}: the MCP servers a session's programs may call, in the {@code {"mcpServers":{…}}} file MCP
 * clients share (docs/mcp.md). Configuring a server grants nothing: each call still needs {@code mcp.call(SERVER,TOOL)}
 * from {@code --grant} or an approval. A file that cannot be read or is malformed is a usage error (exit 2).
 */
final class McpOptions {
    @Option(names = "--mcp-config", paramLabel = "FILE",
            description = "MCP servers programs may call ({\"mcpServers\":{NAME:{command,args,env} | {url}}}); grants nothing: use --grant mcp.call(NAME,TOOL).")
    Path config;

    /** {@code builder} with the configured servers, if a file was given. */
    Finch.Builder install(Finch.Builder builder) throws UsageException {
        if (config == null) return builder;
        try {
            return builder.mcp(McpClients.of(McpConfig.read(config)));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
