package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code of docs/temporal.md's "Running it" runs here: {@link #theWorkerAndClientOfTheDocsRun} holds every line of the
 * page's blocks, in order (checked by {@link #thePageQuotesThisTest}), between the lines that make its inputs. The
 * page's blocks are not compiled with the other pages' (finch-cli's DocsJavaBlocksTest), which must not see Temporal.
 */
class DocsExampleTest {
    static final Path SOURCE = Path.of("src/test/java/dev/finch/temporal/DocsExampleTest.java");
    static final Path PAGE = Path.of("../docs/temporal.md");
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    @Test void theWorkerAndClientOfTheDocsRun(@TempDir Path dir) throws Exception {
        byte[] key = TemporalFixture.KEY;
        Files.writeString(dir.resolve("notes.txt"), "kept");
        WorkflowClient client = temporal.client();
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(key), SessionOptions.DEFAULT.withWorkspace(dir));
        WorkerFactory factory = WorkerFactory.newInstance(client);
        finch.register(factory.newWorker("finch-sessions"));
        factory.start();
        try {
            FinchSessionWorkflow session = client.newWorkflowStub(FinchSessionWorkflow.class,
                    WorkflowOptions.newBuilder().setTaskQueue("finch-sessions").setWorkflowId("session-42").build());
            WorkflowClient.start(session::run, SessionState.fresh());
            session = client.newWorkflowStub(FinchSessionWorkflow.class, "session-42");   // follows continue-as-new
            String outcome = session.submit("\"notes.txt\" path file-read bytes-to-string", "turn-1");
            assertThat(json(outcome).at("/pending_request/awaiting").asText()).isEqualTo("approval");
            String executionId = json(outcome).get("execution_id").asText();
            // {"status":"suspended", …, "pending_request":{…,"sequence":1,"awaiting":"approval"}} — hours later, on any node:
            outcome = session.approve(executionId, 1, "once");    // read once, by the host activity; {"status":"completed", …}
            assertThat(json(outcome).at("/stack/0/display").asText()).isEqualTo("(ok \"kept\")");
            SessionView view = session.view();                     // the outcome so far
            assertThat(view.status()).isEqualTo("completed");
            session.close();                                       // the workflow ends with its last view
        } finally {
            factory.shutdownNow();
            finch.close();
        }
    }

    @Test void thePageQuotesThisTest() throws Exception { assertQuoted("## Running it", SOURCE, 10); }

    /**
     * Every line of the code blocks under {@code heading} of docs/temporal.md is a line of {@code source}, in order, and
     * there are more than {@code atLeast} of them.
     */
    static void assertQuoted(String heading, Path source, int atLeast) throws Exception {
        List<String> page = Files.readAllLines(PAGE);
        List<String> lines = Files.readAllLines(source).stream().map(String::trim).toList();
        int start = page.indexOf(heading);
        assertThat(start).as("docs/temporal.md has %s", heading).isPositive();
        List<String> quoted = new ArrayList<>();
        boolean inBlock = false;
        for (String line : page.subList(start + 1, page.size())) {
            if (line.startsWith("## ")) break;
            if (line.startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock && !line.isBlank()) quoted.add(line.trim());
        }
        assertThat(quoted).hasSizeGreaterThan(atLeast);
        int at = 0;
        for (String line : quoted) {
            int found = lines.subList(at, lines.size()).indexOf(line);
            assertThat(found).as("docs/temporal.md quotes a line %s does not have (in order): %s", source.getFileName(), line).isNotNegative();
            at += found + 1;
        }
    }
}
