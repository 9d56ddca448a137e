package dev.finch.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.nio.file.Files;
import java.nio.file.Path;

/** The toy MCP server over stdio, run as a subprocess by the tests ({@code java -cp <test class path> dev.finch.mcp.ToyServer}). */
public final class ToyServer {
    private ToyServer() { }

    public static void main(String[] args) throws Exception {
        String pidFile = System.getenv("TOY_PID_FILE");
        if (pidFile != null) Files.writeString(Path.of(pidFile), Long.toString(ProcessHandle.current().pid()));
        ToyTools.build(McpServer.sync(new StdioServerTransportProvider(ToyTools.MAPPER)));
        // The transport reads standard input on its own threads; the server ends when its client closes it.
        Thread.currentThread().join();
    }
}
