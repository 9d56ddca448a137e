package dev.finch.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import dev.finch.tools.ToolSpec;
import dev.finch.tools.ToolSurface;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Finch as an MCP server, on the official Java SDK: the model tool surface ({@link ToolSurface}: {@code get_vm_state},
 * {@code get_language_definition}, {@code search_word}, {@code inspect_word}, {@code submit_program}) as MCP tools,
 * one Finch {@link Session} per MCP connection (per MCP session on a streamable-HTTP transport). Each tool's reply is
 * the surface's JSON — for {@code submit_program} the D4 outcome, with {@code required_capabilities} when the program
 * suspends — as text content and as {@code structuredContent}; a call the surface cannot route (an unknown tool,
 * invalid arguments) is an {@code isError} result carrying its {@code E-TOOL-…} error.
 *
 * <p><b>Approvals.</b> A program that needs a capability its session was not granted suspends, and stays suspended:
 * by default the MCP client has no way to approve it (the model must not grant itself what the person did not).
 * {@link Approvals#TOOLS} adds three tools, {@code approve} ({@code execution_id}, {@code scope} {@code once} or
 * {@code session}, {@code approval_code}), {@code deny} ({@code execution_id}, {@code reason}) and {@code resume}
 * ({@code execution_id}, after a {@code yield}). {@code finch mcp --approval-tools} turns them on. An approval needs
 * something the model cannot produce by itself: where the client supports MCP elicitation, {@code approve} asks the
 * person through the client (showing the capability); otherwise it writes a one-time approval code for that request
 * to the host's notices (standard error of {@code finch mcp}: the host's log, which the model does not read) and
 * approves only when called again with that code — which the person reads and supplies. A wrong code is spent: the
 * next call writes a new one.
 *
 * <p><b>Frames.</b> Over stdio ({@link #serveStdio}) every line is read defensively ({@link StdioServerFrames}): a bad
 * frame is answered with a JSON-RPC error and the next one is read; the server stops when its input ends. Tool
 * arguments are checked by the surface (an {@code E-TOOL-003} result), and an unknown tool is an {@code E-TOOL-001}
 * result, never a bare JSON-RPC error.
 *
 * <pre>{@code
 * Session session = Finch.builder().build().newSession(SessionOptions.DEFAULT.withWorkspace(dir));
 * FinchMcpServer.serveStdio(System.in, System.out, () -> session, Approvals.NONE);   // until the client disconnects
 * }</pre>
 */
public final class FinchMcpServer implements AutoCloseable {
    /** Whether the MCP client may approve, deny and resume suspended executions. */
    public enum Approvals {
        /** Only the five surface tools: a suspended program waits (for grants given when the session opened). */
        NONE,
        /** Also {@code approve}, {@code deny} and {@code resume}. */
        TOOLS
    }

    /** How many plain unit yields in a row an approval's or resume's outcome resumes (as {@code submit_program} does). */
    private static final int MAX_UNIT_YIELD_RESUMES = 10_000;

    /** The surface's five tools and their schemas, which do not depend on the session: read once from an empty one. */
    private static final List<ToolSpec> SURFACE_TOOLS;

    static {
        try (dev.finch.Finch f = dev.finch.Finch.create()) {
            SURFACE_TOOLS = ToolSurface.of(f.newSession()).tools();
        }
    }

    private final McpSyncServer server;
    private final Supplier<Session> sessions;
    private final Map<String, ToolSurface> surfaces = new ConcurrentHashMap<>();
    private final Set<Session> opened = ConcurrentHashMap.newKeySet();
    private final AtomicLong calls = new AtomicLong();

    private final java.io.PrintStream notices;
    /** The one-time approval code of each request waiting for one: execution id and sequence to the code. */
    private final Map<String, String> codes = new ConcurrentHashMap<>();
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private FinchMcpServer(McpServer.SyncSpecification<?> spec, Supplier<Session> sessions, Approvals approvals, java.io.PrintStream notices) {
        this.sessions = sessions;
        this.notices = notices;
        // Arguments are the surface's to check, so a bad one is an E-TOOL-003 result rather than the SDK's -32602.
        spec.validateToolInputs(false);
        spec.serverInfo("finch", "0.1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .instructions("Finch runs Lisp and Co-Forth programs in a typed, verified VM. Call get_vm_state before composing "
                        + "stack operations, search_word/inspect_word instead of guessing words, and submit_program to run a program.")
                .tools(tools(approvals));
        this.server = spec.build();
    }

    /**
     * Serves over {@code transport} (one connection: stdio, or a pair of piped streams), the session of that connection
     * made by {@code sessions} at its first call.
     */
    public static FinchMcpServer serve(McpServerTransportProvider transport, Supplier<Session> sessions, Approvals approvals) {
        return new FinchMcpServer(McpServer.sync(transport), sessions, approvals, System.err);
    }

    /** Serves over a streamable-HTTP transport: each MCP session gets its own session from {@code sessions}. */
    public static FinchMcpServer serve(McpStreamableServerTransportProvider transport, Supplier<Session> sessions, Approvals approvals) {
        return new FinchMcpServer(McpServer.sync(transport), sessions, approvals, System.err);
    }

    /**
     * Serves one session over {@code in} and {@code out} (a process's standard streams) until the client closes
     * {@code in}; then the server stops and the sessions it opened are closed ({@link Session#close}).
     */
    public static void serveStdio(InputStream in, OutputStream out, Supplier<Session> sessions, Approvals approvals) throws InterruptedException {
        serveStdio(in, out, sessions, approvals, System.err);
    }

    /**
     * As {@link #serveStdio(InputStream, OutputStream, Supplier, Approvals)}, writing the host's notices (one-time
     * approval codes) to {@code notices}, which the person reads and the model does not (a terminal, a log).
     */
    public static void serveStdio(InputStream in, OutputStream out, Supplier<Session> sessions, Approvals approvals, java.io.PrintStream notices)
            throws InterruptedException {
        StdioServerFrames frames = new StdioServerFrames(in, out, request -> unknownTool(request, approvals));
        try (FinchMcpServer server = new FinchMcpServer(McpServer.sync(frames), sessions, approvals, notices)) {
            frames.ended().await();
        }
    }

    /** The names of the tools offered with {@link Approvals#TOOLS}. */
    private static final Set<String> CONTROL_TOOLS = Set.of("approve", "deny", "resume");

    /**
     * A {@code tools/call} of a tool this server does not offer, answered as the surface answers one ({@code E-TOOL-001}
     * as an {@code isError} result) rather than the SDK's JSON-RPC error; empty for every other request.
     */
    private static java.util.Optional<Object> unknownTool(JsonNode request, Approvals approvals) {
        if (!"tools/call".equals(request.path("method").textValue())) return java.util.Optional.empty();
        JsonNode name = request.path("params").path("name");
        if (name.isTextual() && (SURFACE_TOOLS.stream().anyMatch(t -> t.name().equals(name.textValue()))
                || approvals == Approvals.TOOLS && CONTROL_TOOLS.contains(name.textValue()))) {
            return java.util.Optional.empty();
        }
        // An approval tool of a server without them is unknown too: the SDK would answer it the same way.
        String shown = name.isTextual() ? dev.finch.vm.boundary.HostText.bound(name.textValue(), 200) : String.valueOf(name.getNodeType()).toLowerCase(java.util.Locale.ROOT);
        var o = McpClients.JSON.createObjectNode();
        var e = o.putObject("error");
        e.put("code", dev.finch.tools.ToolCode.UNKNOWN_TOOL.code());
        e.put("message", "no tool named '" + shown + "'; the tools are those tools/list answers");
        e.put("tool", shown);
        return java.util.Optional.of(McpSchema.CallToolResult.builder().addTextContent(o.toString())
                .structuredContent(McpClients.JSON.convertValue(o, Map.class)).isError(true).build());
    }

    /** Stops serving and closes the sessions this server opened. */
    @Override public void close() {
        // A run still going when the client leaves is cancelled: its processes end with it (issue 35 item 5).
        for (Session s : opened) s.runningExecution().ifPresent(s::cancel);
        try {
            server.closeGracefully();
        } catch (RuntimeException ignored) {
            server.close();
        }
        for (Session s : opened) s.close();
    }

    private ToolSurface surface(McpSyncServerExchange exchange) {
        String key = exchange == null || exchange.sessionId() == null ? "" : exchange.sessionId();
        return surfaces.computeIfAbsent(key, k -> {
            Session s = java.util.Objects.requireNonNull(sessions.get(), "the session supplier answered null");
            opened.add(s);
            String prefix = "mcp" + (k.isEmpty() ? "" : "-" + k);
            return ToolSurface.of(s).withSourceIds(() -> prefix + "-call-" + calls.incrementAndGet());
        });
    }

    private List<McpServerFeatures.SyncToolSpecification> tools(Approvals approvals) {
        List<McpServerFeatures.SyncToolSpecification> out = new ArrayList<>();
        for (ToolSpec t : SURFACE_TOOLS) {
            McpSchema.Tool tool = McpSchema.Tool.builder().name(t.name()).description(t.description()).inputSchema(McpClients.MAPPER, t.inputSchema()).build();
            out.add(new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) ->
                    reply(surface(exchange).handle(t.name(), McpClients.JSON.valueToTree(args(request)).toString()))));
        }
        if (approvals == Approvals.TOOLS) {
            out.add(control("approve", Set.of("execution_id", "scope", "approval_code"), "Ask the person to approve the capability request a suspended execution waits for (required_capabilities), once or for the session, and continue it; answers its outcome. Where the client cannot ask the person itself, the first call writes a one-time approval code to the person's log and the person supplies it as approval_code.",
                    "{\"type\":\"object\",\"properties\":{\"execution_id\":{\"type\":\"string\",\"description\":\"The suspended execution.\"},"
                            + "\"approval_code\":{\"type\":\"string\",\"description\":\"The one-time code the person read in finch mcp's log for this request (only where the client cannot ask the person).\"},"
                            + "\"scope\":{\"type\":\"string\",\"enum\":[\"once\",\"session\"],\"description\":\"once (default): this request only; session: every later request for the same capability.\"}},"
                            + "\"required\":[\"execution_id\"],\"additionalProperties\":false}",
                    (s, a) -> s.approve(a.get("execution_id").textValue(), "session".equals(a.path("scope").asText("once")) ? Scope.SESSION : Scope.ONCE)));
            out.add(control("deny", Set.of("execution_id", "reason"), "Deny the capability request a suspended execution waits for; it fails with E-HOST-001 and nothing is dispatched.",
                    "{\"type\":\"object\",\"properties\":{\"execution_id\":{\"type\":\"string\"},\"reason\":{\"type\":\"string\"}},"
                            + "\"required\":[\"execution_id\"],\"additionalProperties\":false}",
                    (s, a) -> s.deny(a.get("execution_id").textValue(), a.path("reason").isTextual() ? a.get("reason").textValue() : null)));
            out.add(control("resume", Set.of("execution_id"), "Resume an execution suspended at a yield (not one waiting for approval); answers its outcome.",
                    "{\"type\":\"object\",\"properties\":{\"execution_id\":{\"type\":\"string\"}},\"required\":[\"execution_id\"],\"additionalProperties\":false}",
                    (s, a) -> s.resume(a.get("execution_id").textValue())));
        }
        return out;
    }

    @FunctionalInterface
    private interface Control { Outcome apply(Session session, JsonNode arguments); }

    private McpServerFeatures.SyncToolSpecification control(String name, Set<String> known, String description, String schema, Control action) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(McpClients.MAPPER, schema).build();
        return new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) -> {
            JsonNode a = McpClients.JSON.valueToTree(args(request));
            for (var it = a.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!known.contains(f)) {
                    return error(name, "unknown argument '" + f + "'");
                }
            }
            if (!a.path("execution_id").isTextual()) return error(name, "execution_id (a string) is required");
            if (a.has("scope") && !Set.of("once", "session").contains(a.path("scope").asText(""))) return error(name, "scope is once or session");
            if (a.has("reason") && !a.get("reason").isTextual()) return error(name, "reason is a string");
            if (a.has("approval_code") && !a.get("approval_code").isTextual()) return error(name, "approval_code is a string");
            ToolSurface surface = surface(exchange);
            Session s = surface.session();
            if (name.equals("approve")) {
                java.util.Optional<String> refused = personApproves(exchange, s, a.get("execution_id").textValue(), a.path("approval_code").textValue(),
                        "session".equals(a.path("scope").asText("once")));
                if (refused.isPresent()) return error(name, refused.get());
            }
            Outcome o = s.awaitTasks(action.apply(s, a));
            for (int i = 0; i < MAX_UNIT_YIELD_RESUMES && o instanceof Outcome.Suspended sus && sus.isUnitYield(); i++) {
                o = s.awaitTasks(s.resume(o.executionId()));
            }
            return reply(FinchJson.write(o));
        });
    }

    /**
     * Whether the person approves the request {@code executionId} waits for: asked through the client (MCP
     * elicitation) where it can ask, else by the one-time code written to the host's notices. Empty when approved;
     * otherwise why not (and nothing is approved).
     */
    private java.util.Optional<String> personApproves(McpSyncServerExchange exchange, Session s, String executionId, String code, boolean forSession) {
        var pending = s.pendingRequest(executionId);
        if (pending.isEmpty()) return java.util.Optional.empty(); // the session refuses it with its own diagnostic
        String requirement = dev.finch.ApprovalText.safe(pending.get().requirement().toString());
        // What the person approves: the operation and its arguments (the path, a write's first bytes, the command line).
        String what = dev.finch.ApprovalText.describe(pending.get());
        String key = executionId + "#" + pending.get().sequence();
        var caps = exchange == null ? null : exchange.getClientCapabilities();
        if (caps != null && caps.elicitation() != null) {
            try {
                McpSchema.ElicitResult r = exchange.createElicitation(McpSchema.ElicitRequest.builder(
                        "A program asks to do " + what + ", which needs " + requirement
                                + (forSession ? " for the rest of this session" : " once") + " (execution " + executionId + "). Approve?",
                        Map.of("type", "object", "properties", Map.of("approve", Map.of("type", "boolean", "title", "Approve " + requirement)),
                                "required", List.of("approve"))).build());
                boolean yes = r != null && r.action() == McpSchema.ElicitResult.Action.ACCEPT && r.content() != null
                        && Boolean.TRUE.equals(r.content().get("approve"));
                return yes ? java.util.Optional.empty() : java.util.Optional.of("the person did not approve " + requirement + "; the execution still waits");
            } catch (RuntimeException e) {
                // The client could not ask: fall back to the code.
            }
        }
        String expected = codes.remove(key);
        if (expected != null && code != null && java.security.MessageDigest.isEqual(expected.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                code.strip().getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            return java.util.Optional.empty();
        }
        String fresh = String.format(java.util.Locale.ROOT, "%03d-%03d", RANDOM.nextInt(1000), RANDOM.nextInt(1000));
        codes.put(key, fresh);
        notices.println("finch mcp: approval code " + fresh + " approves " + requirement + (forSession ? " for the session" : " once")
                + " for execution " + executionId + ", which asks to do " + what + " (give it only if you approve; it is spent on the first attempt)");
        notices.flush();
        return java.util.Optional.of((code == null ? "" : "that approval code is not the one for this request (it is spent); ")
                + "approving " + requirement + " needs the person: a one-time approval code was written to finch mcp's log;"
                + " ask the person for it and call approve again with approval_code");
    }

    private static Map<String, Object> args(McpSchema.CallToolRequest request) {
        return request.arguments() == null ? Map.of() : request.arguments();
    }

    private static McpSchema.CallToolResult error(String tool, String message) {
        var o = McpClients.JSON.createObjectNode();
        var e = o.putObject("error");
        e.put("code", "E-TOOL-003");
        e.put("message", message);
        e.put("tool", tool);
        return McpSchema.CallToolResult.builder().addTextContent(o.toString()).structuredContent(McpClients.JSON.convertValue(o, Map.class)).isError(true).build();
    }

    /** The surface's JSON reply as a tool result: text and structured content; a routing error is {@code isError}. */
    private static McpSchema.CallToolResult reply(String json) {
        JsonNode n;
        try {
            n = McpClients.JSON.readTree(json);
        } catch (IOException e) {
            return McpSchema.CallToolResult.builder().addTextContent(json).isError(true).build();
        }
        var b = McpSchema.CallToolResult.builder().addTextContent(json);
        if (n.isObject()) b.structuredContent(McpClients.JSON.convertValue(n, Map.class));
        return b.isError(n.isObject() && n.has("error") && n.size() == 1).build();
    }
}
