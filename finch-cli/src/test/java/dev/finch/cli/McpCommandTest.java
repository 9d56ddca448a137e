package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code finch mcp} driven by a real MCP client — the official SDK's, over stdio, with {@code finch mcp} a subprocess
 * ({@code java -cp <this class path> dev.finch.cli.Main mcp …}): it lists Finch's tools and runs programs through
 * {@code submit_program}; a program that needs a grant suspends, and {@code approve} continues it. Also
 * {@code finch run --mcp-config}.
 */
class McpCommandTest {
    @TempDir Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the last {@code finch mcp} started here wrote to its standard error (the host's notices). */
    private final List<String> notices = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    private McpSyncClient finchMcp(Path workspace, String... extra) { return finchMcp(workspace, null, extra); }

    /**
     * {@code finch mcp} with a client that, when {@code person} is given, supports MCP elicitation: each question the
     * server asks goes to {@code person}, which answers as the person at the client would.
     */
    private McpSyncClient finchMcp(Path workspace, java.util.function.Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult> person,
                                   String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), "dev.finch.cli.Main", "mcp", "--workspace", workspace.toString()));
        args.addAll(List.of(extra));
        var params = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString()).args(args).build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON));
        transport.setStdErrorHandler(notices::add);
        var spec = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofSeconds(30));
        if (person != null) spec = spec.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build()).elicitation(person);
        McpSyncClient client = spec.build();
        client.initialize();
        return client;
    }

    private static JsonNode call(McpSyncClient client, String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.content()).hasSize(1);
        return JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text());
    }

    @Test
    void anMcpClientListsFinchsToolsRunsAProgramAndApprovesOne() throws Exception {
        Path ws = Files.createDirectories(tmp.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "hello");
        McpSyncClient client = finchMcp(ws, "--approval-tools");
        try {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactly(
                    "get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program", "approve", "deny", "resume");
            JsonNode done = call(client, "submit_program", Map.of("source", "(say \"hi\") (+ 1 2)"));
            assertThat(done.get("status").asText()).isEqualTo("completed");
            assertThat(done.get("output").asText()).isEqualTo("hi");
            assertThat(done.get("stack").get(0).get("display").asText()).isEqualTo("3");
            assertThat(call(client, "get_vm_state", Map.of()).get("vm_revision").asLong()).isEqualTo(1);

            JsonNode paused = call(client, "submit_program", Map.of("source",
                    "(match-result (bytes-to-string (file-read (path \"a.txt\"))) (ok s (say s)) (err e (say e)))", "language", "lisp"));
            assertThat(paused.get("status").asText()).as("%s", paused).isEqualTo("suspended");
            assertThat(paused.get("required_capabilities").get(0).asText()).isEqualTo("fs.read(${workspace}/a.txt)");
            // The model cannot approve by itself: the first approve writes a one-time code to the person's log.
            String id = paused.get("execution_id").asText();
            JsonNode asked = call(client, "approve", Map.of("execution_id", id));
            assertThat(asked.get("error").get("code").asText()).isEqualTo("E-TOOL-003");
            assertThat(asked.get("error").get("message").asText()).contains("approval code");
            JsonNode guessed = call(client, "approve", Map.of("execution_id", id, "approval_code", "000-000"));
            assertThat(guessed.get("error").get("message").asText()).contains("not the one");
            // Two codes were written: the first, spent by the wrong guess, and a fresh one.
            List<String> codes = new java.util.ArrayList<>();
            for (int i = 0; i < 1_000 && codes.size() < 2; i++) {
                codes.clear();
                synchronized (notices) {
                    for (String n : notices) {
                        var m = java.util.regex.Pattern.compile("approval code (\\d{3}-\\d{3}) approves fs.read").matcher(n);
                        while (m.find()) codes.add(m.group(1));
                    }
                }
                if (codes.size() < 2) Thread.sleep(10);
            }
            assertThat(codes).as("%s", notices).hasSize(2);
            String code = codes.get(1);
            JsonNode approved = call(client, "approve", Map.of("execution_id", id, "approval_code", code));
            assertThat(approved.get("status").asText()).as("%s", approved).isEqualTo("completed");
            assertThat(approved.get("output").asText()).isEqualTo("hello");

            McpSchema.CallToolResult unknown = client.callTool(new McpSchema.CallToolRequest("approve", Map.of("execution_id", 7)));
            assertThat(unknown.isError()).isTrue();
        } finally {
            client.closeGracefully();
        }
    }

    /**
     * Issue 35 item 7: with a client that supports MCP elicitation, {@code approve} asks the person through the client —
     * showing the operation and its arguments — and only the person's answer approves: the model's call alone does
     * nothing (declined: the run still waits, nothing was read), accepted: the run goes on. No code is written.
     */
    @Test
    void approveAsksThePersonThroughMcpElicitation() throws Exception {
        Path ws = Files.createDirectories(tmp.resolve("we"));
        Files.writeString(ws.resolve("a.txt"), "hello");
        List<String> asked = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicBoolean approves = new java.util.concurrent.atomic.AtomicBoolean(false);
        McpSyncClient client = finchMcp(ws, request -> {
            asked.add(request.message());
            return approves.get()
                    ? new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("approve", true))
                    : new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null);
        }, "--approval-tools");
        try {
            String read = "(match-result (bytes-to-string (file-read (path \"a.txt\"))) (ok s (say s)) (err e (say e)))";
            JsonNode paused = call(client, "submit_program", Map.of("source", read, "language", "lisp"));
            assertThat(paused.get("status").asText()).as("%s", paused).isEqualTo("suspended");
            String id = paused.get("execution_id").asText();

            // The person declines: the model's approve changes nothing.
            JsonNode declined = call(client, "approve", Map.of("execution_id", id));
            assertThat(declined.get("error").get("code").asText()).as("%s", declined).isEqualTo("E-TOOL-003");
            assertThat(declined.get("error").get("message").asText()).contains("the person did not approve");
            assertThat(asked).hasSize(1);
            assertThat(asked.get(0)).contains("file-read (path \"a.txt\")").contains("fs.read(${workspace}/a.txt)").contains(id);

            // The person accepts: the run goes on and reads.
            approves.set(true);
            JsonNode approved = call(client, "approve", Map.of("execution_id", id));
            assertThat(approved.get("status").asText()).as("%s", approved).isEqualTo("completed");
            assertThat(approved.get("output").asText()).isEqualTo("hello");
            assertThat(asked).hasSize(2);

            // A write shows its first bytes to the person, and the person's no is final for that request.
            approves.set(false);
            JsonNode write = call(client, "submit_program", Map.of("source", "(file-write (path \"b.txt\") (string-to-bytes \"rm -rf /\"))", "language", "lisp"));
            String writeId = write.get("execution_id").asText();
            JsonNode no = call(client, "approve", Map.of("execution_id", writeId, "scope", "session"));
            assertThat(no.get("error").get("message").asText()).contains("the person did not approve");
            assertThat(asked.get(2)).contains("file-write (path \"b.txt\") <8 bytes: \"rm -rf /\">").contains("for the rest of this session");
            assertThat(ws.resolve("b.txt")).doesNotExist();
            synchronized (notices) {
                assertThat(notices).as("no one-time code is needed where the client can ask").noneMatch(n -> n.contains("approval code"));
            }
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void withoutApprovalToolsASuspendedProgramWaits() throws Exception {
        McpSyncClient client = finchMcp(Files.createDirectories(tmp.resolve("w2")));
        try {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                    .containsExactly("get_vm_state", "get_language_definition", "search_word", "inspect_word", "submit_program");
            JsonNode paused = call(client, "submit_program", Map.of("source", "\"/bin/true\" empty-list<string> process-run"));
            assertThat(paused.get("status").asText()).isEqualTo("suspended");
            assertThat(paused.get("required_capabilities").get(0).asText()).isEqualTo("process.run(/bin/true)");
        } finally {
            client.closeGracefully();
        }
    }

    /** An MCP configuration naming {@code finch mcp} itself (this class path) as the server {@code finch}. */
    private Path finchAsAServer() throws Exception {
        Path config = tmp.resolve("finch-mcp.json");
        var server = JSON.createObjectNode();
        server.put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        var args = server.putArray("args");
        for (String a : List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.finch.cli.Main", "mcp")) args.add(a);
        var root = JSON.createObjectNode();
        root.putObject("mcpServers").set("finch", server);
        Files.writeString(config, root.toString());
        return config;
    }

    @Test
    void finchInTheMiddleAProgramCallsAnotherFinchThroughItsTypedToolWord() throws Exception {
        Path config = finchAsAServer();
        var inspect = ConformanceTest.invoke(List.of("inspect", "--mcp-config", config.toString(), "mcp.finch.submit_program"), "");
        assertThat(inspect.exit()).as(inspect.err()).isEqualTo(0);
        assertThat(inspect.out()).contains("record{expected_manifest_generation:option<int>,expected_vm_revision:option<int>,language:option<string>,source:string}"
                + " -> result<json,string> ! {mcp.call(finch,submit_program)}").contains("Run one Lisp, Co-Forth or µNorman program");
        Path program = tmp.resolve("middle.lisp");
        Files.writeString(program, "(json-as-string (unwrap (json-get (result-unwrap (mcp.finch.submit_program "
                + "{ :source \"(say \\\"inner\\\")\" :language (none) :expected_vm_revision (none) :expected_manifest_generation (none) })) \"output\")))");
        var run = ConformanceTest.invoke(List.of("run", "--json", "--mcp-config", config.toString(), "--grant", "mcp.call(finch,submit_program)", program.toString()), "");
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(0);
        assertThat(run.outcomes().get(0).get("stack").get(0).get("display").asText()).isEqualTo("(some \"inner\")");
        assertThat(run.outcomes().get(0).get("manifest_generation").asLong()).isEqualTo(2);
    }

    @Test
    void theReplTakesAnMcpConfigToo() throws Exception {
        Path config = finchAsAServer();
        String line = "(json-as-string (unwrap (json-get (result-unwrap (mcp.finch.submit_program "
                + "{ :source \"(say \\\"inner\\\")\" :language (none) :expected_vm_revision (none) :expected_manifest_generation (none) })) \"output\")))\n";
        var repl = ConformanceTest.invoke(List.of("repl", "--no-history", "--mcp-config", config.toString(), "--grant", "mcp.call(finch,submit_program)"), line);
        assertThat(repl.exit()).as(repl.out() + repl.err()).isEqualTo(0);
        assertThat(repl.out()).contains("(some \"inner\")");
    }

    @Test
    void runTakesAnMcpConfigAndAMalformedOneIsAUsageError() throws Exception {
        Path config = tmp.resolve("mcp.json");
        Files.writeString(config, "{\"mcpServers\":{\"gone\":{\"command\":\"" + tmp.resolve("no-such-server") + "\"}}}");
        Path program = tmp.resolve("p.fth");
        Files.writeString(program, "\"gone\" \"x\" {\"a\": 1} mcp-call");
        var run = ConformanceTest.invoke(List.of("run", "--json", "--mcp-config", config.toString(), "--grant", "mcp.call(gone,*)", program.toString()), "");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.outcomes().get(0).get("diagnostics").get(0).get("code").asText()).isEqualTo("E-HOST-025");
        Files.writeString(config, "{\"mcpServers\":{\"gone\":{\"comand\":\"x\"}}}");
        var bad = ConformanceTest.invoke(List.of("run", "--mcp-config", config.toString(), program.toString()), "");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown field \"comand\"");
        var badGrant = ConformanceTest.invoke(List.of("mcp", "--grant", "mcp.call(a b,c)"), "");
        assertThat(badGrant.exit()).isEqualTo(2);
        assertThat(badGrant.err()).contains("malformed grant");
    }
}
