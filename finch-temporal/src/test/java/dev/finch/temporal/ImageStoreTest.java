package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.READ_NOTES;
import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With an {@link ImageStore} the history holds references, not images: the session still survives a worker restart
 * (both nodes reach the store) and reads once, and no activity input carries an image.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class ImageStoreTest {
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    @Test void theHistoryHoldsReferencesAndTheSessionStillContinues(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "stored");
        CountingFiles files = new CountingFiles(dir);
        ImageStore store = ImageStore.inMemory();                     // in production: a blob store both nodes reach
        FinchSessionWorkflow session;
        JsonNode asked;
        try (TemporalFixture.Node first = temporal.node(FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY),
                TemporalFixture.workspace(dir, files)).withImageStore(store))) {
            session = temporal.start(SessionState.fresh());
            asked = json(session.submit(READ_NOTES, "turn-1"));
        }
        try (TemporalFixture.Node second = temporal.node(FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY),
                TemporalFixture.workspace(dir, files)).withImageStore(store))) {
            JsonNode done = json(session.approve(asked.get("execution_id").asText(), 1, "once"));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.get("output").asText()).isEqualTo("reading… stored");
            assertThat(session.view().imageChars()).isEqualTo("sha256:".length() + 64);
            session.close();
        }
        assertThat(files.reads).hasValue(1);
        WorkflowExecutionHistory history = temporal.client().fetchHistory(TemporalFixture.workflowId(session));
        int scheduled = 0;
        for (HistoryEvent e : history.getEvents()) {
            if (e.getEventType() != EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) continue;
            JsonNode image = Histories.payload(e.getActivityTaskScheduledEventAttributes().getInput(), 0);
            if (!image.isNull() && !image.isMissingNode()) assertThat(image.asText()).matches("sha256:[0-9a-f]{64}");
            scheduled++;
        }
        assertThat(scheduled).isEqualTo(4);                           // submit, approve, perform, respond
        Histories.assertImagesChain(history);
    }
}
