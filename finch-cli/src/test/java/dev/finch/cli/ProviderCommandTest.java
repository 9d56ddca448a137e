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

    /** Issue 38: a child's tokens are charged at its model's --model prices against --budget; past it the child stops (E-AGENT-013). */
    @Test void aChildWhoseTokensPassTheBudgetStops() throws IOException {
        synchronized (replies) { replies.add(message("the child's answer", 4)); }
        Path p = Files.writeString(dir.resolve("parent.fth"), "\"answer\" agent-spawn agent-await \"diagnostics\" record-get unwrap 0 list-get unwrap \"code\" record-get unwrap");
        // 9 input tokens at $3000 and 4 output tokens at $15000 a million: $0.087, past a budget of $0.05.
        Ran r = finch(Map.of("ANTHROPIC_API_KEY", "sk-test-cli", "ANTHROPIC_BASE_URL", url()), "run", "--provider", "anthropic",
                "--model", "claude-test-1=3000,15000,4096", "--budget", "0.05", "--grant", "agent.spawn(max_depth=1,max_children=1)", "--json", p.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        assertThat(JSON.readTree(r.out()).get("stack").get(0).get("display").asText()).isEqualTo("\"E-AGENT-013\"");
        assertThat(bodies).hasSize(1);
    }

    private static String completion(String text) throws IOException {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-1\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":" + JSON.writeValueAsString(text) + "},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":6,\"total_tokens\":15}}";
    }

    /** Issue 38: --provider openai serves asks and child agents through OpenAI-compatible chat completions (OPENAI_API_KEY). */
    @Test void openAiCompatibleServersServeAsksAndChildren() throws IOException {
        synchronized (replies) { replies.add(completion("{\"value\":4}")); }
        Ran ask = finch(Map.of("OPENAI_API_KEY", "sk-openai"), "run", "--provider", "openai", "--provider-url", url() + "/v1",
                "--model", "claude-test-1=3,15,4096", "--grant", "model.ask(claude)", "--json", program().toString());
        assertThat(ask.status()).as(ask.err() + ask.out()).isZero();
        assertThat(JSON.readTree(ask.out()).get("stack").get(0).get("display").asText()).isEqualTo("\"4\"");
        synchronized (replies) { replies.add(completion("the child's answer")); }
        Path p = Files.writeString(dir.resolve("parent.fth"), "\"answer\" agent-spawn agent-await dup \"final-message\" record-get unwrap say \"provider-model\" record-get unwrap");
        Ran child = finch(Map.of("OPENAI_API_KEY", "sk-openai", "OPENAI_BASE_URL", url() + "/v1"), "run", "--provider", "openai",
                "--model", "gpt-test-1=3,15,4096", "--grant", "agent.spawn(max_depth=1,max_children=1)", "--json", p.toString());
        assertThat(child.status()).as(child.err() + child.out()).isZero();
        assertThat(JSON.readTree(child.out()).get("output").asText()).isEqualTo("the child's answer");
        assertThat(JSON.readTree(child.out()).get("stack").get(0).get("display").asText()).isEqualTo("\"openai/gpt-test-1\"");
        assertThat(bodies.get(1).get("model").asText()).isEqualTo("gpt-test-1");
        assertThat(bodies.get(1).get("tools").size()).isEqualTo(5);
        assertThat(keys).containsOnlyNulls();
        Ran noKey = finch(Map.of(), "run", "--provider", "openai", "--model", "m=1,2,3", program().toString());
        assertThat(noKey.status()).isEqualTo(2);
        assertThat(noKey.err()).contains("OPENAI_API_KEY");
    }

    /** The conversation provider: the network provider, a script, or none; a script that cannot be read is a usage error. */
    @Test void theConversationProviderIsTheSameProviderOrTheScript() throws Exception {
        ProviderOptions none = new ProviderOptions();
        assertThat(none.conversationProvider(Map.of())).isEmpty();
        ProviderOptions anthropic = new ProviderOptions();
        anthropic.provider = "anthropic";
        anthropic.models.add("claude-test-1=3,15,4096");
        assertThat(anthropic.conversationProvider(Map.of("ANTHROPIC_API_KEY", "k"))).get().isInstanceOf(dev.finch.agent.Retrying.class);
        assertThat(anthropic.agents(Map.of("ANTHROPIC_API_KEY", "k")).get().profiles().get("anthropic").provider())
                .as("one provider for conversations, children and asks").isSameAs(anthropic.conversationProvider(Map.of("ANTHROPIC_API_KEY", "k")).get());
        Path script = Files.writeString(dir.resolve("chat.script"), "## role *\n>>> final\nhello\n");
        ProviderOptions scripted = new ProviderOptions();
        scripted.provider = "script:" + script;
        assertThat(scripted.conversationProvider(Map.of())).get().isInstanceOf(dev.finch.agent.ScriptedProvider.class);
        ProviderOptions missing = new ProviderOptions();
        missing.provider = "script:" + dir.resolve("absent.script");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> missing.conversationProvider(Map.of()))
                .isInstanceOf(UsageException.class).hasMessageContaining("cannot read the agent script");
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
