package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 item 7: {@code finch run FILE.nm --provider anthropic} sends a µNorman program's asks to the Messages API —
 * here a loopback server (127.0.0.1, an ephemeral port) speaking its wire format — with the key from
 * {@code ANTHROPIC_API_KEY}, at the prices the command line states.
 */
class ProviderCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir Path dir;
    private HttpServer server;
    private final List<JsonNode> bodies = Collections.synchronizedList(new ArrayList<>());
    private final List<String> keys = Collections.synchronizedList(new ArrayList<>());
    private final Deque<String> replies = new ArrayDeque<>();

    @BeforeEach void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach void stop() { server.stop(0); }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            bodies.add(JSON.readTree(ex.getRequestBody().readAllBytes()));
            keys.add(ex.getRequestHeaders().getFirst("x-api-key"));
            String reply;
            synchronized (replies) { reply = replies.poll(); }
            int status = reply == null ? 500 : 200;
            byte[] out = (reply == null ? "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"nothing queued\"}}" : reply)
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, out.length);
            try (OutputStream os = ex.getResponseBody()) { os.write(out); }
        }
    }

    private static String message(String text, long outputTokens) throws IOException {
        return "{\"id\":\"msg_test\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-1\",\"content\":[{\"type\":\"text\",\"text\":"
                + JSON.writeValueAsString(text) + "}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":9,\"output_tokens\":" + outputTokens + "}}";
    }

    private record Ran(int status, String out, String err) { }

    private Ran finch(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.execute(args, new ByteArrayInputStream(new byte[0]), out, err, env);
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path program() throws IOException {
        Path p = dir.resolve("sum.nm");
        Files.writeString(p, """
                (grant claude (model [id "claude-test-1"] [ceiling 100]))
                (record Answer (value Num))
                (define main () (show (. (ask claude Answer (list (Message [role User] [content "2+2?"])) 'math) value)))
                (main)
                """);
        return p;
    }

    private String url() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    @Test void anAskGoesToTheProviderWithTheKeyFromTheEnvironment() throws IOException {
        synchronized (replies) { replies.add(message("{\"value\":4}", 6)); }
        Ran r = finch(Map.of("ANTHROPIC_API_KEY", "sk-test-cli"), "run", "--provider", "anthropic", "--provider-url", url(),
                "--model", "claude-test-1=3,15,4096", "--grant", "model.ask(claude)", "--json", program().toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        assertThat(JSON.readTree(r.out()).get("stack").get(0).get("display").asText()).isEqualTo("\"4\"");
        assertThat(keys).containsExactly("sk-test-cli");
        assertThat(bodies.get(0).get("model").asText()).isEqualTo("claude-test-1");
        assertThat(bodies.get(0).get("max_tokens").asLong()).isBetween(1L, 100L);
    }

    /** Issue 20: the same --provider anthropic serves child agents, through the Messages API at the same base URL. */
    @Test void aChildAgentGoesToTheSameProviderThroughTheMessagesApi() throws IOException {
        synchronized (replies) { replies.add(message("the child's answer", 4)); }
        Path p = Files.writeString(dir.resolve("parent.fth"), "\"answer\" agent-spawn agent-await dup \"final-message\" record-get unwrap say \"provider-model\" record-get unwrap");
        Ran r = finch(Map.of("ANTHROPIC_API_KEY", "sk-test-cli", "ANTHROPIC_BASE_URL", url()), "run", "--provider", "anthropic",
                "--model", "claude-test-1=3,15,4096", "--grant", "agent.spawn(max_depth=1,max_children=1)", "--json", p.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        JsonNode o = JSON.readTree(r.out());
        assertThat(o.get("output").asText()).isEqualTo("the child's answer");
        assertThat(o.get("stack").get(0).get("display").asText()).isEqualTo("\"anthropic/claude-test-1\"");
        assertThat(keys).containsExactly("sk-test-cli");
        assertThat(bodies.get(0).get("model").asText()).isEqualTo("claude-test-1");
        assertThat(bodies.get(0).get("tools").size()).isEqualTo(5);
    }

    @Test void theBaseUrlMayComeFromTheEnvironmentAndABudgetTooSmallSendsNothing() throws IOException {
        Ran r = finch(Map.of("ANTHROPIC_API_KEY", "sk-test-cli", "ANTHROPIC_BASE_URL", url()), "run", "--provider", "anthropic",
                "--model", "claude-test-1=3000,15000,4096", "--budget", "0.000001", "--grant", "model.ask(claude)", program().toString());
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("OverBudget");
        assertThat(bodies).as("an ask the budget cannot cover is never sent").isEmpty();
    }

    @Test void misuseIsAUsageError() throws IOException {
        String file = program().toString();
        Ran noKey = finch(Map.of(), "run", "--provider", "anthropic", "--model", "m=1,2,3", file);
        assertThat(noKey.status()).isEqualTo(2);
        assertThat(noKey.err()).contains("ANTHROPIC_API_KEY");
        Ran unknown = finch(Map.of("ANTHROPIC_API_KEY", "k"), "run", "--provider", "acme", "--model", "m=1,2,3", file);
        assertThat(unknown.err()).contains("unknown provider 'acme'");
        Ran noModel = finch(Map.of("ANTHROPIC_API_KEY", "k"), "run", "--provider", "anthropic", file);
        assertThat(noModel.err()).contains("at least one --model");
        Ran badTerms = finch(Map.of("ANTHROPIC_API_KEY", "k"), "run", "--provider", "anthropic", "--model", "m=cheap", file);
        assertThat(badTerms.err()).contains("is not ID=IN,OUT,MAX");
        Ran negative = finch(Map.of("ANTHROPIC_API_KEY", "k"), "run", "--provider", "anthropic", "--model", "m=-1,2,3", file);
        assertThat(negative.status()).isEqualTo(2);
        Ran orphan = finch(Map.of(), "run", "--model", "m=1,2,3", file);
        assertThat(orphan.err()).contains("need --provider");
        Ran withScript = finch(Map.of("ANTHROPIC_API_KEY", "k"), "run", "--provider", "anthropic", "--model", "m=1,2,3", "--script", "s", file);
        assertThat(withScript.err()).contains("does not combine with --provider");
        assertThat(bodies).isEmpty();
    }
}
