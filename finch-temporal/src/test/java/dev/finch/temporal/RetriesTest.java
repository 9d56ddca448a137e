package dev.finch.temporal;

import static dev.finch.temporal.DurableSessionTest.READ_NOTES;
import static dev.finch.temporal.DurableSessionTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ContinuationLedger;
import dev.finch.Finch;
import dev.finch.SessionOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Temporal runs an activity again when an attempt fails after doing its work (a worker that died before it reported):
 * the effect is still performed once per (execution id, sequence), and a retried step continues its pause.
 */
@SuppressWarnings("try")   // a running node is a resource the body needs only to exist
class RetriesTest {
    static TemporalFixture temporal;

    @BeforeAll static void server() { temporal = new TemporalFixture(); }

    @AfterAll static void stop() { temporal.close(); }

    /** A host activity whose first attempt performs the request, then dies before it reports. */
    static FinchHost dyingOnce(FinchHost real, AtomicInteger attempts) {
        return (image, grants, executionId, sequence) -> {
            String answer = real.perform(image, grants, executionId, sequence);
            if (attempts.incrementAndGet() == 1) throw new IllegalStateException("the worker died before it reported");
            return answer;
        };
    }

    /** Finch steps whose first approval continues the run, then dies before it reports. */
    static FinchSteps approvalDyingOnce(FinchSteps real, AtomicInteger attempts) {
        return new FinchSteps() {
            @Override public Step submit(String image, List<String> grants, String text, String sourceId) { return real.submit(image, grants, text, sourceId); }
            @Override public Step approve(String image, List<String> grants, String executionId, long sequence, String scope) {
                Step step = real.approve(image, grants, executionId, sequence, scope);
                if (attempts.incrementAndGet() == 1) throw new IllegalStateException("the worker died before it reported");
                return step;
            }
            @Override public Step deny(String image, List<String> grants, String executionId, long sequence, String reason) { return real.deny(image, grants, executionId, sequence, reason); }
            @Override public Step respond(String image, List<String> grants, String vmResume) { return real.respond(image, grants, vmResume); }
            @Override public Step resume(String image, List<String> grants, String executionId) { return real.resume(image, grants, executionId); }
        };
    }

    @Test void aRetriedHostActivityDoesNotReadAgain(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "once");
        CountingFiles files = new CountingFiles(dir);
        SessionOptions options = TemporalFixture.workspace(dir, files);
        AtomicInteger attempts = new AtomicInteger();
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY), options);
        try (TemporalFixture.Node node = temporal.node(finch, options, PerformedEffects.inMemory(), s -> s, h -> dyingOnce(h, attempts),
                TemporalFixture.quickRetries())) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            JsonNode asked = json(session.submit(READ_NOTES, "turn-1"));
            JsonNode done = json(session.approve(asked.get("execution_id").asText(), 1, "once"));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.get("output").asText()).isEqualTo("reading… once");
            session.close();
        }
        assertThat(attempts).hasValue(2);        // Temporal ran the activity twice…
        assertThat(files.reads).hasValue(1);     // … and the file was read once: the second attempt found the recorded answer
    }

    @Test void aRetriedStepContinuesItsPause(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "still here");
        CountingFiles files = new CountingFiles(dir);
        SessionOptions options = TemporalFixture.workspace(dir, files);
        AtomicInteger attempts = new AtomicInteger();
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY), options);
        try (TemporalFixture.Node node = temporal.node(finch, options, PerformedEffects.inMemory(), s -> approvalDyingOnce(s, attempts), h -> h,
                TemporalFixture.quickRetries())) {
            FinchSessionWorkflow session = temporal.start(SessionState.fresh());
            JsonNode asked = json(session.submit(READ_NOTES, "turn-1"));
            // The first attempt claimed the pause in the worker's ledger; its retry is the same activity, so it may
            // claim it again (an ordinary ledger would discard the retry with E-SESSION-008).
            JsonNode done = json(session.approve(asked.get("execution_id").asText(), 1, "once"));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            assertThat(done.get("output").asText()).isEqualTo("reading… still here");
            session.close();
        }
        assertThat(attempts).hasValue(2);
        assertThat(files.reads).hasValue(1);
    }

    @Test void theStepLedgerStillRefusesASecondContinuationOutsideTheActivity() {
        ContinuationLedger ledger = new StepLedger();
        assertThat(StepLedger.as("wf/run/1", () -> ledger.claim("s1-x-e1", 1))).isTrue();
        assertThat(StepLedger.as("wf/run/1", () -> ledger.claim("s1-x-e1", 1))).isTrue();      // a retry of that activity
        assertThat(StepLedger.as("wf/run/2", () -> ledger.claim("s1-x-e1", 1))).isFalse();     // another activity
        assertThat(ledger.claim("s1-x-e1", 1)).isFalse();                                       // outside any activity
        assertThat(ledger.claim("s1-x-e1", 2)).isTrue();
        assertThat(ledger.claim("s1-x-e1", 2)).isFalse();
    }
}
