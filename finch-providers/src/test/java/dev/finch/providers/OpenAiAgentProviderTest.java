package dev.finch.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import dev.finch.agent.AgentProvider;
import dev.finch.tools.ToolSurface;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible chat-completions adapter ({@link AgentProviders#openAi}; also Ollama, vLLM, …) against a loopback
 * server speaking that wire format: a text answer with usage and id, a {@code tool_calls} entry of
 * {@code submit_program} carrying a program and its answer sent back as a {@code tool} message, a provider error, and
 * 429 then success — each asserted by the attempts the server saw.
 */
class OpenAiAgentProviderTest {
    private Loopback server;

    @BeforeEach void start() throws IOException { server = new Loopback("/v1/chat/completions"); }

    @AfterEach void stop() { server.close(); }

    private AgentProvider provider() { return AgentProviders.openAi(server.base() + "/v1", "sk-test", AnthropicAgentProviderTest.QUICK); }

    static String completion(String id, String message, String finish, int in, int out) {
        return "{\"id\":\"" + id + "\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-test-1\",\"choices\":[{\"index\":0,\"message\":"
                + message + ",\"finish_reason\":\"" + finish + "\"}],\"usage\":{\"prompt_tokens\":" + in + ",\"completion_tokens\":" + out
                + ",\"total_tokens\":" + (in + out) + "}}";
    }

    private static AgentProvider.Conversation ask(List<AgentProvider.Message> messages, List<dev.finch.tools.ToolSpec> tools) {
        return new AgentProvider.Conversation("gpt-test-1", "", "You compute.", messages, tools, 128);
    }

    @Test void aTextAnswerIsAFinalTurnWithItsUsageAndResponseId() throws Exception {
        server.reply(200, completion("chatcmpl-1", "{\"role\":\"assistant\",\"content\":\"(+ 1 2)\"}", "stop", 9, 3));
        AgentProvider.Turn t = provider().next(ask(List.of(new AgentProvider.UserText("add")), List.of()));
        assertThat(t.text()).isEqualTo("(+ 1 2)");
        assertThat(t.calls()).isEmpty();
        assertThat(t.stopReason()).isEqualTo("end_turn");
        assertThat(t.usage()).isEqualTo(new AgentProvider.Usage(9, 3));
        assertThat(t.responseId()).isEqualTo("chatcmpl-1");
        assertThat(server.lines).containsExactly("POST /v1/chat/completions x-api-key=null authorization=Bearer sk-test anthropic-version=null");
        JsonNode body = server.requests.get(0);
        assertThat(body.get("model").asText()).isEqualTo("gpt-test-1");
        assertThat(body.get("messages").get(0).get("role").asText()).isEqualTo("system");
        assertThat(body.get("messages").get(1).get("content").asText()).isEqualTo("add");
    }

    @Test void aToolCallOfSubmitProgramCarriesTheProgramAndItsResultGoesBackAsAToolMessage() throws Exception {
        server.reply(200, completion("chatcmpl-2", "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_7\",\"type\":\"function\","
                + "\"function\":{\"name\":\"submit_program\",\"arguments\":\"{\\\"language\\\":\\\"forth\\\",\\\"source\\\":\\\"6 7 * .\\\"}\"}}]}", "tool_calls", 30, 12))
                .reply(200, completion("chatcmpl-3", "{\"role\":\"assistant\",\"content\":\"42\"}", "stop", 50, 1));
        List<dev.finch.tools.ToolSpec> tools;
        try (Finch finch = Finch.builder().build()) {
            tools = ToolSurface.of(finch.newSession()).tools();
        }
        AgentProvider p = provider();
        List<AgentProvider.Message> messages = new java.util.ArrayList<>(List.of(new AgentProvider.UserText("multiply")));
        AgentProvider.Turn t = p.next(ask(messages, tools));
        assertThat(t.stopReason()).isEqualTo("tool_use");
        assertThat(t.text()).isEmpty();
        assertThat(t.calls()).hasSize(1);
        assertThat(t.calls().get(0).id()).isEqualTo("call_7");
        assertThat(t.calls().get(0).name()).isEqualTo("submit_program");
        JsonNode args = Loopback.JSON.readTree(t.calls().get(0).argumentsJson());
        assertThat(args.get("language").asText()).isEqualTo("forth");
        assertThat(args.get("source").asText()).isEqualTo("6 7 * .");
        JsonNode declared = server.requests.get(0).get("tools");
        assertThat(declared.toString()).contains("\"submit_program\"").contains("\"function\"");

        messages.add(new AgentProvider.AssistantTurn(t));
        messages.add(new AgentProvider.ToolResults(List.of(new AgentProvider.ToolResult("call_7", "{\"status\":\"completed\",\"output\":\"42 \"}"))));
        assertThat(p.next(ask(messages, tools)).text()).isEqualTo("42");
        JsonNode sent = server.requests.get(1).get("messages");
        assertThat(sent.get(2).get("role").asText()).isEqualTo("assistant");
        assertThat(sent.get(2).get("tool_calls").get(0).get("id").asText()).isEqualTo("call_7");
        assertThat(sent.get(3).get("role").asText()).isEqualTo("tool");
        assertThat(sent.get(3).get("tool_call_id").asText()).isEqualTo("call_7");
        assertThat(sent.get(3).get("content").asText()).contains("\"completed\"");
    }

    @Test void aProviderErrorIsAFailureInFinchsWordsAndIsNotRetried() {
        server.reply(401, "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
        assertThatThrownBy(() -> provider().next(ask(List.of(new AgentProvider.UserText("x")), List.of())))
                .isInstanceOfSatisfying(AgentProvider.Failure.class, f -> {
                    assertThat(f.getMessage()).isEqualTo("HTTP 401 invalid_request_error: Incorrect API key provided");
                    assertThat(f.overloaded()).isFalse();
                });
        assertThat(server.attempts()).isEqualTo(1);
    }

    @Test void a429IsAskedAgainAndTheSecondAttemptAnswers() throws Exception {
        server.reply(429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}")
                .reply(200, completion("chatcmpl-4", "{\"role\":\"assistant\",\"content\":\"ok\"}", "stop", 2, 1));
        assertThat(provider().next(ask(List.of(new AgentProvider.UserText("x")), List.of())).text()).isEqualTo("ok");
        assertThat(server.attempts()).isEqualTo(2);
    }

    @Test void aServerThatSaysItIsOverloadedIsAskedAgain() throws Exception {
        server.reply(503, "{\"error\":{\"message\":\"server is overloaded, try again\",\"type\":\"server_error\"}}")
                .reply(200, completion("chatcmpl-5", "{\"role\":\"assistant\",\"content\":\"ok\"}", "stop", 2, 1));
        assertThat(provider().next(ask(List.of(new AgentProvider.UserText("x")), List.of())).text()).isEqualTo("ok");
        assertThat(server.attempts()).isEqualTo(2);
    }
}
