package dev.finch.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A loopback HTTP server (the JDK's) standing in for a provider: it answers each POST to {@code path} with the next
 * canned reply (or a function of the request body), and keeps every request it saw — the attempts a test counts.
 */
public final class Loopback implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();

    /** One reply: the HTTP status and the JSON body. */
    public record Reply(int status, String body) { }

    private final HttpServer server;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private volatile Function<JsonNode, Reply> answer;
    /** Every request body, in order. */
    public final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    /** Every request's method, path and the headers a test checks. */
    public final List<String> lines = new CopyOnWriteArrayList<>();

    public Loopback(String path) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(path, this::handle);
        server.start();
    }

    /** The server's base URL ({@code http://127.0.0.1:PORT}). */
    public String base() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    /** Queues replies, answered in order. */
    public Loopback reply(int status, String body) {
        synchronized (replies) { replies.add(new Reply(status, body)); }
        return this;
    }

    /** Answers every request (once the queue is empty) by {@code f} of its body. */
    public Loopback answer(Function<JsonNode, Reply> f) { answer = f; return this; }

    /** How many requests (attempts) the server saw. */
    public int attempts() { return requests.size(); }

    private void handle(HttpExchange x) throws IOException {
        JsonNode body = JSON.readTree(x.getRequestBody().readAllBytes());
        requests.add(body);
        lines.add(x.getRequestMethod() + " " + x.getRequestURI().getPath() + " x-api-key=" + x.getRequestHeaders().getFirst("x-api-key")
                + " authorization=" + x.getRequestHeaders().getFirst("authorization") + " anthropic-version=" + x.getRequestHeaders().getFirst("anthropic-version"));
        Reply r;
        synchronized (replies) { r = replies.poll(); }
        if (r == null) r = answer == null ? new Reply(500, "{\"error\":{\"type\":\"test\",\"message\":\"no reply queued\"}}") : answer.apply(body);
        byte[] out = r.body().getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("content-type", "application/json");
        x.sendResponseHeaders(r.status(), out.length);
        x.getResponseBody().write(out);
        x.close();
    }

    @Override public void close() { server.stop(0); }
}
