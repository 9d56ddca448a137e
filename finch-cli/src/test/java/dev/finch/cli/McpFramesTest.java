package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35 item 1: the real {@code finch mcp} (a subprocess, {@code java -cp <class path> dev.finch.cli.Main mcp}) over
 * raw pipes survives bad frames — non-JSON, truncated JSON, 100k-deep JSON, an object as id, binary junk, a frame past
 * the 16 MiB bound — answering each with a JSON-RPC error or dropping it, answers the requests after them, answers
 * unknown tools and bad arguments as {@code E-TOOL-…} results, and exits when its input closes. The waits are hang
 * guards; nothing bounds wall time.
 */
class McpFramesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;
    private Process server;
    private final BlockingQueue<JsonNode> replies = new LinkedBlockingQueue<>();
    private final List<String> unreadable = java.util.Collections.synchronizedList(new ArrayList<>());

    private OutputStream start(String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                "dev.finch.cli.Main", "mcp", "--workspace", tmp.toString()));
        cmd.addAll(List.of(extra));
        server = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    try {
                        replies.add(JSON.readTree(line));
                    } catch (IOException e) {
                        unreadable.add(line);
                    }
                }
            } catch (IOException ended) {
                // The server exited.
            }
        }, "mcp-frames-test-reader");
        reader.setDaemon(true);
        reader.start();
        return server.getOutputStream();
    }

    @AfterEach void stop() {
        if (server != null) server.destroyForcibly();
    }

    private static void send(OutputStream in, String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The next reply, skipping notifications; a hang guard of 60 s. */
    private JsonNode reply() throws InterruptedException {
        while (true) {
            JsonNode n = replies.poll(60, TimeUnit.SECONDS);
            assertThat(n).as("a reply came").isNotNull();
            if (!n.has("method")) return n;
        }
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}";
    }

    private OutputStream initialized() throws Exception {
        OutputStream in = start();
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        assertThat(reply().path("result").path("serverInfo").path("name").asText()).isEqualTo("finch");
        send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return in;
    }

    private void stillAnswers(OutputStream in, int id) throws Exception {
        send(in, call(id, "submit_program", "{\"source\":\"1 2 +\"}"));
        JsonNode r = reply();
        assertThat(r.path("id").asInt()).isEqualTo(id);
        JsonNode outcome = JSON.readTree(r.path("result").path("content").get(0).path("text").asText());
        assertThat(outcome.path("status").asText()).as("%s", outcome).isEqualTo("completed");
        assertThat(outcome.path("stack").get(0).path("display").asText()).isEqualTo("3");
    }

    @Test
    void badFramesGetJsonRpcErrorsAndLaterRequestsAreAnswered() throws Exception {
        OutputStream in = initialized();
        send(in, "this is not json");
        assertThat(reply().path("error").path("code").asInt()).isEqualTo(-32700);
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":");
        assertThat(reply().path("error").path("code").asInt()).isEqualTo(-32700);
        send(in, "[".repeat(100_000) + "]".repeat(100_000));
        assertThat(reply().path("error").path("code").asInt()).isEqualTo(-32700);
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":{\"an\":\"object\"},\"method\":\"ping\"}");
        JsonNode objectId = reply();
        assertThat(objectId.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(objectId.get("id").isNull()).isTrue();
        byte[] junk = new byte[4096];
        new java.util.Random(35).nextBytes(junk);
        for (int i = 0; i < junk.length; i++) if (junk[i] == '\n') junk[i] = 0;
        in.write(junk);
        in.write('\n');
        in.flush();
        assertThat(reply().path("error").path("code").asInt()).isEqualTo(-32700);
        stillAnswers(in, 3);
        // A frame past the bound (17 MiB) is skipped as it arrives, never kept whole.
        byte[] big = new byte[1 << 20];
        java.util.Arrays.fill(big, (byte) 'a');
        in.write("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"x\":\"".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 17; i++) in.write(big);
        in.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode tooBig = reply();
        assertThat(tooBig.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(tooBig.path("error").path("message").asText()).contains("longer than");
        stillAnswers(in, 5);
        assertThat(unreadable).as("every line the server wrote is JSON").isEmpty();
        // Closing its input ends the server: the JVM exits by itself.
        in.close();
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("finch mcp exited when its input closed").isTrue();
        assertThat(server.exitValue()).isZero();
    }

    @Test
    void unknownToolsAndBadArgumentsAreToolErrorsNotProtocolErrors() throws Exception {
        OutputStream in = initialized();
        send(in, call(2, "no_such_tool", "{}"));
        JsonNode unknown = reply();
        assertThat(unknown.has("error")).as("%s", unknown).isFalse();
        assertThat(unknown.path("result").path("isError").asBoolean()).isTrue();
        assertThat(unknown.path("result").path("structuredContent").path("error").path("code").asText()).isEqualTo("E-TOOL-001");
        send(in, call(3, "submit_program", "{\"source\":7}"));
        JsonNode bad = reply();
        assertThat(bad.has("error")).as("%s", bad).isFalse();
        assertThat(bad.path("result").path("structuredContent").path("error").path("code").asText()).isEqualTo("E-TOOL-003");
        send(in, call(4, "approve", "{\"execution_id\":\"x\"}"));
        assertThat(reply().path("result").path("structuredContent").path("error").path("code").asText())
                .as("approve without --approval-tools is unknown").isEqualTo("E-TOOL-001");
        stillAnswers(in, 5);
        in.close();
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    /** Issue 35 item 5: when the client leaves mid-run, the run is cancelled and the processes it started end. */
    @Test
    void closingTheInputMidRunEndsTheRunsProcesses() throws Exception {
        OutputStream in = start("--grant", "process.run(/bin/sh)");
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        reply();
        send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send(in, call(2, "submit_program", JSON.writeValueAsString(java.util.Map.of("language", "lisp", "source",
                "(process-run \"/bin/sh\" (list \"-c\" \"setsid sleep " + OUTER + " & sleep " + INNER + "\"))"))));
        assertThat(eventually(() -> !withArgument(INNER).isEmpty())).as("the program's process started").isTrue();
        in.close();
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // The sleeps outlast every hang guard here: gone means killed, not ended.
        assertThat(eventually(() -> withArgument(INNER).isEmpty())).as("its process ended").isTrue();
        if (dev.finch.host.LocalProcessHost.containment() == dev.finch.host.LocalProcessHost.Containment.PID_NAMESPACE) {
            assertThat(eventually(() -> withArgument(OUTER).isEmpty())).as("and the one that left its session").isTrue();
        }
    }

    /** The sleeps' arguments, unique to this JVM: the same test in another build on the machine starts its own. */
    private static final String OUTER = "300.351" + ProcessHandle.current().pid();
    private static final String INNER = "300.352" + ProcessHandle.current().pid();

    /** Waits until {@code condition} holds, or a minute (a hang guard) passes; whether it holds. */
    static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 3_000; i++) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    static List<Long> withArgument(String argument) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(argument)).orElse(false))
                .map(ProcessHandle::pid).filter(McpFramesTest::notZombie).toList();
    }

    /** A zombie is dead: only its reaping is left. */
    static boolean notZombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            char state = stat.substring(stat.lastIndexOf(')') + 1).trim().charAt(0);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }
}
