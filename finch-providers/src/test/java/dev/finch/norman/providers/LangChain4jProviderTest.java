package dev.finch.norman.providers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.finch.norman.Askable;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelProvider.Message;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.vm.engine.RunResult;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 16 item 7: the LangChain4j adapter over a real LangChain4j chat model (its OpenAI module), against a loopback
 * server (127.0.0.1, an ephemeral port) speaking the OpenAI chat-completions wire format: each request is recorded
 * and asserted, each reply canned; retries are off, so every exchange is bounded.
 */
class LangChain4jProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Canned(int status, String body) { }

    private HttpServer server;
    private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    private final List<String> paths = Collections.synchronizedList(new ArrayList<>());
    private final Deque<Canned> replies = new ArrayDeque<>();

    @BeforeEach void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach void stop() { server.stop(0); }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            seen.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            paths.add(ex.getRequestURI().getPath());
            Canned c;
            synchronized (replies) { c = replies.poll(); }
            if (c == null) c = new Canned(500, "{\"error\":{\"message\":\"nothing queued\",\"type\":\"server_error\"}}");
            byte[] out = c.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(c.status(), out.length);
            try (OutputStream os = ex.getResponseBody()) { os.write(out); }
        }
    }

    private void queue(Canned c) { synchronized (replies) { replies.add(c); } }

    private static Canned completion(String text, long completionTokens, String finish) throws IOException {
        return new Canned(200, "{\"id\":\"chatcmpl-test\",\"object\":\"chat.completion\",\"created\":1767225600,\"model\":\"gpt-test-1\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":" + JSON.writeValueAsString(text) + "},"
                + "\"finish_reason\":\"" + finish + "\"}],"
                + "\"usage\":{\"prompt_tokens\":21,\"completion_tokens\":" + completionTokens + ",\"total_tokens\":" + (21 + completionTokens) + "}}");
    }

    private ModelProvider provider() {
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/v1")
                .apiKey("sk-test-not-a-real-key").modelName("gpt-default-9").maxRetries(0).timeout(Duration.ofSeconds(10)).build();
        return LangChain4jProvider.of(model);
    }

    private static ModelProvider.Request request(String modelId) {
        Askable answer = new Askable.Record("Answer", Map.of("value", new Askable.Num()));
        return new ModelProvider.Request("gpt", modelId, "t.nm:3:5", List.of(new Message("System", "You add."),
                new Message("User", "2+2?"), new Message("Assistant", "{\"value\":3}"), new Message("Tool", "calc: 4")), answer, 9);
    }

    @Test void aReplyCarriesTextUsageAndFinishAndTheRequestIsChatCompletions() throws IOException {
        queue(completion("{\"value\":4}", 6, "stop"));
        ModelProvider.Response r = provider().complete(request("gpt-test-1"));
        assertThat(r).isInstanceOf(ModelProvider.Reply.class);
        ModelProvider.Reply reply = (ModelProvider.Reply) r;
        assertThat(reply.text()).isEqualTo("{\"value\":4}");
        assertThat(reply.outputTokens()).isEqualTo(6);
        assertThat(reply.finishReason()).as("the provider layer's stop reasons").isEqualTo("end_turn");
        assertThat(paths).containsExactly("/v1/chat/completions");
        JsonNode body = JSON.readTree(seen.get(0));
        assertThat(body.get("model").asText()).isEqualTo("gpt-test-1");
        assertThat(body.has("max_tokens") ? body.get("max_tokens").asInt() : body.get("max_completion_tokens").asInt()).isEqualTo(9);
        JsonNode messages = body.get("messages");
        assertThat(messages).hasSize(4);
        assertThat(messages.get(0).get("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).get("content").asText()).startsWith("You add.\n\nAnswer with a single JSON value")
                .contains("{\"type\":\"object\",\"properties\":{\"value\":{\"type\":\"number\"}}");
        assertThat(messages.get(1).get("role").asText()).isEqualTo("user");
        assertThat(messages.get(2).get("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(3).get("content").asText()).isEqualTo("Tool output:\ncalc: 4");
    }

    @Test void theAdaptersDefaultModelIsAskedWhenTheGrantNamesNone() throws IOException {
        queue(completion("{\"value\":1}", 3, "stop"));
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/v1")
                .apiKey("k").modelName("unused").maxRetries(0).build();
        assertThat(LangChain4jProvider.of(model, "gpt-fallback").complete(request("gpt"))).isInstanceOf(ModelProvider.Reply.class);
        assertThat(JSON.readTree(seen.get(0)).get("model").asText()).isEqualTo("gpt-fallback");
    }

    @Test void aContentFilterFinishIsARefusal() throws IOException {
        queue(completion("", 0, "content_filter"));
        ModelProvider.Response r = provider().complete(request("gpt-test-1"));
        assertThat(r).isInstanceOf(ModelProvider.Refusal.class);
        assertThat(((ModelProvider.Refusal) r).category()).isEqualTo("content_filter");
    }

    @Test void anHttpErrorIsAShortProviderError() {
        queue(new Canned(429, "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}"));
        ModelProvider.Response r = provider().complete(request("gpt-test-1"));
        assertThat(r).isInstanceOf(ModelProvider.ProviderError.class);
        assertThat(((ModelProvider.ProviderError) r).message()).contains("Rate limit reached").hasSizeLessThanOrEqualTo(ProviderText.MAX_MESSAGE);
    }

    @Test void anUnreachableServerIsAProviderError() {
        int port = server.getAddress().getPort();
        server.stop(0);
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + port + "/v1").apiKey("k").modelName("m").maxRetries(0)
                .timeout(Duration.ofSeconds(5)).build();
        assertThat(LangChain4jProvider.of(model).complete(request("gpt-test-1"))).isInstanceOf(ModelProvider.ProviderError.class);
    }

    @Test void aContextWithoutTurnsIsRefusedBeforeAnythingIsSent() {
        ModelProvider.Request r = new ModelProvider.Request("gpt", "gpt-test-1", "s", List.of(new Message("System", "x")),
                Askable.text(), 5);
        assertThat(provider().complete(r)).isInstanceOf(ModelProvider.ProviderError.class);
        assertThat(seen).isEmpty();
    }

    @Test void aMuNormanAskRunsThroughLangChain4jAndIsChargedAtTheHostsPrices() throws IOException {
        String file = """
                (grant gpt (model [id "gpt-test-1"] [in 2] [out 8] [ceiling 100]))
                (record Answer (value Num))
                (define ask-n () (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math))
                (. (ask-n) value)
                """;
        queue(completion("{\"value\":4}", 6, "stop"));
        ScriptedModels world = ModelWorld.over(provider())
                .model("gpt-test-1", HostModel.perMillionTokens(new BigDecimal("2"), new BigDecimal("8"), 4096)).unlimitedBudget().build().get();
        RunResult r = dev.finch.norman.harness.WorldRuns.run(file, "gpt", world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(4.0);
        // The host's prices: 5 input tokens at 2 µ$ and the 6 output tokens the server reported at 8 µ$.
        assertThat(world.spent()).isEqualTo(5 * 2 + 6 * 8);
        assertThat(JSON.readTree(seen.get(0)).get("model").asText()).isEqualTo("gpt-test-1");
    }
}
