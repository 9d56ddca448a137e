package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.READ_NOTES;
import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.EventType;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.workflow.Workflow;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay over a recorded history (test resource {@code histories/approved-read.json}: a submission that read a file
 * after an approval, then a denied one): the workflow code makes the same commands from the recorded results and
 * performs nothing; a workflow that would skip the host activity does not replay. Regenerate the recording with
 * {@code -Dfinch.regenerate=true} after a deliberate change to the workflow (and say why: old histories stop replaying).
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class ReplayTest {
    static final String RECORDING = "histories/approved-read.json";
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    static WorkflowExecutionHistory recording() throws Exception {
        try (InputStream in = ReplayTest.class.getClassLoader().getResourceAsStream(RECORDING)) {
            assertThat(in).as(RECORDING).isNotNull();
            return WorkflowExecutionHistory.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test void theRecordedHistoryReplaysToTheSameCommands() throws Exception {
        WorkflowExecutionHistory history = recording();
        WorkflowReplayer.replayWorkflowExecution(history, FinchSessionWorkflowImpl.class);
        // What the recording holds: one read performed once, the image passed from step to step, and a completed session.
        assertThat(DurableSessionTest.activities(history, "Perform")).hasSize(1);
        assertThat(DurableSessionTest.activities(history, "Approve")).hasSize(1);
        assertThat(DurableSessionTest.activities(history, "Deny")).hasSize(1);
        assertThat(Histories.assertImagesChain(history)).isEqualTo(6);   // submit, approve, perform, respond, submit, deny
        assertThat(history.getLastEvent().getEventType()).isEqualTo(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
    }

    /** A session workflow that takes an approval's step but never dispatches the request it approved. */
    public static class SkipsTheHost extends FinchSessionWorkflowImpl {
        private final FinchSteps steps = Workflow.newActivityStub(FinchSteps.class,
                ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(1)).build());
        private String image;

        @Override public String submit(String text, String sourceId) {
            Step s = steps.submit(image, List.of(), text, sourceId);
            image = s.image();
            return s.outcome();
        }

        @Override public String approve(String executionId, long sequence, String scope) {
            Step s = steps.approve(image, List.of(), executionId, sequence, scope);
            image = s.image();
            return s.outcome();
        }

        @Override public void validateApprove(String executionId, long sequence, String scope) { }
    }

    @Test void aWorkflowThatWouldNotDispatchTheApprovedRequestDoesNotReplay() throws Exception {
        WorkflowExecutionHistory history = recording();
        assertThatThrownBy(() -> WorkflowReplayer.replayWorkflowExecution(history, SkipsTheHost.class))
                .hasStackTraceContaining("NonDeterministicException");
    }

    /** Records {@link #RECORDING} from a live run (only with -Dfinch.regenerate=true). */
    @Test void recordTheHistory(@TempDir Path dir) throws Exception {
        if (!Boolean.getBoolean("finch.regenerate")) return;
        Files.writeString(dir.resolve("notes.txt"), "remember the milk");
        CountingFiles files = new CountingFiles(dir);
        FinchSessionWorkflow session;
        try (TemporalFixture.Node node = temporal.node(TemporalFixture.workspace(dir, files))) {
            session = temporal.start(SessionState.fresh());
            JsonNode asked = json(session.submit(READ_NOTES, "turn-1"));
            session.approve(asked.get("execution_id").asText(), 1, "once");
            JsonNode next = json(session.submit("\"notes.txt\" path file-read drop", "turn-2"));
            session.deny(next.get("execution_id").asText(), 1, "once was enough");
            session.close();
            io.temporal.client.WorkflowStub.fromTyped(session).getResult(SessionView.class);
        }
        String json = temporal.client().fetchHistory(TemporalFixture.workflowId(session)).toJson(true);
        Path out = Path.of("src/test/resources").resolve(RECORDING);
        Files.createDirectories(out.getParent());
        Files.writeString(out, json + "\n");
    }
}
