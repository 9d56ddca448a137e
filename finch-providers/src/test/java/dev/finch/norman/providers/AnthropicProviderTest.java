package dev.finch.norman.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.finch.norman.Askable;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelProvider.Message;
import dev.finch.norman.harness.ModelProvider.ProviderError;
import dev.finch.norman.harness.ModelProvider.Reply;
import dev.finch.norman.harness.ModelProvider.Request;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.vm.RunResult;
import dev.finch.vm.value.Money;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Anthropic adapter against a loopback server (127.0.0.1, an ephemeral port) that speaks the Messages API's wire
 * format: each request is recorded and asserted, each reply is canned. The server answers only what is queued (an
 * empty queue is a 500), and the SDK's retries are off unless a test turns them on, so every exchange is bounded.
 */
class AnthropicProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-not-a-real-key";

    /** One recorded request. */
    private record Seen(String method, String path, Map<String, String> headers, String body) {
        JsonNode json() throws IOException { return JSON.readTree(body); }
    }

    /** One canned reply. */
    private record Canned(int status, String body, Map<String, String> headers) { }

    private HttpServer server;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final Deque<Canned> replies = new ArrayDeque<>();
    private final List<AnthropicProvider> providers = new ArrayList<>();

    @BeforeEach void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach void stop() {
        providers.forEach(AnthropicProvider::close);
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] in = ex.getRequestBody().readAllBytes();
            Map<String, String> headers = new LinkedHashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
            seen.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().getPath(), headers, new String(in, StandardCharsets.UTF_8)));
            Canned c;
            synchronized (replies) { c = replies.poll(); }
            if (c == null) c = error(500, "api_error", "nothing queued");
            byte[] out = c.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            c.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
            ex.sendResponseHeaders(c.status(), out.length);
            try (OutputStream os = ex.getResponseBody()) { os.write(out); }
        }
    }

    private void queue(Canned... cs) { synchronized (replies) { replies.addAll(List.of(cs)); } }

    private static Canned ok(String text, long outputTokens, String stopReason) {
        String body = "{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"model\":\"claude-test-1\",\"content\":[{\"type\":\"text\",\"text\":" + quote(text) + "}],"
                + "\"stop_reason\":\"" + stopReason + "\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":57,\"output_tokens\":" + outputTokens
                + ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}}";
        return new Canned(200, body, Map.of("request-id", "req_test_1"));
    }

    private static Canned error(int status, String type, String message) {
        return new Canned(status, "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":" + quote(message) + "}}",
                Map.of("request-id", "req_test_err"));
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String baseUrl() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    private AnthropicProvider provider(int retries) {
        AnthropicProvider p = AnthropicProvider.builder().baseUrl(baseUrl()).apiKey(KEY)
                .timeout(Duration.ofSeconds(10)).maxRetries(retries).defaultModel("claude-default-9").build();
        providers.add(p);
        return p;
    }

    private static final Askable VERDICT = new Askable.Datatype("Verdict", orderedConstructors());

    private static Map<String, Map<String, Askable>> orderedConstructors() {
        Map<String, Map<String, Askable>> m = new LinkedHashMap<>();
        m.put("Buy", Map.of("reason", new Askable.Text(OptionalLong.of(200))));
        m.put("Sell", Map.of("reason", new Askable.Text(OptionalLong.of(200))));
        m.put("Hold", Map.of());
        return m;
    }

    private static Request request(String grant, String modelId, List<Message> messages) {
        return new Request(grant, modelId, "analyst", messages, VERDICT, 123);
    }

    private static final List<Message> CONTEXT = List.of(
            new Message("System", "You are an analyst."),
            new Message("User", "Read this filing: cash grew."),
            new Message("Assistant", "Which quarter?"),
            new Message("Tool", "{\"quarter\":\"Q3\"}"),
            new Message("System", "Be brief."),
            new Message("User", "Decide."));

    // ---- the request on the wire and a normal reply ------------------------------------------------------------

    @Test void aNormalReplyCarriesTextUsageAndStopReasonAndTheRequestIsTheMessagesApis() throws IOException {
        queue(ok("{\"tag\":\"Buy\",\"reason\":\"Cash grew.\"}", 12, "end_turn"));
        ModelProvider.Response r = provider(0).complete(request("claude", "claude-test-1", CONTEXT));

        assertThat(r).isInstanceOf(Reply.class);
        Reply reply = (Reply) r;
        assertThat(reply.text()).isEqualTo("{\"tag\":\"Buy\",\"reason\":\"Cash grew.\"}");
        assertThat(reply.outputTokens()).isEqualTo(12);
        assertThat(reply.finishReason()).isEqualTo("end_turn");
        assertThat(reply.latencyMillis()).isNotNegative();

        assertThat(seen).hasSize(1);
        Seen s = seen.get(0);
        assertThat(s.method()).isEqualTo("POST");
        assertThat(s.path()).isEqualTo("/v1/messages");
        // The SDK 3.14.0 sends a static API key as "Authorization: Bearer <key>" (it adds no x-api-key header unless
        // the request already has one) and pins its own API version (2026-10-21 for 3.14.0): asserted as sent.
        assertThat(s.headers()).containsEntry("authorization", "Bearer " + KEY).doesNotContainKey("x-api-key");
        assertThat(s.headers().get("anthropic-version")).matches("\\d{4}-\\d{2}-\\d{2}");
        assertThat(s.headers().get("content-type")).startsWith("application/json");
        JsonNode body = s.json();
        assertThat(body.get("model").asText()).isEqualTo("claude-test-1");
        assertThat(body.get("max_tokens").asLong()).isEqualTo(123);
        String system = body.get("system").asText();
        assertThat(system).startsWith("You are an analyst.\n\nBe brief.\n\nAnswer with a single JSON value");
        assertThat(system).endsWith(AskableSchema.of(VERDICT));
        JsonNode messages = body.get("messages");
        assertThat(messages).hasSize(4);
        assertThat(roleAndText(messages.get(0))).containsExactly("user", "Read this filing: cash grew.");
        assertThat(roleAndText(messages.get(1))).containsExactly("assistant", "Which quarter?");
        assertThat(roleAndText(messages.get(2))).containsExactly("user", "Tool output:\n{\"quarter\":\"Q3\"}");
        assertThat(roleAndText(messages.get(3))).containsExactly("user", "Decide.");
    }

    /** A message param's role and text, whether its content is a string or a list of text blocks. */
    private static List<String> roleAndText(JsonNode m) {
        JsonNode c = m.get("content");
        String text = c.isTextual() ? c.asText() : c.get(0).get("text").asText();
        return List.of(m.get("role").asText(), text);
    }

    @Test void theDefaultModelIsAskedWhenTheGrantDeclaresNoId() throws IOException {
        queue(ok("\"hi\"", 2, "end_turn"), ok("\"hi\"", 2, "max_tokens"));
        AnthropicProvider p = provider(0);
        // the harness passes the grant's name as its model id when the grant has no [id "…"]
        Reply a = (Reply) p.complete(new Request("claude", "claude", "chat", List.of(new Message("User", "hi")), Askable.text(), 0));
        Reply b = (Reply) p.complete(new Request("claude", "claude-test-1", "chat", List.of(new Message("User", "hi")), Askable.text(), 7));
        assertThat(seen.get(0).json().get("model").asText()).isEqualTo("claude-default-9");
        assertThat(seen.get(0).json().get("max_tokens").asLong()).isEqualTo(1);
        assertThat(seen.get(1).json().get("model").asText()).isEqualTo("claude-test-1");
        assertThat(b.finishReason()).isEqualTo("max_tokens");
        assertThat(a.text()).isEqualTo("\"hi\"");
    }

    // ---- failures are ProviderErrors, never exceptions ---------------------------------------------------------

    @Test void overloaded529IsAProviderError() {
        queue(error(529, "overloaded_error", "Overloaded"));
        ModelProvider.Response r = provider(0).complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(r).isInstanceOf(ProviderError.class);
        assertThat(((ProviderError) r).message()).contains("529").contains("overloaded_error").contains("Overloaded");
        assertThat(seen).hasSize(1);
    }

    @Test void rateLimit429IsAProviderError() {
        queue(error(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"));
        ModelProvider.Response r = provider(0).complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(((ProviderError) r).message()).startsWith("HTTP 429").contains("rate limit");
    }

    @Test void badRequest400IsAProviderErrorWithTheApisMessage() {
        queue(error(400, "invalid_request_error", "max_tokens: 100000 > 64000, which is the maximum allowed"));
        ModelProvider.Response r = provider(0).complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(r).isInstanceOf(ProviderError.class);
        assertThat(((ProviderError) r).message()).isEqualTo(
                "HTTP 400 invalid_request_error: max_tokens: 100000 > 64000, which is the maximum allowed");
        assertThat(seen).hasSize(1);
    }

    @Test void aMalformedBodyIsAProviderError() {
        queue(new Canned(200, "{\"id\":\"msg_1\",\"type\":\"message\",\"content\":[{\"type\":\"text\",", Map.of()),
                new Canned(200, "{\"unexpected\":true}", Map.of()));
        AnthropicProvider p = provider(0);
        ModelProvider.Response truncated = p.complete(request("claude", "claude-test-1", CONTEXT));
        ModelProvider.Response wrongShape = p.complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(truncated).isInstanceOf(ProviderError.class);
        assertThat(((ProviderError) truncated).message()).startsWith("malformed response").hasSizeLessThanOrEqualTo(AnthropicProvider.MAX_MESSAGE);
        assertThat(wrongShape).isInstanceOf(ProviderError.class);
        assertThat(((ProviderError) wrongShape).message()).startsWith("malformed response: `content` is not set").hasSizeLessThanOrEqualTo(AnthropicProvider.MAX_MESSAGE);
        assertThat(seen).hasSize(2);
    }

    @Test void anUnreachableServerIsANetworkProviderError() throws IOException {
        int port;
        try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = closed.getLocalPort();
        }
        AnthropicProvider p = AnthropicProvider.builder().baseUrl("http://127.0.0.1:" + port).apiKey(KEY)
                .timeout(Duration.ofSeconds(5)).maxRetries(0).build();
        providers.add(p);
        ModelProvider.Response r = p.complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(r).isInstanceOf(ProviderError.class);
        assertThat(((ProviderError) r).message()).startsWith("network error").containsIgnoringCase("refused");
    }

    @Test void theSdkRetriesAnOverloadWhenAllowed() {
        queue(new Canned(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
                        Map.of("retry-after-ms", "10")),
                ok("{\"tag\":\"Hold\"}", 5, "end_turn"));
        ModelProvider.Response r = provider(1).complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(r).isInstanceOf(Reply.class);
        assertThat(((Reply) r).text()).isEqualTo("{\"tag\":\"Hold\"}");
        assertThat(seen).hasSize(2);
    }

    @Test void aContextWithoutTurnsIsRefusedBeforeAnythingIsSent() {
        ModelProvider.Response r = provider(0).complete(request("claude", "claude-test-1", List.of(new Message("System", "only rules"))));
        assertThat(((ProviderError) r).message()).contains("no User");
        assertThat(seen).isEmpty();
    }

    @Test void anApiKeyIsRequired() {
        assertThatThrownBy(() -> AnthropicProvider.builder().baseUrl(baseUrl()).build()).isInstanceOf(IllegalStateException.class);
    }

    // ---- the schema stated to the model ------------------------------------------------------------------------

    @Test void theSchemaOfAnAskableIsCompactJsonSchema() {
        assertThat(AskableSchema.of(VERDICT)).isEqualTo("{\"oneOf\":["
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Buy\"},\"reason\":{\"type\":\"string\",\"maxLength\":200}},"
                + "\"required\":[\"tag\",\"reason\"],\"additionalProperties\":false},"
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Sell\"},\"reason\":{\"type\":\"string\",\"maxLength\":200}},"
                + "\"required\":[\"tag\",\"reason\"],\"additionalProperties\":false},"
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Hold\"}},\"required\":[\"tag\"],\"additionalProperties\":false}]}");
        Askable rec = new Askable.Record("Answer", Map.of("value", new Askable.Num(), "ok", new Askable.Bool(),
                "tags", new Askable.ListOf(new Askable.Sym(), OptionalLong.of(3))));
        assertThat(AskableSchema.of(rec)).isEqualTo("{\"type\":\"object\",\"properties\":{"
                + "\"ok\":{\"type\":\"boolean\"},\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"minLength\":1},\"maxItems\":3},"
                + "\"value\":{\"type\":\"number\"}},\"required\":[\"ok\",\"tags\",\"value\"],\"additionalProperties\":false}");
        assertThat(AskableSchema.of(Askable.listOf(Askable.text()))).isEqualTo("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
    }

    // ---- wired into a µNorman run: the world charges the host's prices for the provider's usage ----------------

    /** Runs {@code file}'s top level over {@code world}, with {@code model.ask(claude)} granted. */
    private static RunResult run(String file, ScriptedModels world) { return dev.finch.norman.harness.WorldRuns.run(file, "claude", world); }

    @Test void aMuNormanAskRunsThroughTheProviderAndIsChargedAtTheHostsPrices() throws IOException {
        String file = """
                (grant claude (model [id "claude-test-1"] [in 2] [out 8] [ceiling 100]))
                (record Answer (value Num))
                (define ask-n () (ask claude Answer (list (Message [role User] [content "2+2?"])) 'math))
                (. (ask-n) value)
                """;
        queue(ok("{\"value\":4}", 6, "end_turn"));
        ScriptedModels world = ModelWorld.over(provider(0))
                .model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("2"), new BigDecimal("8"), 4096)).unlimitedBudget().build().get();
        RunResult r = run(file, world);
        assertThat(r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(4.0);
        // "2+2?" is 4 bytes: 1 token + 4 for the message = 5 input tokens at $2 a million (2 µ$ each), 6 output tokens at 8 µ$
        assertThat(world.spent()).isEqualTo(5 * 2 + 6 * 8);
        JsonNode body = seen.get(0).json();
        assertThat(body.get("model").asText()).isEqualTo("claude-test-1");
        // the reservation: a {"value":Num} answer is at most 35 bytes, 9 tokens (under the ceiling of 100)
        assertThat(body.get("max_tokens").asLong()).isEqualTo(9);
        assertThat(body.get("system").asText()).contains("{\"type\":\"object\",\"properties\":{\"value\":{\"type\":\"number\"}}");
    }

    // ---- issue 14: a program cannot set its own prices ---------------------------------------------------------

    /** Fifty asks of unbounded text, each failure caught and counted: the value is how many of the 50 failed. */
    private static String fiftyAsks(String terms) {
        return "(grant claude (model [id \"claude-test-1\"] " + terms + "))\n" + """
                (define chat () (ask claude Text (list (Message [role User] [content "hi"])) 'chat))
                (define go (n) (if (= n 0) 0 (+ (catch (begin (chat) 0) e 1) (go (- n 1)))))
                (go 50)
                """;
    }

    /** The host serves claude-test-1 at $3 and $15 a million tokens, at most 4096 output tokens; each run has 10 µ$. */
    private ScriptedModels tenMicroDollars() {
        return ModelWorld.over(provider(0)).model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096))
                .budget(Money.ofMicros(10)).build().get();
    }

    @Test void aGrantOfZeroPricesNeverReachesTheProviderAndCostsTheHostNothing() {
        // The attack of issue 14: [in 0] [out 0] made 50 of 50 asks reach the provider with max_tokens 4096, charged $0.
        ScriptedModels world = tenMicroDollars();
        RunResult r = run(fiftyAsks("[in 0] [out 0]"), world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-NORMAN-402");
        assertThat(seen).as("no request reached the server").isEmpty();
        assertThat(world.spent()).isZero();
    }

    @Test void withoutPricesTheHostsApplyAndTheBudgetKeepsEveryAskUnsent() {
        // 4096 output tokens at $15 a million is $0.06144, far past 10 µ$: every ask is OverBudget, none is sent.
        ScriptedModels world = tenMicroDollars();
        RunResult r = run(fiftyAsks(""), world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(50.0);
        assertThat(seen).isEmpty();
        assertThat(world.spent()).isZero();
    }

    @Test void maxTokensSentIsTheCeilingTheGrantNarrowedAndTheHostsPricesAreCharged() throws IOException {
        queue(ok("\"hi\"", 2, "end_turn"), ok("\"hi\"", 2, "end_turn"));
        ScriptedModels world = ModelWorld.over(provider(0))
                .model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096)).budget(new BigDecimal("0.10"))
                .build().get();
        String ask = "\n(ask claude Text (list (Message [role User] [content \"hi\"])) 'chat)";
        assertThat(run("(grant claude (model [id \"claude-test-1\"] [in 3] [out 20] [ceiling 50]))" + ask, world)).isInstanceOf(RunResult.Completed.class);
        assertThat(run("(grant claude (model [id \"claude-test-1\"] [ceiling 1000000]))" + ask, world)).isInstanceOf(RunResult.Completed.class);
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).json().get("max_tokens").asLong()).as("narrowed by the grant").isEqualTo(50);
        assertThat(seen.get(1).json().get("max_tokens").asLong()).as("a grant cannot widen the host's ceiling").isEqualTo(4096);
        // each: "hi" is 1 token + 4 = 5 input tokens at 3 µ$, 2 output tokens at 15 µ$ (the host's, not the grant's 20)
        assertThat(world.spent()).isEqualTo(2 * (5 * 3 + 2 * 15));
    }
}
