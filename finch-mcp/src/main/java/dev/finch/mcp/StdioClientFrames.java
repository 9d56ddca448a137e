package dev.finch.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.vm.boundary.HostText;
import dev.finch.host.LocalProcessHost;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The client end of MCP over stdio, in place of the SDK's {@code StdioClientTransport}: Finch starts the server and
 * reads its frames itself, so that a crashed or lying server is noticed at once and costs a bounded amount.
 * <ul>
 *   <li><b>No secrets</b>: the server gets a scrubbed environment — only {@link #INHERITED} from this process (what
 *       the official SDKs pass) — plus the variables its configuration names.</li>
 *   <li><b>Contained</b>: it starts as {@link LocalProcessHost} starts processes (a PID namespace where the machine
 *       allows it), and closing stops it with {@code SIGKILL} after a grace period, with everything it started,
 *       whether it ignores {@code SIGTERM} or not.</li>
 *   <li><b>Frames</b> through {@link Frames}: a line that does not start with {@code {} (a stray log line) is dropped
 *       (kept with the standard error lines); an oversized or malformed frame (too deep, a number too long, not JSON)
 *       fails every request waiting for an answer at once; a response that is not a JSON-RPC response ({@code result:
 *       null}, an error without code) fails its own request; a result nested deeper than {@link #MAX_RESULT_DEPTH}
 *       too. When the server's output ends (it exited or crashed), every waiting request fails at once.</li>
 *   <li><b>Tools</b>: a {@code tools/list} entry Finch cannot take (no name, a schema that is not an object or is
 *       nested deeper than {@link #MAX_SCHEMA_DEPTH}) is left out with its reason ({@link #skipped}); the others
 *       install.</li>
 * </ul>
 * A failure Finch makes up for a request carries {@link #marker()} at the start of its message, so the caller tells it
 * from the server's own JSON-RPC error.
 */
final class StdioClientFrames implements McpClientTransport {
    /** The variables a server inherits from this process, when set (the official SDKs' defaults on POSIX). */
    static final List<String> INHERITED = List.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER");
    /** The deepest result Finch hands on. */
    static final int MAX_RESULT_DEPTH = 256;
    /** The deepest tool schema Finch takes. */
    static final int MAX_SCHEMA_DEPTH = 64;
    /** How long a closing server gets to exit by itself after its input closes. */
    private static final long CLOSE_GRACE_MS = 1_000;

    /** Deep enough to read a listing whose one tool is too deep, so the others still install. */
    private static final ObjectMapper LENIENT_DEPTH = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(20_000)
                            .maxNumberLength(Frames.MAX_NUMBER_CHARS).maxStringLength(Frames.MAX_FRAME_BYTES).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final McpServerSpec.Stdio spec;
    private final Consumer<String> stderr;
    private final String marker = "finch:" + Long.toHexString(new java.security.SecureRandom().nextLong()) + ":";
    /** The requests sent and not answered: their id (as JSON text) to their method. */
    private final Map<String, String> outstanding = new ConcurrentHashMap<>();
    private final Map<String, String> skipped = new ConcurrentHashMap<>();
    private final Object writing = new Object();
    private volatile Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler;
    private volatile Process process;
    private volatile OutputStream in;
    private volatile String exited;
    private volatile boolean closing;

    StdioClientFrames(McpServerSpec.Stdio spec, Consumer<String> stderr) {
        this.spec = spec;
        this.stderr = stderr;
    }

    /** What every failure this transport makes up starts with. */
    String marker() { return marker; }

    /** Why the server's process is gone, or null while it runs. */
    String exited() { return exited; }

    /** The tools the server listed that Finch left out, by name, with why. */
    Map<String, String> skipped() { return Map.copyOf(skipped); }

    /** The environment the server starts with: {@link #INHERITED} from {@code parent}, then its configuration's. */
    static Map<String, String> environment(Map<String, String> parent, Map<String, String> configured) {
        Map<String, String> env = new TreeMap<>();
        for (String name : INHERITED) {
            String v = parent.get(name);
            if (v != null) env.put(name, v);
        }
        env.putAll(configured);
        return env;
    }

    @Override public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            this.handler = handler;
            List<String> command = new ArrayList<>();
            command.add(spec.command());
            command.addAll(spec.args());
            ProcessBuilder pb = new ProcessBuilder(LocalProcessHost.containedCommand(command));
            pb.environment().clear();
            pb.environment().putAll(environment(System.getenv(), spec.env()));
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                HostText.log("starting MCP server '" + spec.name() + "' failed", e);
                throw new IllegalStateException(marker + "its command could not be started");
            }
            LocalProcessHost.track(p);
            process = p;
            in = p.getOutputStream();
            daemon(() -> readStdout(p), "finch-mcp-" + spec.name() + "-stdout");
            daemon(() -> readStderr(p), "finch-mcp-" + spec.name() + "-stderr");
        });
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    @Override public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            if (message instanceof McpSchema.JSONRPCRequest r) outstanding.put(key(McpClients.JSON.valueToTree(r.id())), r.method());
            String line;
            try {
                line = McpClients.MAPPER.writeValueAsString(message) + "\n";
            } catch (IOException e) {
                throw new IllegalStateException(marker + "a message could not be written");
            }
            String gone = exited;
            OutputStream o = in;
            if (gone != null || o == null) {
                fail(message, gone == null ? "it is not running" : gone);
                return;
            }
            synchronized (writing) {
                try {
                    o.write(line.getBytes(StandardCharsets.UTF_8));
                    o.flush();
                } catch (IOException e) {
                    fail(message, "its input is closed");
                }
            }
        });
    }

    private void fail(McpSchema.JSONRPCMessage message, String why) {
        if (message instanceof McpSchema.JSONRPCRequest r) {
            String k = key(McpClients.JSON.valueToTree(r.id()));
            if (outstanding.remove(k) != null) deliverError(McpClients.JSON.valueToTree(r.id()), why);
        }
    }

    private static String key(JsonNode id) { return id == null ? "null" : id.toString(); }

    private void readStdout(Process p) {
        Frames.Reader lines = new Frames.Reader(p.getInputStream(), Frames.MAX_FRAME_BYTES);
        try {
            while (true) {
                Optional<Frames.Line> line = lines.next();
                if (line.isEmpty()) break;
                try {
                    frame(line.get());
                } catch (RuntimeException | StackOverflowError e) {
                    // Whatever a frame does to Finch's reading of it, the reader goes on with the next one.
                    failAll("it answered a frame Finch cannot read");
                }
            }
        } catch (IOException | RuntimeException ended) {
            // As the end of its output.
        }
        exited = "MCP server '" + spec.name() + "' stopped (its process ended)";
        failAll(closing ? "the connection was closed" : "it stopped (its process ended)");
    }

    private void readStderr(Process p) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            char[] buf = new char[8192];
            StringBuilder line = new StringBuilder();
            int n;
            while ((n = r.read(buf)) >= 0) {
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        stderr.accept(HostText.bound(line.toString(), 500));
                        line.setLength(0);
                    } else if (line.length() < 2_000) {
                        line.append(buf[i]);
                    }
                }
            }
            if (line.length() > 0) stderr.accept(HostText.bound(line.toString(), 500));
        } catch (IOException | RuntimeException ended) {
            // The process is gone.
        }
    }

    private void frame(Frames.Line line) {
        if (line.oversized()) {
            failAll("it answered a frame longer than " + Frames.MAX_FRAME_BYTES + " bytes");
            return;
        }
        if (line.blank()) return;
        String text = line.text();
        if (!text.stripLeading().startsWith("{")) {
            // A stray line (a log message on the wrong stream): not a frame; kept with the standard error lines.
            stderr.accept("(on its output) " + HostText.bound(text, 500));
            return;
        }
        JsonNode m;
        try {
            m = LENIENT_DEPTH.readTree(line.bytes());
        } catch (IOException | RuntimeException e) {
            failAll("it answered a malformed frame (not one JSON value, or a number longer than " + Frames.MAX_NUMBER_CHARS + " digits)");
            return;
        }
        if (m == null || !m.isObject() || !"2.0".equals(m.path("jsonrpc").textValue())) {
            failAll("it answered a frame that is not a JSON-RPC 2.0 message");
            return;
        }
        JsonNode id = m.get("id");
        if (!m.has("method")) {
            response(m, id);
            return;
        }
        if (!m.get("method").isTextual() || (id != null && !Frames.validId(id)) || Frames.depth(m) > MAX_RESULT_DEPTH) return;
        deliver(m);
    }

    private void response(JsonNode m, JsonNode id) {
        if (!Frames.validId(id)) return;
        String method = outstanding.remove(key(id));
        if (method == null) return; // not ours, or already failed: dropped
        boolean hasResult = m.has("result");
        boolean hasError = m.has("error");
        if (hasResult == hasError) {
            deliverError(id, "it answered a response with " + (hasResult ? "both a result and an error" : "neither a result nor an error"));
            return;
        }
        if (hasError) {
            JsonNode e = m.get("error");
            if (!e.isObject() || !e.path("code").isIntegralNumber() || !e.path("message").isTextual()) {
                deliverError(id, "it answered an error without a code and a message");
                return;
            }
            ObjectNode clean = McpClients.JSON.createObjectNode();
            clean.put("jsonrpc", "2.0");
            clean.set("id", id);
            ObjectNode ce = clean.putObject("error");
            ce.put("code", e.path("code").asInt());
            ce.put("message", HostText.external(e.path("message").textValue()));
            deliver(clean);
            return;
        }
        JsonNode result = m.get("result");
        if (!result.isObject()) {
            deliverError(id, "it answered " + (result.isNull() ? "a null result" : "a result that is not an object"));
            return;
        }
        if ("tools/list".equals(method)) ((ObjectNode) m).set("result", tools((ObjectNode) result));
        if (Frames.depth(m.get("result")) > MAX_RESULT_DEPTH) {
            deliverError(id, "it answered a result nested deeper than " + MAX_RESULT_DEPTH);
            return;
        }
        deliver(m);
    }

    /** The listing with every tool Finch cannot take left out (and recorded in {@link #skipped}). */
    private JsonNode tools(ObjectNode result) {
        JsonNode tools = result.get("tools");
        // A shallow copy: a tool nested too deep is left out before anything walks it recursively.
        ObjectNode out = McpClients.JSON.createObjectNode();
        result.properties().forEach(e -> out.set(e.getKey(), e.getValue()));
        ArrayNode kept = out.putArray("tools");
        if (tools == null || !tools.isArray()) return out;
        int i = 0;
        for (JsonNode t : tools) {
            String name = t.path("name").isTextual() ? t.path("name").textValue() : "#" + i;
            Optional<String> why = unusable(t);
            if (why.isEmpty()) {
                try {
                    McpClients.JSON.convertValue(t, McpSchema.Tool.class);
                } catch (RuntimeException e) {
                    why = Optional.of("its entry is not an MCP tool Finch can read");
                }
            }
            if (why.isPresent()) {
                skipped.put(HostText.bound(name, 200), why.get());
                stderr.accept("(Finch skipped tool " + HostText.bound(name, 200) + ": " + why.get() + ")");
            } else {
                skipped.remove(name);
                kept.add(t);
            }
            i++;
        }
        return out;
    }

    private static Optional<String> unusable(JsonNode t) {
        if (!t.isObject()) return Optional.of("its entry is not an object");
        if (!t.path("name").isTextual() || t.path("name").textValue().isEmpty()) return Optional.of("it has no name");
        if (t.has("description") && !t.get("description").isTextual() && !t.get("description").isNull()) return Optional.of("its description is not text");
        JsonNode in = t.get("inputSchema");
        if (in == null || !in.isObject()) return Optional.of("its inputSchema is not an object");
        JsonNode out = t.get("outputSchema");
        if (out != null && !out.isNull() && !out.isObject()) return Optional.of("its outputSchema is not an object");
        if (Frames.depth(t) > MAX_SCHEMA_DEPTH) return Optional.of("its schema is nested deeper than " + MAX_SCHEMA_DEPTH);
        return Optional.empty();
    }

    private void failAll(String why) {
        for (String k : Set.copyOf(outstanding.keySet())) {
            if (outstanding.remove(k) == null) continue;
            try {
                deliverError(McpClients.JSON.readTree(k), why);
            } catch (IOException impossible) {
                // A key is the JSON of an id we sent.
            }
        }
    }

    private void deliverError(JsonNode id, String why) {
        ObjectNode o = McpClients.JSON.createObjectNode();
        o.put("jsonrpc", "2.0");
        o.set("id", id);
        ObjectNode e = o.putObject("error");
        e.put("code", -32603);
        e.put("message", marker + why);
        deliver(o);
    }

    private void deliver(JsonNode m) {
        var h = handler;
        if (h == null) return;
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(McpClients.MAPPER, m.toString());
        } catch (IOException | RuntimeException e) {
            JsonNode id = m.get("id");
            if (!m.has("method") && Frames.validId(id)) deliverError(id, "it answered a message Finch cannot read");
            return;
        }
        try {
            h.apply(Mono.just(message)).onErrorResume(e -> Mono.empty()).subscribe();
        } catch (RuntimeException e) {
            // The client's own handling failed: not the server's frame, and never the reader's end.
        }
    }

    @Override public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::stop);
    }

    @Override public void close() { stop(); }

    private void stop() {
        closing = true;
        Process p = process;
        if (p == null) return;
        try {
            OutputStream o = in;
            if (o != null) o.close();
        } catch (IOException ignored) {
            // Already closed.
        }
        try {
            p.waitFor(CLOSE_GRACE_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Whether or not it exited: whatever it started goes too, and one that ignores SIGTERM is killed.
        LocalProcessHost.endContained(p);
    }

    @Override public <T> T unmarshalFrom(Object data, TypeRef<T> type) { return McpClients.MAPPER.convertValue(data, type); }
}
