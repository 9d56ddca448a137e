package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.READ_NOTES;
import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.workflow.Workflow;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay over a recorded history (test resource {@code histories/approved-read.json}: a submission that read a file
 * after an approval, then a denied one): the workflow code makes the same commands from the recorded results and
 * performs nothing; a workflow that would skip the host activity does not replay; and the recording is current — the
 * same scenario run live today records the same story (updates, their outcomes, activities, signals, the end), and that
 * fresh history replays too. After a deliberate change to the workflow (say why: old histories stop replaying), rewrite
 * the recording from the live run with {@code -Dfinch.regenerate=true}
 * ({@code mvn -pl finch-temporal verify -Dtest=ReplayTest -Dfinch.regenerate=true}); the comparison with the old
 * recording is what that run leaves out.
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

    /**
     * The scenario of the recording, run live: {@code "notes.txt"} read after an approval, then a read denied, then the
     * session closed. Its history, which {@code -Dfinch.regenerate=true} writes over {@link #RECORDING}.
     */
    @Test void theRecordingIsWhatTheWorkflowRecordsToday(@TempDir Path dir) throws Exception {
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
        assertThat(files.reads).as("the file was read once, live").hasValue(1);
        WorkflowExecutionHistory fresh = temporal.client().fetchHistory(TemporalFixture.workflowId(session));
        WorkflowReplayer.replayWorkflowExecution(fresh, FinchSessionWorkflowImpl.class);
        if (Boolean.getBoolean("finch.regenerate")) {
            Path out = Path.of("src/test/resources").resolve(RECORDING);
            Files.createDirectories(out.getParent());
            Files.writeString(out, fresh.toJson(true) + "\n");
            return;
        }
        assertThat(story(fresh)).as("the story of a live run against the recording's (regenerate it if the change was deliberate)")
                .isEqualTo(story(recording()))
                .contains("update approve", "activity Perform", "signal close", "completed");
    }

    /**
     * What a session workflow's history says happened, in order, without ids, times or images: each update accepted and
     * its outcome's status, output and stack, each activity scheduled, each signal, and the end. (Workflow tasks are left
     * out: how the server batches them is its own business.)
     */
    static List<String> story(WorkflowExecutionHistory history) {
        List<String> out = new ArrayList<>();
        for (HistoryEvent e : history.getEvents()) {
            switch (e.getEventType()) {
                case EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED ->
                        out.add("update " + e.getWorkflowExecutionUpdateAcceptedEventAttributes().getAcceptedRequest().getInput().getName());
                case EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED -> {
                    JsonNode outcome = json(Histories.payload(e.getWorkflowExecutionUpdateCompletedEventAttributes().getOutcome().getSuccess(), 0).asText());
                    out.add("answered " + outcome.get("status").asText() + " output " + outcome.get("output") + " stack " + outcome.get("stack"));
                }
                case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED -> out.add("activity " + e.getActivityTaskScheduledEventAttributes().getActivityType().getName());
                case EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED -> out.add("signal " + e.getWorkflowExecutionSignaledEventAttributes().getSignalName());
                case EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED -> out.add("completed");
                default -> { }
            }
        }
        return out;
    }
}
