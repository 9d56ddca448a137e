package dev.finch.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.agent.AgentOptions;
import dev.finch.agent.AgentProfile;
import dev.finch.agent.AgentProvider;
import dev.finch.agent.Retrying;
import dev.finch.agent.UsageMeter;
import dev.finch.tools.ToolSurface;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Anthropic Messages adapter ({@link AgentProviders#anthropic}) against a loopback server speaking the Messages wire
 * format: a text answer with its usage and response id, a {@code tool_use} of {@code submit_program} carrying a
 * program (and, through a child agent, its {@code tool_result}), a provider error, and 429/529 answered by retries —
 * each asserted by the attempts the server saw, never by time.
 */
class AnthropicAgentProviderTest {
    /** Retries without waiting long: the tests count attempts, not time. */
    static final Retrying.Policy QUICK = new Retrying.Policy(3, Duration.ofMillis(1), Duration.ofMillis(2));

    private Loopback server;
    private Finch finch;

    @BeforeEach void start() throws IOException { server = new Loopback("/v1/messages"); }

    @AfterEach void stop() {
        server.close();
        if (finch != null) finch.close();
    }

    private AgentProvider provider() { return AgentProviders.anthropic(server.base(), "sk-test", QUICK); }

    private static AgentProvider.Conversation ask(String text) {
        return new AgentProvider.Conversation("claude-test-1", "", "You compute.", List.of(new AgentProvider.UserText(text)), List.of(), 256);
    }

    static String message(String id, String content, String stop, int in, int out) {
        return "{\"id\":\"" + id + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-1\",\"content\":" + content
                + ",\"stop_reason\":\"" + stop + "\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + in + ",\"output_tokens\":" + out + "}}";
    }

    static final String TOOL_USE = message("msg_1", "[{\"type\":\"text\",\"text\":\"Let me compute.\"},{\"type\":\"tool_use\",\"id\":\"toolu_01\","
            + "\"name\":\"submit_program\",\"input\":{\"language\":\"lisp\",\"source\":\"(say (int-to-string (* 6 7)))\"}}]", "tool_use", 10, 5);

    @Test void aTextAnswerIsAFinalTurnWithItsUsageAndResponseId() throws Exception {
        server.reply(200, message("msg_text", "[{\"type\":\"text\",\"text\":\"(+ 1 2)\"}]", "end_turn", 12, 4));
        AgentProvider.Turn t = provider().next(ask("add"));
        assertThat(t.text()).isEqualTo("(+ 1 2)");
        assertThat(t.calls()).isEmpty();
        assertThat(t.stopReason()).isEqualTo("end_turn");
        assertThat(t.usage()).isEqualTo(new AgentProvider.Usage(12, 4));
        assertThat(t.responseId()).isEqualTo("msg_text");
        assertThat(server.lines).containsExactly("POST /v1/messages x-api-key=sk-test authorization=null anthropic-version=2023-06-01");
        JsonNode body = server.requests.get(0);
        assertThat(body.get("model").asText()).isEqualTo("claude-test-1");
        assertThat(body.get("max_tokens").asInt()).isEqualTo(256);
        assertThat(body.toString()).contains("You compute.");
        assertThat(body.get("messages").get(0).get("role").asText()).isEqualTo("user");
    }

    @Test void aToolUseOfSubmitProgramCarriesTheProgram() throws Exception {
        server.reply(200, TOOL_USE);
        finch = Finch.builder().build();
        var tools = ToolSurface.of(finch.newSession()).tools();
        AgentProvider.Conversation c = new AgentProvider.Conversation("claude-test-1", "", "sys", List.of(new AgentProvider.UserText("multiply")), tools, 64);
        AgentProvider.Turn t = provider().next(c);
        assertThat(t.text()).isEqualTo("Let me compute.");
        assertThat(t.stopReason()).isEqualTo("tool_use");
        assertThat(t.calls()).hasSize(1);
        AgentProvider.ToolCall call = t.calls().get(0);
        assertThat(call.id()).isEqualTo("toolu_01");
        assertThat(call.name()).isEqualTo("submit_program");
        JsonNode args = Loopback.JSON.readTree(call.argumentsJson());
        assertThat(args.get("language").asText()).isEqualTo("lisp");
        assertThat(args.get("source").asText()).isEqualTo("(say (int-to-string (* 6 7)))");
        List<String> declared = new java.util.ArrayList<>();
        server.requests.get(0).get("tools").forEach(d -> {
            declared.add(d.get("name").asText());
            assertThat(d.get("input_schema").get("type").asText()).isEqualTo("object");
        });
        assertThat(declared).contains("submit_program", "search_word", "inspect_word", "get_language_definition", "get_vm_state");
        JsonNode submit = null;
        for (JsonNode d : server.requests.get(0).get("tools")) if (d.get("name").asText().equals("submit_program")) submit = d;
        assertThat(submit.get("input_schema").get("properties").get("language").get("enum")).isNotNull();
        assertThat(submit.get("input_schema").get("required").toString()).contains("source");
    }

    private Session childSession(UsageMeter meter) {
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("anthropic", "claude-test-1", provider())).withMeter(meter)).build();
        return finch.newSession(SessionOptions.builder().grants(List.of("agent.spawn(max_depth=1,max_children=1)")).build());
    }

    @Test void aChildAgentRunsTheProgramItsToolUseCarriesAndItsTokensAreCharged() throws Exception {
        server.reply(200, TOOL_USE).answer(body -> {
            JsonNode result = body.get("messages").get(2).get("content").get(0);
            String said;
            try {
                said = Loopback.JSON.readTree(result.get("content").asText()).get("output").asText();
            } catch (IOException e) {
                said = "?";
            }
            return new Loopback.Reply(200, message("msg_2", "[{\"type\":\"text\",\"text\":\"The answer is " + said + ".\"}]", "end_turn", 20, 6));
        });
        List<String> charged = new CopyOnWriteArrayList<>();
        Session s = childSession((profile, model, usage) -> {
            charged.add(profile + "/" + model + " " + usage.inputTokens() + "+" + usage.outputTokens());
            return Optional.empty();
        });
        Outcome o = s.awaitTasks(s.submit(Submission.of("\"multiply\" agent-spawn agent-await dup \"final-message\" record-get unwrap swap "
                + "\"turns\" record-get unwrap", "p.fth")));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).extracting(Object::toString).containsExactly("\"The answer is 42.\"", "2");
        assertThat(charged).containsExactly("anthropic/claude-test-1 10+5", "anthropic/claude-test-1 20+6");
        JsonNode second = server.requests.get(1).get("messages");
        assertThat(second.get(1).get("content").get(1).get("type").asText()).isEqualTo("tool_use");
        JsonNode toolResult = second.get(2).get("content").get(0);
        assertThat(toolResult.get("type").asText()).isEqualTo("tool_result");
        assertThat(toolResult.get("tool_use_id").asText()).isEqualTo("toolu_01");
        assertThat(Loopback.JSON.readTree(toolResult.get("content").asText()).get("status").asText()).isEqualTo("completed");
    }

    @Test void aChildWhoseTokensTheBudgetRefusesStopsWithEAgent013() throws Exception {
        server.reply(200, TOOL_USE);
        Session s = childSession((profile, model, usage) -> Optional.of("15 tokens is past the run's budget"));
        Outcome o = s.awaitTasks(s.submit(Submission.of("\"x\" agent-spawn agent-await dup \"status\" record-get unwrap swap "
                + "\"diagnostics\" record-get unwrap 0 list-get unwrap dup \"code\" record-get unwrap swap \"message\" record-get unwrap", "p.fth")));
        assertThat(o.values()).extracting(Object::toString).startsWith("\"failed\"", "\"E-AGENT-013\"");
        assertThat(o.values().get(2).toString()).contains("15 tokens is past the run's budget");
        assertThat(server.attempts()).as("no turn after the refused one").isEqualTo(1);
    }

    @Test void aProviderErrorIsAFailureInFinchsWordsAndIsNotRetried() {
        server.reply(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: too large\"}}");
        assertThatThrownBy(() -> provider().next(ask("x"))).isInstanceOfSatisfying(AgentProvider.Failure.class, f -> {
            assertThat(f.getMessage()).isEqualTo("HTTP 400 invalid_request_error: max_tokens: too large");
            assertThat(f.overloaded()).isFalse();
        });
        assertThat(server.attempts()).isEqualTo(1);
    }

    @Test void a429IsAskedAgainAndTheSecondAttemptAnswers() throws Exception {
        server.reply(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}")
                .reply(200, message("msg_ok", "[{\"type\":\"text\",\"text\":\"ok\"}]", "end_turn", 3, 1));
        assertThat(provider().next(ask("x")).text()).isEqualTo("ok");
        assertThat(server.attempts()).isEqualTo(2);
    }

    @Test void an529OverloadedOnEveryAttemptGivesUpAfterThePolicysAttempts() {
        for (int i = 0; i < 5; i++) server.reply(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
        assertThatThrownBy(() -> provider().next(ask("x"))).isInstanceOfSatisfying(AgentProvider.Failure.class, f -> {
            assertThat(f.getMessage()).isEqualTo("HTTP 529 overloaded_error: Overloaded (after 3 attempts)");
            assertThat(f.overloaded()).isTrue();
        });
        assertThat(server.attempts()).isEqualTo(3);
    }

    @Test void noRetryWaitsPastTheConversationsDeadline() {
        server.reply(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}");
        AgentProvider patient = AgentProviders.anthropic(server.base(), "sk-test", new Retrying.Policy(5, Duration.ofHours(1), Duration.ofHours(1)));
        assertThatThrownBy(() -> patient.next(ask("x").withDeadline(Instant.now().plusSeconds(60))))
                .isInstanceOfSatisfying(AgentProvider.Failure.class, f -> assertThat(f.getMessage())
                        .isEqualTo("HTTP 429 rate_limit_error: slow down (after 1 attempt, and the next would pass the deadline)"));
        assertThat(server.attempts()).isEqualTo(1);
    }
}
