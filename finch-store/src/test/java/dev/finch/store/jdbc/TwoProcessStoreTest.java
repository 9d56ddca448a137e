package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.store.FinchStore;
import dev.finch.store.Journal;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        Path go = dir.resolve("go");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        CountDownLatch ready = new CountDownLatch(2);
        List<Process> processes = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        try {
            for (int n = 0; n < 2; n++) {
                List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classPath,
                        ClaimRacer.class.getName()));
                command.addAll(target);
                command.addAll(List.of("exec-race", Integer.toString(PAUSES), Integer.toString(n), go.toString()));
                Process p = new ProcessBuilder(command).redirectError(dir.resolve("racer-" + n + ".err").toFile()).start();
                processes.add(p);
                outputs.add(CompletableFuture.supplyAsync(() -> lines(p, ready)));
            }
            assertThat(ready.await(3, TimeUnit.MINUTES)).as("both racers opened the store (a hang guard)").isTrue();
            Files.writeString(go, "go");
            Map<String, Integer> winners = new HashMap<>();
            List<Long> claimsWon = new ArrayList<>();
            for (int n = 0; n < 2; n++) {
                List<String> lines = outputs.get(n).get(3, TimeUnit.MINUTES);
                assertThat(processes.get(n).waitFor(1, TimeUnit.MINUTES)).isTrue();
                assertThat(processes.get(n).exitValue()).as("racer %d (stderr in %s)", n, dir.resolve("racer-" + n + ".err")).isZero();
                assertThat(lines).first().isEqualTo("ready");
                assertThat(lines).last().isEqualTo("done");
                for (String line : lines) if (line.startsWith("claim ") || line.startsWith("record ")) winners.merge(line, 1, Integer::sum);
                claimsWon.add(lines.stream().filter(l -> l.startsWith("claim ")).count());
            }
            // How the pauses split between the racers varies from run to run; it is shown, not asserted.
            System.out.println("TwoProcessStoreTest " + target.get(0) + ": pauses won by each racer " + claimsWon);
            for (int p = 1; p <= PAUSES; p++) {
                assertThat(winners.get("claim " + p)).as("winners of pause %d", p).isEqualTo(1);
                assertThat(winners.get("record " + p)).as("dispatchers of request %d", p).isEqualTo(1);
            }
        } finally {
            for (Process p : processes) p.destroyForcibly();
        }
    }

    private static List<String> lines(Process p, CountDownLatch ready) {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.add(line);
                if (line.equals("ready")) ready.countDown();
            }
        } catch (java.io.IOException e) {
            out.add("unreadable: " + e);
        }
        return out;
    }

    private static void assertEverythingSettledOnce(FinchStore store) {
        for (long p = 1; p <= PAUSES; p++) assertThat(store.claims().isClaimed("exec-race", p)).isTrue();
        assertThat(store.journal().pending("exec-race-effects")).isEmpty();
        assertThat(store.journal().entries("exec-race-effects", 0, 1000)).hasSize(PAUSES)
                .allSatisfy(s -> assertThat(s.kind()).isEqualTo(Journal.Status.Kind.SETTLED));
    }
}
