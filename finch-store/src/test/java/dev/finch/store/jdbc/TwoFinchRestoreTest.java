package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.store.FinchStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37: two {@code Finch} processes on one store restore the same image of a run paused before an effect, and both
 * approve it at once. The store's continue-once claims let exactly one continue (the effect happens once); the other
 * gets {@code E-SESSION-008} and dispatches nothing — on the embedded database and on a real PostgreSQL server.
 */
class TwoFinchRestoreTest {
    static final byte[] KEY = "two-finch-restore-test-image-key!".getBytes(StandardCharsets.UTF_8);

    @RegisterExtension static final PostgresServer.Extension PG = new PostgresServer.Extension();

    @TempDir Path dir;

    /** The program: one process run that appends a line to the workspace's log — the effect counted. */
    private static final String PROGRAM = "(process-run \"/bin/sh\" (list \"-c\" \"echo ran >> log.txt\"))";

    @Test void onTheEmbeddedStoreTheEffectHappensOnce() throws Exception {
        Path state = dir.resolve("state");
        try (FinchStore store = FinchStores.embedded(state)) {
            race(store, List.of("sqlite", state.toString()));
        }
    }

    @Test void onPostgresTheEffectHappensOnce() throws Exception {
        PostgresServer server = PG.server();
        String url = server.createDatabase("twofinch");
        try (FinchStore store = FinchStores.postgres(url, server.user(), null)) {
            race(store, List.of("postgresql", url, server.user()));
        }
    }

    private void race(FinchStore store, List<String> target) throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        String image;
        try (Finch finch = Finch.builder().store(store).imageKey(KEY).build()) {
            Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(ws));
            Outcome paused = s.submit(Submission.of(PROGRAM, "effect.lisp"));
            assertThat(paused.status()).as(paused.toString()).isEqualTo(Outcome.Status.SUSPENDED);
            image = s.save(paused.executionId());
        }
        Path imageFile = dir.resolve("image.json");
        Files.writeString(imageFile, image);
        List<String> results = new ArrayList<>();
        try (Racers racers = Racers.start(dir, FinchRestorer.class, "restorer", java.util.stream.Stream.concat(target.stream(),
                java.util.stream.Stream.of(imageFile.toString(), ws.toString())).toList())) {
            for (List<String> lines : racers.go()) {
                assertThat(lines).hasSize(2);
                results.add(lines.get(1));
            }
        }
        assertThat(results).containsExactlyInAnyOrder("completed -", "failed E-SESSION-008");
        assertThat(Files.readAllLines(ws.resolve("log.txt"))).as("the effect happened once").containsExactly("ran");
    }
}
