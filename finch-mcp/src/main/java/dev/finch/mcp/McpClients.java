package dev.finch.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.McpServers;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.vm.boundary.HostText;
import dev.finch.host.McpResult;
import dev.finch.host.McpTool;
import dev.finch.host.ProcessHost;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/**
 * Finch's MCP client, on the official Java SDK: the {@link McpServers} of {@code Finch.builder().mcp(…)}. Each session
 * gets its own connection to every configured server — a stdio server is started for it (and stopped when it closes),
 * an HTTP server gets a connection of its own — lists their tools, follows {@code tools/list_changed}, and calls tools
 * for {@code mcp-call} and the {@code mcp.<server>.<tool>} words.
 *
 * <pre>{@code
 * Finch finch = Finch.builder()
 *         .mcp(McpClients.of(McpConfig.read(Path.of("mcp.json"))))     // or McpServerSpec.stdio("files", "npx", …)
 *         .build();
 * }</pre>
 *
 * Faults stay host diagnostics of the call, never the session's: a server that cannot be started or reached lists no
 * tools and its calls fail with {@code E-HOST-025}, as does one that stops (crashes) or passes the request timeout
 * (60 s by default); a JSON-RPC error is {@code E-HOST-026}. A call gives up at once when its run is cancelled or
 * passes its deadline. A stdio server gets a scrubbed environment — {@code HOME}, {@code LOGNAME}, {@code PATH},
 * {@code SHELL}, {@code TERM} and {@code USER} from this process, plus its configuration's {@code env} — never the
 * rest (an API key in the host's environment stays there); it is contained as local processes are and killed with
 * everything it started when the session closes; its frames are read defensively ({@link StdioClientFrames}: a
 * crashed, lying or flooding server fails the waiting call at once with {@code E-HOST-025}); its standard error is
 * kept (the last lines, cut and scrubbed) for the message of a failure.
 */
