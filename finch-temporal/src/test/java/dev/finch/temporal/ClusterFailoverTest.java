package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.temporal.testserver.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 42 item 4: Finch sessions on a cluster topology. The SDK's test server listens on a port of this JVM; the
 * workers and the starter are separate JVMs ({@link ClusterNode}) that reach it over gRPC by address. A session's
 * program suspends for an approval; its worker process is killed (SIGKILL: no shutdown, no goodbye to the server);
 * a second worker process starts; the approval, sent by another process, is taken by the second worker, which
 * finishes the session from the history alone — and the read is performed exactly once, counted in a file both
 * worker processes append to. The children's output is under {@code target/cluster-failover/}.
 */
class ClusterFailoverTest {
    static final Path LOGS = Path.of("target", "cluster-failover");
    static final String NAMESPACE = "default";
    static TestServer.PortBoundTestServer server;
    static String target;
    static final List<Process> children = new ArrayList<>();

    @BeforeAll static void listen() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        server = TestServer.createPortBoundServer(port, true);   // time skipping locked: the clock is real
        target = "127.0.0.1:" + port;
        Files.createDirectories(LOGS);
    }

    @AfterAll static void stop() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(1, TimeUnit.MINUTES);
        }
        if (server != null) server.close();
    }

    @Test void aSecondWorkerProcessFinishesASessionWhoseWorkerWasKilled() throws Exception {
        Path run = Files.createDirectories(LOGS.resolve(UUID.randomUUID().toString()));
        Path workspace = Files.createDirectories(run.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.txt"), "remember the milk");
        Path effects = run.resolve("effects.log");
        String session = "session-" + UUID.randomUUID();

        Process first = worker(run, "worker-1", workspace, effects);
        JsonNode suspended = json(call(run, "submit", session, DurableSessionTest.READ_NOTES));
        assertThat(suspended.get("status").asText()).as("%s", suspended).isEqualTo("suspended");
        assertThat(suspended.at("/pending_request/awaiting").asText()).isEqualTo("approval");
        String executionId = suspended.get("execution_id").asText();
        long sequence = suspended.at("/pending_request/sequence").asLong();

        first.destroyForcibly();                                   // SIGKILL: the worker cannot tell the server it is gone
        assertThat(first.waitFor(1, TimeUnit.MINUTES)).as("the first worker died (a hang guard)").isTrue();
        assertThat(Files.exists(effects)).as("nothing was read before the approval").isFalse();

        Process second = worker(run, "worker-2", workspace, effects);
        JsonNode done = json(call(run, "approve", session, executionId, Long.toString(sequence)));
        assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
        assertThat(done.get("output").asText()).isEqualTo("reading… remember the milk");   // the first say is not repeated
        assertThat(done.get("execution_id").asText()).isEqualTo(executionId);

        assertThat(call(run, "close", session)).isEqualTo("completed reading… remember the milk");
        List<String> reads = Files.readAllLines(effects);
        assertThat(reads).as("the read was performed once, by the second worker").containsExactly(
                "read ${workspace}/notes.txt by " + second.pid());
    }

    @Test void thePageQuotesTheProcessesOfThisTest() throws Exception {
        DocsExampleTest.assertQuoted("## On a cluster", Path.of("src/test/java/dev/finch/temporal/ClusterNode.java"), 10);
    }

    /** Starts a worker process and waits until it polls (it prints "ready"); its output goes to {@code run/name.out|err}. */
    static Process worker(Path run, String name, Path workspace, Path effects) throws Exception {
        Path out = run.resolve(name + ".out");
        Process p = start(run, name, "worker", workspace.toString(), effects.toString());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);   // a hang guard, not a bound on time
        while (!(Files.exists(out) && Files.readString(out).contains("ready"))) {
            assertThat(p.isAlive()).as("%s died before polling; see %s", name, run.resolve(name + ".err")).isTrue();
            assertThat(System.nanoTime() < deadline).as("%s polls (a hang guard); see %s", name, run.resolve(name + ".err")).isTrue();
            Thread.sleep(50);
        }
        return p;
    }

    /** Runs a starter process to its end; what it printed last. */
    static String call(Path run, String mode, String... args) throws Exception {
        String name = mode + "-" + UUID.randomUUID().toString().substring(0, 8);
        Process p = start(run, name, mode, args);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("%s ended (a hang guard); see %s", name, run.resolve(name + ".err")).isTrue();
        assertThat(p.exitValue()).as("%s exited; see %s", name, run.resolve(name + ".err")).isZero();
        List<String> lines = Files.readAllLines(run.resolve(name + ".out"), StandardCharsets.UTF_8);
        assertThat(lines).as("%s printed", name).isNotEmpty();
        return lines.get(lines.size() - 1);
    }

    static Process start(Path run, String name, String mode, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dfile.encoding=UTF-8",
                "-Dstdout.encoding=UTF-8", "-cp", classPath, ClusterNode.class.getName(), mode, target, NAMESPACE));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(run.resolve(name + ".out").toFile())
                .redirectError(run.resolve(name + ".err").toFile());
        builder.environment().remove("FINCH_TEMPORAL_CERT");
        builder.environment().remove("FINCH_TEMPORAL_KEY");
        Process p = builder.start();
        synchronized (children) {
            children.add(p);
        }
        return p;
    }
}
