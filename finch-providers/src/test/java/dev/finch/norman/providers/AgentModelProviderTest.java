package dev.finch.norman.providers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.agent.Retrying;
import dev.finch.norman.Askable;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelProvider.Message;
import dev.finch.norman.harness.ModelProvider.ProviderError;
import dev.finch.norman.harness.ModelProvider.Reply;
import dev.finch.norman.harness.ModelProvider.Request;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.providers.AgentProviders;
import dev.finch.providers.Loopback;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.value.Money;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * µNorman's {@code ask} on the provider layer: {@link AgentModelProvider} over the Anthropic Messages adapter
 * ({@link AgentProviders#anthropic}), against a loopback server speaking the Messages wire format — the request on the
 * wire, the reply, retries of an overload, errors, and asks in a run charged at the host's prices (a program cannot set
 * its own: issue 14).
 */
class AgentModelProviderTest {
    private Loopback server;

    @BeforeEach void start() throws IOException { server = new Loopback("/v1/messages"); }

    @AfterEach void stop() { server.close(); }

    private ModelProvider provider() {
        return AgentModelProvider.of(AgentProviders.anthropic(server.base(), "sk-test", new Retrying.Policy(3, Duration.ofMillis(1), Duration.ofMillis(2))),
                "claude-default-9");
    }

    private static String ok(String text, long outputTokens, String stopReason) throws IOException {
        return "{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-1\",\"content\":[{\"type\":\"text\",\"text\":"
                + Loopback.JSON.writeValueAsString(text) + "}],\"stop_reason\":\"" + stopReason + "\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":57,\"output_tokens\":" + outputTokens + "}}";
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

    @Test void aReplyCarriesTextUsageAndStopReasonAndTheRequestIsTheMessagesApis() throws IOException {
        server.reply(200, ok("{\"tag\":\"Hold\"}", 7, "end_turn"));
        ModelProvider.Response r = provider().complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(r).isInstanceOf(Reply.class);
        Reply reply = (Reply) r;
        assertThat(reply.text()).isEqualTo("{\"tag\":\"Hold\"}");
        assertThat(reply.outputTokens()).isEqualTo(7);
        assertThat(reply.finishReason()).isEqualTo("end_turn");
        JsonNode body = server.requests.get(0);
        assertThat(body.get("model").asText()).isEqualTo("claude-test-1");
        assertThat(body.get("max_tokens").asLong()).isEqualTo(123);
        assertThat(body.toString()).contains("You are an analyst.\\n\\nBe brief.\\n\\nAnswer with a single JSON value");
        JsonNode messages = body.get("messages");
        assertThat(messages).hasSize(4);
        assertThat(messages.get(1).get("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(2).toString()).contains("Tool output:\\n{\\\"quarter\\\":\\\"Q3\\\"}");
    }

    @Test void theDefaultModelIsAskedWhenTheGrantDeclaresNoId() throws IOException {
        server.reply(200, ok("{\"tag\":\"Hold\"}", 3, "end_turn"));
        assertThat(provider().complete(request("claude", "claude", CONTEXT))).isInstanceOf(Reply.class);
        assertThat(server.requests.get(0).get("model").asText()).isEqualTo("claude-default-9");
    }

    @Test void anOverloadIsAskedAgainAndThenAProviderErrorWithTheApisMessage() throws IOException {
        server.reply(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .reply(200, ok("{\"tag\":\"Hold\"}", 3, "end_turn"));
        assertThat(provider().complete(request("claude", "claude-test-1", CONTEXT))).isInstanceOf(Reply.class);
        assertThat(server.attempts()).isEqualTo(2);
        server.reply(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too large\"}}");
        ModelProvider.Response bad = provider().complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(((ProviderError) bad).message()).isEqualTo("HTTP 400 invalid_request_error: max_tokens: too large");
        assertThat(server.attempts()).isEqualTo(3);
    }

    @Test void aMalformedBodyAndAnUnreachableServerAreProviderErrors() throws IOException {
        server.reply(200, "{\"nothing\":true}");
        assertThat(provider().complete(request("claude", "claude-test-1", CONTEXT))).isInstanceOf(ProviderError.class);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) { port = s.getLocalPort(); }
        ModelProvider nowhere = AgentModelProvider.of(AgentProviders.anthropic("http://127.0.0.1:" + port, "k", Retrying.Policy.NONE));
        ModelProvider.Response r = nowhere.complete(request("claude", "claude-test-1", CONTEXT));
        assertThat(((ProviderError) r).message()).startsWith("the request failed").doesNotContain("Exception");
    }

    @Test void aContextWithoutTurnsIsRefusedBeforeAnythingIsSent() {
        ModelProvider.Response r = provider().complete(request("claude", "claude-test-1", List.of(new Message("System", "only rules"))));
        assertThat(((ProviderError) r).message()).contains("no User");
        assertThat(server.attempts()).isZero();
    }

    @Test void theSchemaOfAnAskableIsCompactJsonSchema() {
        assertThat(AskableSchema.of(VERDICT)).isEqualTo("{\"oneOf\":["
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Buy\"},\"reason\":{\"type\":\"string\",\"maxLength\":200}},"
                + "\"required\":[\"tag\",\"reason\"],\"additionalProperties\":false},"
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Sell\"},\"reason\":{\"type\":\"string\",\"maxLength\":200}},"
                + "\"required\":[\"tag\",\"reason\"],\"additionalProperties\":false},"
                + "{\"type\":\"object\",\"properties\":{\"tag\":{\"const\":\"Hold\"}},\"required\":[\"tag\"],\"additionalProperties\":false}]}");
        assertThat(AskableSchema.of(Askable.listOf(Askable.text()))).isEqualTo("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
    }

    private static RunResult run(String file, ScriptedModels world) { return dev.finch.norman.harness.WorldRuns.run(file, "claude", world); }

    @Test void aMuNormanAskRunsThroughTheProviderAndIsChargedAtTheHostsPrices() throws IOException {
        String file = """
                (grant claude (model [id "claude-test-1"] [in 2] [out 8] [ceiling 100]))
                (record Answer (value Num))
                (define ask-n () (ask claude Answer (list (Message [role User] [content "2+2?"])) 'math))
                (. (ask-n) value)
                """;
        server.reply(200, ok("{\"value\":4}", 6, "end_turn"));
        ScriptedModels world = ModelWorld.over(provider())
                .model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("2"), new BigDecimal("8"), 4096)).unlimitedBudget().build().get();
        RunResult r = run(file, world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(4.0);
        // "2+2?" is 4 bytes: 1 token + 4 for the message = 5 input tokens at $2 a million (2 µ$ each), 6 output tokens at 8 µ$
        assertThat(world.spent()).isEqualTo(5 * 2 + 6 * 8);
        assertThat(server.requests.get(0).get("max_tokens").asLong()).isEqualTo(9);
    }

    /** Fifty asks of unbounded text, each failure caught and counted: the value is how many of the 50 failed. */
    private static String fiftyAsks(String terms) {
        return "(grant claude (model [id \"claude-test-1\"] " + terms + "))\n" + """
                (define chat () (ask claude Text (list (Message [role User] [content "hi"])) 'chat))
                (define go (n) (if (= n 0) 0 (+ (catch (begin (chat) 0) e 1) (go (- n 1)))))
                (go 50)
                """;
    }

    private ScriptedModels tenMicroDollars() {
        return ModelWorld.over(provider()).model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096))
                .budget(Money.ofMicros(10)).build().get();
    }

    @Test void aGrantOfZeroPricesNeverReachesTheProviderAndCostsTheHostNothing() {
        ScriptedModels world = tenMicroDollars();
        RunResult r = run(fiftyAsks("[in 0] [out 0]"), world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-NORMAN-402");
        assertThat(server.attempts()).as("no request reached the server").isZero();
        assertThat(world.spent()).isZero();
    }

    @Test void withoutPricesTheHostsApplyAndTheBudgetKeepsEveryAskUnsent() {
        ScriptedModels world = tenMicroDollars();
        RunResult r = run(fiftyAsks(""), world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(50.0);
        assertThat(server.attempts()).isZero();
        assertThat(world.spent()).isZero();
    }

    @Test void maxTokensSentIsTheCeilingTheGrantNarrowedAndTheHostsPricesAreCharged() throws IOException {
        server.reply(200, ok("\"hi\"", 2, "end_turn")).reply(200, ok("\"hi\"", 2, "end_turn"));
        ScriptedModels world = ModelWorld.over(provider())
                .model("claude-test-1", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 4096)).budget(new BigDecimal("0.10"))
                .build().get();
        String ask = "\n(ask claude Text (list (Message [role User] [content \"hi\"])) 'chat)";
        assertThat(run("(grant claude (model [id \"claude-test-1\"] [in 3] [out 20] [ceiling 50]))" + ask, world)).isInstanceOf(RunResult.Completed.class);
        assertThat(run("(grant claude (model [id \"claude-test-1\"] [ceiling 1000000]))" + ask, world)).isInstanceOf(RunResult.Completed.class);
        assertThat(server.attempts()).isEqualTo(2);
        assertThat(server.requests.get(0).get("max_tokens").asLong()).as("narrowed by the grant").isEqualTo(50);
        assertThat(server.requests.get(1).get("max_tokens").asLong()).as("a grant cannot widen the host's ceiling").isEqualTo(4096);
        assertThat(world.spent()).isEqualTo(2 * (5 * 3 + 2 * 15));
    }
}
