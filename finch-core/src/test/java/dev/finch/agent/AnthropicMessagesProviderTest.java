package dev.finch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Anthropic Messages adapter against a loopback server speaking the Messages wire format: a child's first turn is a
 * {@code tool_use} of {@code submit_program}, the program runs in the child's session, its outcome goes back as a
 * {@code tool_result} naming the {@code tool_use_id}, and the second reply's text is the final message.
 */
class AnthropicMessagesProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private Finch finch;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<String> headers = new CopyOnWriteArrayList<>();

    @AfterEach void stop() {
        if (server != null) server.stop(0);
        if (finch != null) finch.close();
    }

    private URI serve(Function<JsonNode, String[]> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/messages", (HttpExchange x) -> {
            JsonNode body = JSON.readTree(x.getRequestBody().readAllBytes());
            requests.add(body);
            headers.add(x.getRequestMethod() + " " + x.getRequestHeaders().getFirst("x-api-key") + " "
                    + x.getRequestHeaders().getFirst("anthropic-version") + " " + x.getRequestHeaders().getFirst("content-type"));
            String[] r = reply.apply(body);
            byte[] out = r[1].getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("content-type", "application/json");
            x.sendResponseHeaders(Integer.parseInt(r[0]), out.length);
            x.getResponseBody().write(out);
            x.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private Session session(URI base) {
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("anthropic", "claude-test-1", AnthropicMessagesProvider.of(base, "sk-test")))).build();
        return finch.newSession(new SessionOptions(java.util.Optional.empty(), List.of("agent.spawn(max_depth=1,max_children=1)")));
    }

    @Test void aChildUsesSubmitProgramThroughToolUseAndAnswersItsFinalMessage() throws Exception {
        URI base = serve(body -> {
            JsonNode messages = body.get("messages");
            if (messages.size() == 1) {
                return new String[] {"200", """
                        {"id":"msg_1","type":"message","role":"assistant","model":"claude-test-1",
                         "content":[{"type":"text","text":"Let me compute."},
                                    {"type":"tool_use","id":"toolu_01","name":"submit_program","input":{"source":"(say (int-to-string (* 6 7)))","language":"lisp"}}],
                         "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}"""};
            }
            JsonNode result = messages.get(2).get("content").get(0);
            String said = "";
            try {
                said = JSON.readTree(result.get("content").asText()).get("output").asText();
            } catch (IOException e) {
                said = "?";
            }
            return new String[] {"200", "{\"id\":\"msg_2\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-1\","
                    + "\"content\":[{\"type\":\"text\",\"text\":\"The answer is " + said + ".\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
                    + "\"usage\":{\"input_tokens\":20,\"output_tokens\":6}}"};
        });
        Session s = session(base);
        Outcome o = s.awaitTasks(s.submit(Submission.of("\"multiply\" agent-spawn agent-await dup \"final-message\" record-get unwrap swap "
                + "dup \"turns\" record-get unwrap swap \"provider-model\" record-get unwrap", "p.fth")));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).extracting(Object::toString).containsExactly("\"The answer is 42.\"", "2", "\"anthropic/claude-test-1\"");

        assertThat(headers).containsOnly("POST sk-test 2023-06-01 application/json");
        JsonNode first = requests.get(0);
        assertThat(first.get("model").asText()).isEqualTo("claude-test-1");
        assertThat(first.get("max_tokens").asInt()).isEqualTo(4096);
        assertThat(first.get("system").asText()).contains("child agent").contains("submit_program");
        List<String> tools = new java.util.ArrayList<>();
        first.get("tools").forEach(t -> tools.add(t.get("name").asText()));
        assertThat(tools).as("submit_program and the read-only discovery tools, nothing else")
                .containsExactlyInAnyOrder("get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program");
        first.get("tools").forEach(t -> assertThat(t.get("input_schema").get("type").asText()).isEqualTo("object"));
        assertThat(first.get("messages").get(0).get("content").get(0).get("text").asText()).startsWith("Task: multiply");

        JsonNode second = requests.get(1).get("messages");
        assertThat(second).hasSize(3);
        JsonNode assistant = second.get(1);
        assertThat(assistant.get("role").asText()).isEqualTo("assistant");
        assertThat(assistant.get("content").get(1).get("type").asText()).isEqualTo("tool_use");
        assertThat(assistant.get("content").get(1).get("input").get("source").asText()).isEqualTo("(say (int-to-string (* 6 7)))");
        JsonNode toolResult = second.get(2).get("content").get(0);
        assertThat(second.get(2).get("role").asText()).isEqualTo("user");
        assertThat(toolResult.get("type").asText()).isEqualTo("tool_result");
        assertThat(toolResult.get("tool_use_id").asText()).isEqualTo("toolu_01");
        assertThat(JSON.readTree(toolResult.get("content").asText()).get("status").asText()).isEqualTo("completed");
    }

    @Test void anErrorReplyFailsTheChildWithAStructuredDiagnostic() throws Exception {
        URI base = serve(body -> new String[] {"529", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"});
        Session s = session(base);
        Outcome o = s.awaitTasks(s.submit(Submission.of("\"x\" agent-spawn agent-await dup \"status\" record-get unwrap swap "
                + "\"diagnostics\" record-get unwrap 0 list-get unwrap dup \"code\" record-get unwrap swap \"message\" record-get unwrap", "p.fth")));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.values()).extracting(Object::toString).startsWith("\"failed\"", "\"E-AGENT-010\"");
        assertThat(o.values().get(2).toString()).contains("HTTP 529 overloaded_error: Overloaded");
    }
}
