package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.store.FinchStore;
import dev.finch.store.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVM processes open the same store — one embedded database file, then one PostgreSQL database — and race to claim
 * the same pauses and to record the same effects ({@link ClaimRacer}): each pause is continued, and each effect
 * dispatched, by exactly one of them.
 */
class TwoProcessStoreTest {
    private static final int PAUSES = 150;

    @RegisterExtension static final PostgresServer.Extension PG = new PostgresServer.Extension();

    @TempDir Path dir;

    @Test void twoProcessesOnOneEmbeddedFileEachWinAPauseOnce() throws Exception {
        Path state = dir.resolve("state");
        FinchStores.embedded(state).close(); // created and migrated; the racers find it ready
        race(List.of("sqlite", state.toString()));
        try (FinchStore store = FinchStores.embedded(state)) {
            assertEverythingSettledOnce(store);
        }
    }

    @Test void twoProcessesOnOnePostgresDatabaseEachWinAPauseOnce() throws Exception {
        PostgresServer server = PG.server();
        String url = server.createDatabase("twoprocess");
        FinchStores.postgres(url, server.user(), null).close();
        race(List.of("postgresql", url, server.user()));
        try (FinchStore store = FinchStores.postgres(url, server.user(), null)) {
            assertEverythingSettledOnce(store);
        }
    }

    private void race(List<String> target) throws Exception {
        List<String> args = new ArrayList<>(target);
        args.addAll(List.of("exec-race", Integer.toString(PAUSES), "{n}"));   // {n}: each racer's seed, its own order
        Map<String, Integer> winners = new HashMap<>();
        List<Long> claimsWon = new ArrayList<>();
        try (Racers racers = Racers.start(dir, ClaimRacer.class, "racer", args)) {
            for (List<String> lines : racers.go()) {
                assertThat(lines).last().isEqualTo("done");
                for (String line : lines) if (line.startsWith("claim ") || line.startsWith("record ")) winners.merge(line, 1, Integer::sum);
                claimsWon.add(lines.stream().filter(l -> l.startsWith("claim ")).count());
            }
        }
        // How the pauses split between the racers varies from run to run; it is shown, not asserted.
        System.out.println("TwoProcessStoreTest " + target.get(0) + ": pauses won by each racer " + claimsWon);
        for (int p = 1; p <= PAUSES; p++) {
            assertThat(winners.get("claim " + p)).as("winners of pause %d", p).isEqualTo(1);
            assertThat(winners.get("record " + p)).as("dispatchers of request %d", p).isEqualTo(1);
        }
    }

    private static void assertEverythingSettledOnce(FinchStore store) {
        for (long p = 1; p <= PAUSES; p++) assertThat(store.claims().isClaimed("exec-race", p)).isTrue();
        assertThat(store.journal().pending("exec-race-effects")).isEmpty();
        assertThat(store.journal().entries("exec-race-effects", 0, 1000)).hasSize(PAUSES)
                .allSatisfy(s -> assertThat(s.kind()).isEqualTo(Journal.Status.Kind.SETTLED));
    }
}