public final class McpClients implements McpServers {
    static final ObjectMapper JSON = new ObjectMapper();
    static final JacksonMcpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);
    /** How often a waiting call looks at its run's watch. */
    private static final long POLL_MILLIS = 10;
    /** Standard-error lines of a stdio server kept for failure messages. */
    private static final int STDERR_LINES = 5;

    private final List<McpServerSpec> servers;
    private final Duration requestTimeout;
    private final Duration startTimeout;

    private McpClients(List<McpServerSpec> servers, Duration requestTimeout, Duration startTimeout) {
        Map<String, McpServerSpec> byName = new LinkedHashMap<>();
        for (McpServerSpec s : servers) {
            if (byName.put(s.name(), s) != null) throw new IllegalArgumentException("two MCP servers are named '" + s.name() + "'");
        }
        this.servers = List.copyOf(servers);
        this.requestTimeout = requestTimeout;
        this.startTimeout = startTimeout;
    }

    /** These servers, with a request timeout of 60 s and 20 s to start and initialize each. */
    public static McpClients of(List<McpServerSpec> servers) { return new McpClients(servers, Duration.ofSeconds(60), Duration.ofSeconds(20)); }

    /** These clients with {@code timeout} for each request (a call, a listing); positive. */
    public McpClients withRequestTimeout(Duration timeout) { return new McpClients(servers, positive(timeout), startTimeout); }

    /** These clients with {@code timeout} for starting and initializing each server; positive. */
    public McpClients withStartTimeout(Duration timeout) { return new McpClients(servers, requestTimeout, positive(timeout)); }

    /** The configured servers. */
    public List<McpServerSpec> servers() { return servers; }

    private static Duration positive(Duration d) {
        if (d == null || d.isZero() || d.isNegative()) throw new IllegalArgumentException("a timeout must be positive");
        return d;
    }

    @Override public Connection connect(Runnable toolsChanged) {
        java.util.Objects.requireNonNull(toolsChanged, "toolsChanged");
        Map<String, Link> links = new LinkedHashMap<>();
        List<CompletableFuture<Void>> starting = new ArrayList<>();
        for (McpServerSpec s : servers) {
            Link l = new Link(s, toolsChanged);
            links.put(s.name(), l);
            starting.add(CompletableFuture.runAsync(l::start));
        }
        for (CompletableFuture<Void> f : starting) f.join();
        return new SessionConnection(Map.copyOf(links));
    }

    /** One session's connections. */
    private static final class SessionConnection implements Connection {
        private final Map<String, Link> links;

        SessionConnection(Map<String, Link> links) { this.links = links; }

        @Override public boolean serves(String server) { return links.containsKey(server); }

        @Override public List<McpTool> tools() {
            List<McpTool> out = new ArrayList<>();
            for (Link l : links.values()) out.addAll(l.tools);
            return out;
        }

        @Override public McpResult call(String server, String tool, JsonNode arguments, dev.finch.vm.boundary.Watch watch) throws HostFailure {
            Link l = links.get(server);
            if (l == null) throw new HostFailure(HostCode.MCP_NO_SERVER, "no MCP server named '" + server + "' is configured");
            return l.call(tool, arguments, watch);
        }

        @Override public void close() { for (Link l : links.values()) l.close(); }
    }

    /** The connection to one server. */
    private final class Link {
        final McpServerSpec spec;
        final Runnable toolsChanged;
        volatile McpAsyncClient client;
        volatile String failure;
        volatile List<McpTool> tools = List.of();
        volatile boolean closed;
        /** A stdio server's transport, which notices its process ending: pending and later calls fail at once. */
        volatile StdioClientFrames frames;
        private final ArrayDeque<String> stderr = new ArrayDeque<>();

        Link(McpServerSpec spec, Runnable toolsChanged) {
            this.spec = spec;
            this.toolsChanged = toolsChanged;
        }

        void start() {
            McpAsyncClient c = null;
            if (spec instanceof McpServerSpec.Stdio s && !runnable(s.command())) {
                // The SDK would wait out the start timeout for a process that never started: say so at once.
                failure = "MCP server '" + spec.name() + "' could not be started: no executable '" + s.command() + "'"
                        + (s.command().contains("/") ? "" : " on the PATH");
                return;
            }
            try {
                McpClientTransport transport = transport();
                c = McpClient.async(transport)
                        .requestTimeout(requestTimeout)
                        .initializationTimeout(startTimeout)
                        .clientInfo(new McpSchema.Implementation("finch", "0.1.0"))
                        .toolsChangeConsumer(listed -> Mono.fromRunnable(() -> {
                            tools = convert(listed);
                            toolsChanged.run();
                        }))
                        .build();
                c.initialize().block(startTimeout.plusSeconds(1));
                client = c;
                tools = convert(listAll(c));
            } catch (RuntimeException e) {
                failure = "MCP server '" + spec.name() + "' could not be started or reached: " + reason(e) + stderrTail();
                if (c != null) {
                    try { c.close(); } catch (RuntimeException ignored) { /* already failed */ }
                }
                client = null;
            }
        }

        /** Why a stdio server's process is gone, or null while it runs (or for an HTTP server). */
        private String exited() {
            StdioClientFrames f = frames;
            return f == null ? null : f.exited();
        }

        private McpClientTransport transport() {
            if (spec instanceof McpServerSpec.Stdio s) {
                frames = new StdioClientFrames(s, line -> {
                    synchronized (stderr) {
                        if (stderr.size() == STDERR_LINES) stderr.removeFirst();
                        stderr.addLast(line);
                    }
                });
                return frames;
            }
            McpServerSpec.Http h = (McpServerSpec.Http) spec;
            URI u = h.url();
            String base = u.getScheme() + "://" + u.getRawAuthority();
            String endpoint = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath()) + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
            var request = java.net.http.HttpRequest.newBuilder();
            h.headers().forEach(request::header);
            return HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).jsonMapper(MAPPER)
                    .requestBuilder(request).connectTimeout(startTimeout).build();
        }

        private List<McpSchema.Tool> listAll(McpAsyncClient c) {
            List<McpSchema.Tool> all = new ArrayList<>();
            String cursor = null;
            for (int page = 0; page < 100; page++) {
                McpSchema.ListToolsResult r = (cursor == null ? c.listTools() : c.listTools(cursor)).block(requestTimeout.plusSeconds(1));
                if (r == null) break;
                all.addAll(r.tools());
                cursor = r.nextCursor();
                if (cursor == null || cursor.isEmpty()) break;
            }
            return all;
        }

        private List<McpTool> convert(List<McpSchema.Tool> listed) {
            List<McpTool> out = new ArrayList<>();
            for (McpSchema.Tool t : listed) {
                JsonNode in = t.inputSchema() == null ? JSON.createObjectNode() : JSON.valueToTree(t.inputSchema());
                JsonNode outSchema = t.outputSchema() == null ? null : JSON.valueToTree(t.outputSchema());
                out.add(new McpTool(spec.name(), t.name(), t.description(), in, outSchema));
            }
            return List.copyOf(out);
        }

        McpResult call(String tool, JsonNode arguments, dev.finch.vm.boundary.Watch watch) throws HostFailure {
            McpAsyncClient c = client;
            if (c == null || closed) {
                throw new HostFailure(HostCode.MCP_SERVER_FAILED, closed ? "the connection to MCP server '" + spec.name() + "' is closed" : failure);
            }
            if (exited() != null) throw new HostFailure(HostCode.MCP_SERVER_FAILED, exited() + stderrTail());
            StdioClientFrames f0 = frames;
            if (f0 != null && f0.skipped().containsKey(tool)) {
                throw new HostFailure(HostCode.MCP_SERVER_FAILED, "MCP server '" + spec.name() + "' listed `" + HostText.bound(tool, 200)
                        + "` in a form Finch cannot take (" + f0.skipped().get(tool) + "), so Finch left it out");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> args = JSON.convertValue(arguments, Map.class);
            CompletableFuture<McpSchema.CallToolResult> f = c.callTool(new McpSchema.CallToolRequest(tool, args)).toFuture();
            McpSchema.CallToolResult r;
            while (true) {
                try {
                    r = f.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException waiting) {
                    String gone = exited();
                    if (gone != null) {
                        f.cancel(true);
                        throw new HostFailure(HostCode.MCP_SERVER_FAILED, gone + " before it answered `" + tool + "`" + stderrTail());
                    }
                    Optional<String> stop = watch.stop();
                    if (stop.isPresent()) {
                        f.cancel(true);
                        throw new HostFailure(HostCode.MCP_SERVER_FAILED, "the call of `" + tool + "` on MCP server '" + spec.name() + "' was abandoned: " + stop.get());
                    }
                } catch (InterruptedException interrupted) {
                    f.cancel(true);
                    Thread.currentThread().interrupt();
                    throw new HostFailure(HostCode.MCP_SERVER_FAILED, "the call of `" + tool + "` on MCP server '" + spec.name() + "' was interrupted");
                } catch (ExecutionException failed) {
                    throw failure(tool, failed.getCause());
                }
            }
            if (r == null) throw new HostFailure(HostCode.MCP_SERVER_FAILED, "MCP server '" + spec.name() + "' answered nothing to `" + HostText.bound(tool, 200) + "`");
            JsonNode content = content(r.content() == null ? List.of() : r.content());
            JsonNode structured = r.structuredContent() == null ? null : JSON.valueToTree(r.structuredContent());
            return new McpResult(content, structured, Boolean.TRUE.equals(r.isError()));
        }

        /** The content items as the wire has them (with their {@code type}, which the list's erased type would lose). */
        private JsonNode content(List<McpSchema.Content> items) throws HostFailure {
            try {
                return JSON.readTree(JSON.writerFor(JSON.getTypeFactory().constructCollectionType(List.class, McpSchema.Content.class)).writeValueAsString(items));
            } catch (java.io.IOException e) {
                throw new HostFailure(HostCode.MCP_SERVER_FAILED, "MCP server '" + spec.name() + "' answered content Finch cannot read: " + e.getMessage());
            }
        }

        private HostFailure failure(String tool, Throwable cause) {
            if (cause instanceof McpError e && e.getJsonRpcError() != null) {
                String m = e.getJsonRpcError().message() == null ? "" : e.getJsonRpcError().message();
                StdioClientFrames f = frames;
                if (f != null && m.startsWith(f.marker())) {
                    return new HostFailure(HostCode.MCP_SERVER_FAILED, "MCP server '" + spec.name() + "' did not answer `" + HostText.bound(tool, 200) + "`: "
                            + m.substring(f.marker().length()) + stderrTail());
                }
                return new HostFailure(HostCode.MCP_REFUSED, "MCP server '" + spec.name() + "' refused `" + HostText.bound(tool, 200) + "`: " + HostText.external(m)
                        + " (JSON-RPC error " + e.getJsonRpcError().code() + ")");
            }
            return new HostFailure(HostCode.MCP_SERVER_FAILED, "MCP server '" + spec.name() + "' did not answer `" + HostText.bound(tool, 200) + "`: " + reason(cause) + stderrTail());
        }

        /** Why a request failed, in Finch's words: this transport's own reason, else the root cause's message scrubbed. */
        private String reason(Throwable e) {
            StdioClientFrames f = frames;
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                String m = t instanceof McpError me && me.getJsonRpcError() != null ? me.getJsonRpcError().message() : t.getMessage();
                if (f != null && m != null && m.contains(f.marker())) return m.substring(m.indexOf(f.marker()) + f.marker().length());
            }
            if (exited() != null) return "it stopped (its process ended)";
            HostText.log("MCP server '" + spec.name() + "' failed", e);
            if (e instanceof java.util.concurrent.TimeoutException || e.getCause() instanceof java.util.concurrent.TimeoutException
                    || String.valueOf(e.getMessage()).contains("Timeout") || String.valueOf(e.getMessage()).contains("timeout")) {
                return "it passed the request timeout";
            }
            return HostText.external(message(e));
        }

        private String stderrTail() {
            synchronized (stderr) {
                return stderr.isEmpty() ? "" : " (its standard error ends: " + HostText.external(String.join(" | ", stderr)) + ")";
            }
        }

        void close() {
            closed = true;
            McpAsyncClient c = client;
            client = null;
            if (c == null) return;
            try {
                c.closeGracefully().block(Duration.ofSeconds(2));
            } catch (RuntimeException ignored) {
                // Closing anyway below.
            }
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // Best effort: the transport is gone.
            }
        }
    }

    /** Whether {@code command} names an executable file, as a path or on the {@code PATH} (as the process builder looks it up). */
    static boolean runnable(String command) {
        if (command.contains("/") || command.contains(java.io.File.separator)) return java.nio.file.Files.isExecutable(java.nio.file.Path.of(command));
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            try {
                if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) return true;
                if (java.io.File.separatorChar == '\\' && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command + ".exe"))) return true;
            } catch (java.nio.file.InvalidPathException ignored) {
                // Not a directory we can look in.
            }
        }
        return false;
    }

    private static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return m.length() > 500 ? m.substring(0, 500) + "…" : m;
    }
}
