package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.VmResume;
import dev.finch.vm.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images carry no authority, so the workflow keeps what approvals gave and hands it to every step: a {@code task}
 * approval covers the rest of its execution, a {@code session} approval the later submissions. An operation left to an
 * outside host waits for its answer as an update, and the host activity performs nothing for it.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class SessionAuthorityTest {
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    @Test void aTaskApprovalCoversTheRestOfItsExecutionAndASessionApprovalTheNextTurns(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.txt"), "A");
        CountingFiles files = new CountingFiles(dir);
        try (TemporalFixture.Node node = temporal.node(TemporalFixture.workspace(dir, files))) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            String twice = "\"a.txt\" path file-read drop \"a.txt\" path file-read bytes-to-string";
            JsonNode asked = json(session.submit(twice, "turn-1"));
            String executionId = asked.get("execution_id").asText();
            JsonNode done = json(session.approve(executionId, 1, "task"));
            // Two reads, one approval: the second request found the task grant the workflow passed to its step.
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.at("/stack/0/display").asText()).isEqualTo("(ok \"A\")");
            assertThat(files.reads).hasValue(2);

            // The task grant ended with its execution: the next turn asks again; approved for the session, it is the last ask.
            JsonNode again = json(session.submit("\"a.txt\" path file-read drop", "turn-2"));
            assertThat(again.at("/pending_request/awaiting").asText()).isEqualTo("approval");
            assertThat(json(session.approve(again.get("execution_id").asText(), 1, "session")).get("status").asText()).isEqualTo("completed");
            JsonNode third = json(session.submit("\"a.txt\" path file-read bytes-to-string", "turn-3"));
            assertThat(third.get("status").asText()).as("%s", third).isEqualTo("completed");
            assertThat(files.reads).hasValue(4);
            session.close();
        }
    }

    @Test void aResultThatLivesOnlyInTheHostProcessIsDeniedNotRetried(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("lines.txt"), "one\ntwo\n");
        CountingFiles files = new CountingFiles(dir);
        try (TemporalFixture.Node node = temporal.node(TemporalFixture.workspace(dir, files))) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            JsonNode asked = json(session.submit("\"lines.txt\" path file-lines-open drop", "turn-1"));
            JsonNode done = json(session.approve(asked.get("execution_id").asText(), 1, "once"));
            // A stream opened by the host activity cannot travel to the step that continues the run.
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("failed");
            assertThat(done.at("/diagnostics/0/code").asText()).isEqualTo("E-HOST-001");
            assertThat(done.at("/diagnostics/0/message").asText()).contains("lives only in the host's process");
            assertThat(DurableSessionTest.activities(temporal.client().fetchHistory(TemporalFixture.workflowId(session)), "Perform")).hasSize(1);
            session.close();
        }
    }

    @Test void anOutsideHostAnswersItsOperationsThroughAnUpdate(@TempDir Path dir) {
        CountingFiles files = new CountingFiles(dir);
        try (TemporalFixture.Node node = temporal.node(TemporalFixture.workspace(dir, files))) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh().withExternalOperations(List.of("file-read")));
            JsonNode asked = json(session.submit("\"remote.json\" path file-read bytes-to-string", "turn-1"));
            String executionId = asked.get("execution_id").asText();
            JsonNode approved = json(session.approve(executionId, 1, "once"));
            assertThat(approved.get("status").asText()).isEqualTo("suspended");
            assertThat(approved.at("/pending_request/awaiting").asText()).isEqualTo("result");
            SessionView waiting = session.view();
            assertThat(waiting.pending().awaiting()).isEqualTo(Pending.RESULT);
            assertThat(waiting.pending().operation()).isEqualTo("file-read");

            String answer = VmResume.result(executionId, 1, Value.of("{\"from\":\"afar\"}".getBytes(StandardCharsets.UTF_8))).toJson();
            JsonNode done = json(session.respond(answer));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.at("/stack/0/display").asText()).isEqualTo("(ok \"{\\\"from\\\":\\\"afar\\\"}\")");
            assertThat(DurableSessionTest.activities(temporal.client().fetchHistory(TemporalFixture.workflowId(session)), "Perform")).isEmpty();
            session.close();
        }
        assertThat(files.reads).hasValue(0);
    }
}
