package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowStub;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A long session does not grow one history without bound: past its limit the workflow continues as new with its state
 * (the image, the grants), and the session goes on where it was.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class ContinueAsNewTest {
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    @Test void aSessionContinuesAsNewAndKeepsItsStack() {
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY), SessionOptions.DEFAULT)
                .withLimits(FinchSessionWorkflowImpl.Limits.DEFAULT.withHistoryEvents(12));
        try (TemporalFixture.Node node = temporal.node(finch)) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            String firstRun = WorkflowStub.fromTyped(session).describe().getExecution().getRunId();
            assertThat(json(session.submit(": inc ( int -- int ) 1 + ; 0", "turn-1")).get("status").asText()).isEqualTo("completed");
            for (int i = 2; i <= 5; i++) {
                assertThat(json(session.submit("inc", "turn-" + i)).get("status").asText()).isEqualTo("completed");
            }
            SessionView view = session.view();
            assertThat(json(view.outcome()).at("/stack/0/display").asText()).isEqualTo("4");
            assertThat(view.steps()).isEqualTo(5);
            String lastRun = WorkflowStub.fromTyped(session).describe().getExecution().getRunId();
            assertThat(lastRun).isNotEqualTo(firstRun);
            assertThat(temporal.client().fetchHistory(TemporalFixture.workflowId(session), firstRun).getLastEvent().getEventType())
                    .isEqualTo(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
            session.close();
        }
    }
}
