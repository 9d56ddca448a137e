package dev.finch.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The server end of MCP over stdio, in place of the SDK's {@code StdioServerTransportProvider} (whose reader thread
 * died on the first frame it could not parse, and which never noticed its input closing): one reader thread takes
 * lines through {@link Frames}, so
 * <ul>
 *   <li>a line that is not one JSON value (binary junk, truncated JSON, nesting past {@link Frames#MAX_DEPTH}) is
 *       answered with a JSON-RPC parse error ({@code -32700}, id null) and the next line is read;</li>
 *   <li>a value that is not a JSON-RPC 2.0 message (an object or an array as {@code id}, no {@code method}, no
 *       {@code jsonrpc}) is answered with invalid request ({@code -32600}, with its id when the id is usable);</li>
 *   <li>a line longer than {@link Frames#MAX_FRAME_BYTES} is skipped without being kept, and answered as an invalid
 *       request;</li>
 *   <li>a request the host answers itself ({@code intercept}: an unknown tool's {@code tools/call}) gets that answer;</li>
 *   <li>when the input ends the session closes and {@link #ended()} is released, so the process can exit.</li>
 * </ul>
 * Replies are written whole, one line each, under one lock.
 */
final class StdioServerFrames implements McpServerTransportProvider {
    private final InputStream in;
    private final OutputStream out;
    private final Function<JsonNode, Optional<Object>> intercept;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Object writing = new Object();
    private volatile McpServerSession session;
    private volatile boolean closed;

    /**
     * @param intercept for a request (method and params), the result the host answers itself instead of the SDK, or
     *                  empty to pass it on
     */
    StdioServerFrames(InputStream in, OutputStream out, Function<JsonNode, Optional<Object>> intercept) {
        this.in = in;
        this.out = out;
        this.intercept = intercept;
    }

    /** Released when the input has ended (the client closed it) or the transport was closed. */
    CountDownLatch ended() { return ended; }

    @Override public void setSessionFactory(McpServerSession.Factory factory) {
        session = factory.create(new Transport());
        Thread reader = new Thread(this::read, "finch-mcp-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    @Override public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession s = session;
        return s == null ? Mono.empty() : s.sendNotification(method, params);
    }

    @Override public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            closed = true;
            McpServerSession s = session;
            if (s != null) s.close();
            ended.countDown();
        });
    }

    private void read() {
        Frames.Reader lines = new Frames.Reader(in, Frames.MAX_FRAME_BYTES);
        try {
            while (!closed) {
                Optional<Frames.Line> line = lines.next();
                if (line.isEmpty()) break;
                if (line.get().blank()) continue;
                handle(line.get());
            }
        } catch (IOException | RuntimeException gone) {
            // The input broke: the same as its end.
        } finally {
            closed = true;
            McpServerSession s = session;
            if (s != null) {
                try {
                    s.close();
                } catch (RuntimeException ignored) {
                    // Closing anyway.
                }
            }
            ended.countDown();
        }
    }

    private void handle(Frames.Line line) {
        if (line.oversized()) {
            error(null, -32600, "Invalid Request: the frame is longer than " + Frames.MAX_FRAME_BYTES + " bytes");
            return;
        }
        Optional<JsonNode> parsed = Frames.parse(line);
        if (parsed.isEmpty()) {
            error(null, -32700, "Parse error: the line is not one JSON value (or is nested deeper than " + Frames.MAX_DEPTH
                    + ", or holds a number longer than " + Frames.MAX_NUMBER_CHARS + " digits)");
            return;
        }
        JsonNode m = parsed.get();
        JsonNode id = m.get("id");
        Optional<String> invalid = invalid(m);
        if (invalid.isPresent()) {
            // A usable id of a request that is otherwise invalid is echoed; a notification (no id) gets no answer.
            if (id != null || !m.isObject() || !m.has("method")) error(Frames.validId(id) ? id : null, -32600, "Invalid Request: " + invalid.get());
            return;
        }
        if (m.has("method") && id != null) {
            Optional<Object> answer = intercept.apply(m);
            if (answer.isPresent()) {
                write(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, McpClients.JSON.convertValue(id, Object.class), answer.get(), null));
                return;
            }
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(McpClients.MAPPER, m.toString());
        } catch (IOException | RuntimeException e) {
            error(Frames.validId(id) ? id : null, -32600, "Invalid Request: not a JSON-RPC message Finch can read");
            return;
        }
        McpServerSession s = session;
        if (s != null) s.handle(message).onErrorResume(e -> Mono.empty()).subscribe();
    }

    /** Why {@code m} is not a JSON-RPC 2.0 message, or empty when it is one. */
    private static Optional<String> invalid(JsonNode m) {
        if (!m.isObject()) return Optional.of("a message is a JSON object (batches are not part of MCP)");
        if (!"2.0".equals(m.path("jsonrpc").textValue())) return Optional.of("\"jsonrpc\" must be \"2.0\"");
        JsonNode id = m.get("id");
        if (id != null && !Frames.validId(id)) return Optional.of("an id is a string or an integer");
        if (m.has("method")) {
            if (!m.get("method").isTextual()) return Optional.of("\"method\" is a string");
            JsonNode params = m.get("params");
            if (params != null && !params.isObject() && !params.isNull()) return Optional.of("\"params\" is an object");
            return Optional.empty();
        }
        if (id == null) return Optional.of("a message without a method is a response, and a response has an id");
        if (m.has("result") == m.has("error")) return Optional.of("a response has exactly one of \"result\" and \"error\"");
        return Optional.empty();
    }

    private void error(JsonNode id, int code, String message) {
        ObjectNode o = McpClients.JSON.createObjectNode();
        o.put("jsonrpc", "2.0");
        if (id == null) o.putNull("id");
        else o.set("id", id);
        ObjectNode e = o.putObject("error");
        e.put("code", code);
        e.put("message", message);
        writeLine(o.toString());
    }

    private void write(McpSchema.JSONRPCMessage message) {
        try {
            writeLine(McpClients.MAPPER.writeValueAsString(message));
        } catch (IOException e) {
            // Nothing to write: the message could not be serialized.
        }
    }

    private void writeLine(String json) {
        byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (writing) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException gone) {
                // The client is gone; the reader sees the end of its input.
            }
        }
    }

    /** The one session's transport: writes its messages as lines. */
    private final class Transport implements McpServerTransport {
        @Override public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) { return Mono.fromRunnable(() -> write(message)); }

        @Override public <T> T unmarshalFrom(Object data, TypeRef<T> type) { return McpClients.MAPPER.convertValue(data, type); }

        @Override public Mono<Void> closeGracefully() { return Mono.fromRunnable(() -> { closed = true; ended.countDown(); }); }
    }
}
