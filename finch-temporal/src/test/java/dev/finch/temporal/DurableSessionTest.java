package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finch sessions as Temporal workflows on the SDK's in-process test server: a program that reads a file after an
 * approval survives a worker restart between its suspension and the approval, and reads the file exactly once; a
 * denial; the workflow's own history replays to the same commands without performing anything.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class DurableSessionTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String READ_NOTES = "\"reading… \" say \"notes.txt\" path file-read bytes-to-string if-ok say else say then";
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(text, e);
        }
    }

    @Test void aReadApprovedAfterAWorkerRestartRunsOnce(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "remember the milk");
        CountingFiles files = new CountingFiles(dir);
        FinchSessionWorkflow session;
        JsonNode suspended;
        try (TemporalFixture.Node first = temporal.node(TemporalFixture.workspace(dir, files))) {
            session = temporal.start(SessionState.fresh());
            suspended = json(session.submit(READ_NOTES, "turn-1"));
        }                                                              // the worker is gone: the session is only history now
        assertThat(suspended.get("status").asText()).isEqualTo("suspended");
        assertThat(suspended.get("output").asText()).isEqualTo("reading… ");
        assertThat(suspended.at("/pending_request/awaiting").asText()).isEqualTo("approval");
        assertThat(suspended.at("/pending_request/requirement").asText()).isEqualTo("fs.read(${workspace}/notes.txt)");
        String executionId = suspended.get("execution_id").asText();
        long sequence = suspended.at("/pending_request/sequence").asLong();
        assertThat(files.reads).hasValue(0);

        try (TemporalFixture.Node second = temporal.node(TemporalFixture.workspace(dir, files))) {
            SessionView waiting = session.view();
            assertThat(waiting.status()).isEqualTo("suspended");
            assertThat(waiting.pending().sequence()).isEqualTo(sequence);
            assertThat(waiting.pending().awaitsApproval()).isTrue();

            JsonNode done = json(session.approve(executionId, sequence, "once"));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.get("output").asText()).isEqualTo("reading… remember the milk");   // the first say is not repeated
            assertThat(done.get("execution_id").asText()).isEqualTo(executionId);
            assertThat(files.reads).hasValue(1);

            SessionView view = session.view();
            assertThat(view.status()).isEqualTo("completed");
            assertThat(view.pending()).isNull();
            assertThat(view.output()).isEqualTo("reading… remember the milk");

            // The next turn sees the committed session: a once-approval gave no lasting grant, so it asks again.
            JsonNode next = json(session.submit("\"notes.txt\" path file-read drop 7", "turn-2"));
            assertThat(next.get("status").asText()).isEqualTo("suspended");
            assertThat(next.at("/pending_request/awaiting").asText()).isEqualTo("approval");
            session.deny(next.get("execution_id").asText(), next.at("/pending_request/sequence").asLong(), "once was enough");
            session.close();
        }
        assertThat(files.reads).hasValue(1);

        // Replaying the whole history re-runs the workflow code against the recorded activity results: same commands
        // (the replayer fails on any other), and nothing is performed — the read count does not move.
        WorkflowExecutionHistory history = temporal.client().fetchHistory(TemporalFixture.workflowId(session));
        WorkflowReplayer.replayWorkflowExecution(history, FinchSessionWorkflowImpl.class);
        assertThat(files.reads).hasValue(1);
        assertThat(activities(history, "Perform")).hasSize(1);
        Histories.assertImagesChain(history);
    }

    @Test void aDenialFailsTheRunAndPerformsNothing(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "secret");
        CountingFiles files = new CountingFiles(dir);
        try (TemporalFixture.Node node = temporal.node(TemporalFixture.workspace(dir, files))) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            JsonNode suspended = json(session.submit(READ_NOTES, "turn-1"));
            String executionId = suspended.get("execution_id").asText();
            JsonNode denied = json(session.deny(executionId, 1, "not today"));
            assertThat(denied.get("status").asText()).isEqualTo("failed");
            assertThat(denied.at("/diagnostics/0/code").asText()).isEqualTo("E-HOST-001");
            assertThat(denied.at("/diagnostics/0/message").asText()).contains("not today");
            assertThat(session.view().status()).isEqualTo("failed");
            // Nothing waits now: an approval is rejected by the validator, before it enters the history.
            assertThatThrownBy(() -> session.approve(executionId, 1, "once")).isInstanceOf(WorkflowUpdateException.class);
            session.close();
            assertThat(activities(temporal.client().fetchHistory(TemporalFixture.workflowId(session)), "Perform")).isEmpty();
        }
        assertThat(files.reads).hasValue(0);
    }

    /** The scheduled activities of {@code type} in {@code history}. */
    static List<HistoryEvent> activities(WorkflowExecutionHistory history, String type) {
        return history.getEvents().stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                .filter(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals(type)).toList();
    }
}
