package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.Finch;
import dev.finch.store.FinchStore;
import dev.finch.store.jdbc.FinchStores;
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
 * Issue 37 item 6: a worker over a Finch store ({@code FinchWorker.of(…, store)}) keeps the session's images, its
 * continue-once claims and its performed effects there — the history carries image references, a worker restart
 * continues from the store, and the effect is performed once.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class StoreWorkerTest {
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    @Test void imagesClaimsAndEffectsLiveInTheStore(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "stored");
        CountingFiles files = new CountingFiles(dir);
        try (FinchStore store = FinchStores.embedded(dir.resolve("state"))) {
            FinchSessionWorkflow session;
            JsonNode asked;
            try (TemporalFixture.Node first = temporal.node(FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY),
                    TemporalFixture.workspace(dir, files), store))) {
                session = temporal.start(SessionState.fresh());
                asked = json(session.submit(DurableSessionTest.READ_NOTES, "turn-1"));
            }
            try (TemporalFixture.Node second = temporal.node(FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY),
                    TemporalFixture.workspace(dir, files), store))) {
                JsonNode done = json(session.approve(asked.get("execution_id").asText(), 1, "once"));
                assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
                assertThat(done.get("output").asText()).isEqualTo("reading… stored");
                session.close();
            }
            assertThat(files.reads).as("the effect was performed once").hasValue(1);
            WorkflowExecutionHistory history = temporal.client().fetchHistory(TemporalFixture.workflowId(session));
            int references = 0;
            for (HistoryEvent e : history.getEvents()) {
                if (e.getEventType() != EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) continue;
                JsonNode image = Histories.payload(e.getActivityTaskScheduledEventAttributes().getInput(), 0);
                if (image.isNull() || image.isMissingNode()) continue;
                assertThat(image.asText()).matches("sha256:[0-9a-f]{64}");
                assertThat(store.images().get(image.asText())).as("the store holds %s", image.asText()).isPresent();
                references++;
            }
            assertThat(references).isPositive();
            String execution = asked.get("execution_id").asText();
            assertThat(store.claims().isClaimed(execution, 1)).as("the pause was claimed in the store").isTrue();
            assertThat(store.journal().entries("temporal." + execution, 0, 10)).as("the performed request is journaled").hasSize(1);
        }
    }
}
