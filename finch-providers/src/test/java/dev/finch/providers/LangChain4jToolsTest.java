package dev.finch.providers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finch's tool surface as LangChain4j tools ({@link LangChain4jTools}): declared to a LangChain4j {@code AiServices}
 * assistant whose chat model talks to a loopback server in OpenAI's wire format, the assistant's own loop runs the
 * model's {@code submit_program} call in the session and sends its outcome back; and executed by hand, as an
 * application's own loop would.
 */
class LangChain4jToolsTest {
    private Loopback server;
    private Finch finch;

    interface Assistant { String chat(String message); }

    @BeforeEach void start() throws IOException {
        server = new Loopback("/v1/chat/completions");
        finch = Finch.builder().build();
    }

    @AfterEach void stop() {
        server.close();
        finch.close();
    }

    @Test void theDeclarationsAreTheSurfacesToolsWithTheirSchemas() {
        LangChain4jTools tools = LangChain4jTools.of(finch.newSession());
        assertThat(tools.specifications()).extracting(ToolSpecification::name)
                .containsExactlyInAnyOrder("get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program");
        ToolSpecification submit = tools.specifications().stream().filter(s -> s.name().equals("submit_program")).findFirst().orElseThrow();
        assertThat(submit.parameters().required()).contains("source");
        assertThat(submit.parameters().properties().get("language")).isInstanceOf(JsonEnumSchema.class);
        assertThat(((JsonEnumSchema) submit.parameters().properties().get("language")).enumValues()).contains("lisp", "forth");
    }

    @Test void anAiServicesAssistantRunsAProgramThroughSubmitProgram() throws Exception {
        server.reply(200, OpenAiAgentProviderTest.completion("chatcmpl-1", "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"submit_program\",\"arguments\":\"{\\\"language\\\":\\\"lisp\\\",\\\"source\\\":"
                + "\\\"(say (int-to-string (* 6 7)))\\\"}\"}}]}", "tool_calls", 20, 10))
                .reply(200, OpenAiAgentProviderTest.completion("chatcmpl-2", "{\"role\":\"assistant\",\"content\":\"It says 42.\"}", "stop", 40, 4));
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(server.base() + "/v1").apiKey("sk-test").modelName("gpt-test-1").maxRetries(0).build();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).tools(LangChain4jTools.of(finch.newSession()).tools()).build();

        assertThat(assistant.chat("What is 6 times 7?")).isEqualTo("It says 42.");
        assertThat(server.attempts()).isEqualTo(2);
        JsonNode declared = server.requests.get(0).get("tools");
        assertThat(declared.toString()).contains("\"submit_program\"");
        JsonNode toolMessage = server.requests.get(1).get("messages").get(2);
        assertThat(toolMessage.get("role").asText()).isEqualTo("tool");
        assertThat(toolMessage.get("tool_call_id").asText()).isEqualTo("call_1");
        JsonNode outcome = Loopback.JSON.readTree(toolMessage.get("content").asText());
        assertThat(outcome.get("status").asText()).isEqualTo("completed");
        assertThat(outcome.get("output").asText()).isEqualTo("42");
    }

    @Test void anApplicationsOwnLoopExecutesRequestsAndGetsSuspensionsAndErrorsAsJson(@TempDir Path workspace) throws Exception {
        Files.writeString(workspace.resolve("x.txt"), "hello");
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(workspace));
        LangChain4jTools tools = LangChain4jTools.of(s);
        var said = tools.resultMessage(ToolExecutionRequest.builder().id("c1").name("submit_program")
                .arguments("{\"language\":\"forth\",\"source\":\"6 7 * int-to-string say\"}").build());
        assertThat(said.id()).isEqualTo("c1");
        assertThat(said.toolName()).isEqualTo("submit_program");
        assertThat(Loopback.JSON.readTree(said.text()).get("status").asText()).as(said.text()).isEqualTo("completed");
        assertThat(Loopback.JSON.readTree(said.text()).get("output").asText()).isEqualTo("42");

        String needsGrant = tools.execute(ToolExecutionRequest.builder().id("c2").name("submit_program")
                .arguments("{\"language\":\"lisp\",\"source\":\"(file-read (path \\\"x.txt\\\"))\"}").build());
        JsonNode pending = Loopback.JSON.readTree(needsGrant);
        assertThat(pending.get("status").asText()).as(needsGrant).isEqualTo("suspended");
        assertThat(pending.get("pending_request").get("awaiting").asText()).as(needsGrant).isEqualTo("approval");
        assertThat(pending.get("source_id").asText()).isEqualTo("langchain4j:c2");
        assertThat(s.approve(pending.get("execution_id").asText(), dev.finch.capabilities.Scope.ONCE).status()).isEqualTo(dev.finch.Outcome.Status.COMPLETED);

        String unknown = tools.execute(ToolExecutionRequest.builder().id("c3").name("format_disk").arguments("{}").build());
        assertThat(Loopback.JSON.readTree(unknown).get("error").get("code").asText()).startsWith("E-TOOL-");
        assertThat(unknown).doesNotContain("Exception");
    }
}
