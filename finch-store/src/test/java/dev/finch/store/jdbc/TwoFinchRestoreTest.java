package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.store.FinchStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        Path go = dir.resolve("go");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        CountDownLatch ready = new CountDownLatch(2);
        List<Process> processes = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        try {
            for (int n = 0; n < 2; n++) {
                List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classPath,
                        FinchRestorer.class.getName()));
                command.addAll(target);
                command.addAll(List.of(imageFile.toString(), ws.toString(), go.toString()));
                Process p = new ProcessBuilder(command).redirectError(dir.resolve("restorer-" + n + ".err").toFile()).start();
                processes.add(p);
                outputs.add(CompletableFuture.supplyAsync(() -> lines(p, ready)));
            }
            assertThat(ready.await(3, TimeUnit.MINUTES)).as("both processes restored the image (a hang guard)").isTrue();
            Files.writeString(go, "go");
            List<String> results = new ArrayList<>();
            for (int n = 0; n < 2; n++) {
                List<String> lines = outputs.get(n).get(3, TimeUnit.MINUTES);
                assertThat(processes.get(n).waitFor(1, TimeUnit.MINUTES)).isTrue();
                assertThat(processes.get(n).exitValue()).as("restorer %d (stderr in %s)", n, dir.resolve("restorer-" + n + ".err")).isZero();
                assertThat(lines).hasSize(2).first().isEqualTo("ready");
                results.add(lines.get(1));
            }
            assertThat(results).containsExactlyInAnyOrder("completed -", "failed E-SESSION-008");
            assertThat(Files.readAllLines(ws.resolve("log.txt"))).as("the effect happened once").containsExactly("ran");
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
}
