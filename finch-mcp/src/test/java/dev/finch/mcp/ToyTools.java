package dev.finch.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tools of the MCP servers the tests run, built on the official SDK: the same set over stdio (a subprocess,
 * {@link ToyServer}) and over streamable HTTP (a Jetty servlet on a loopback port, in the test JVM).
 */
final class ToyTools {
    private ToyTools() { }

    static final McpJsonMapper MAPPER = McpClients.MAPPER;

    private static McpSchema.Tool tool(String name, String description, String input, String output) {
        var b = McpSchema.Tool.builder().name(name).description(description).inputSchema(MAPPER, input);
        if (output != null) b.outputSchema(MAPPER, output);
        return b.build();
    }

    private static McpSchema.CallToolResult structured(String text, Map<String, Object> structured) {
        return McpSchema.CallToolResult.builder().addTextContent(text).structuredContent(structured).build();
    }

    /** Builds a server over {@code spec} with every toy tool; {@code add_tool} adds one more and notifies clients. */
    static McpSyncServer build(McpServer.SyncSpecification<?> spec) {
        AtomicReference<McpSyncServer> self = new AtomicReference<>();
        List<SyncToolSpecification> tools = List.of(
                new SyncToolSpecification(tool("greet", "Greets a person by name.",
                        "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"excited\":{\"type\":\"boolean\"}},\"required\":[\"name\"]}",
                        "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"},\"length\":{\"type\":\"integer\"}},\"required\":[\"greeting\",\"length\"]}"),
                        (ex, req) -> {
                            String g = "Hello, " + req.arguments().get("name") + (Boolean.TRUE.equals(req.arguments().get("excited")) ? "!" : ".");
                            return structured(g, Map.of("greeting", g, "length", g.length()));
                        }),
                new SyncToolSpecification(tool("add", "Adds a list of integers and a float.",
                        "{\"type\":\"object\",\"properties\":{\"numbers\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}},"
                                + "\"scale\":{\"type\":\"number\"},\"meta\":{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\"}},\"required\":[\"label\"]}},"
                                + "\"required\":[\"numbers\"]}", null),
                        (ex, req) -> {
                            long sum = 0;
                            for (Object n : (List<?>) req.arguments().get("numbers")) sum += ((Number) n).longValue();
                            double scale = req.arguments().get("scale") instanceof Number s ? s.doubleValue() : 1.0;
                            Object label = req.arguments().get("meta") instanceof Map<?, ?> m ? m.get("label") : "none";
                            return McpSchema.CallToolResult.builder().addTextContent(label + ":" + (sum * scale)).build();
                        }),
                new SyncToolSpecification(tool("echo.json", "Echoes its arguments (a schema Finch does not type).",
                        "{\"type\":\"object\",\"properties\":{\"value\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}}}", null),
                        (ex, req) -> structured("echo", req.arguments())),
                new SyncToolSpecification(tool("fail", "Always reports an error.", "{\"type\":\"object\",\"properties\":{}}", null),
                        (ex, req) -> McpSchema.CallToolResult.builder().addTextContent("the toy tool failed on purpose").isError(true).build()),
                // An integer its schema admits (the SDK's server validates its output) but no 64-bit int holds.
                new SyncToolSpecification(tool("bad_output", "Declares an integer and answers one past 64 bits.", "{\"type\":\"object\",\"properties\":{}}",
                        "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}"),
                        (ex, req) -> structured("bad", Map.of("n", new java.math.BigInteger("100000000000000000000000000000")))),
                new SyncToolSpecification(tool("hang", "Never answers.", "{\"type\":\"object\",\"properties\":{}}", null),
                        (ex, req) -> {
                            try {
                                Thread.sleep(120_000);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return McpSchema.CallToolResult.builder().addTextContent("late").build();
                        }),
                new SyncToolSpecification(tool("crash", "Stops the server process.", "{\"type\":\"object\",\"properties\":{}}", null),
                        (ex, req) -> {
                            Runtime.getRuntime().halt(3);
                            return null;
                        }),
                new SyncToolSpecification(tool("add_tool", "Adds the tool `late` and announces tools/list_changed.", "{\"type\":\"object\",\"properties\":{}}", null),
                        (ex, req) -> {
                            self.get().addTool(new SyncToolSpecification(tool("late", "A tool added later.",
                                    "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}},\"required\":[\"x\"]}", null),
                                    (e2, r2) -> McpSchema.CallToolResult.builder().addTextContent("late " + r2.arguments().get("x")).build()));
                            self.get().notifyToolsListChanged();
                            return McpSchema.CallToolResult.builder().addTextContent("added").build();
                        }));
        McpSyncServer server = spec.serverInfo("toy", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools)
                .build();
        self.set(server);
        return server;
    }
}
