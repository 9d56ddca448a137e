package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 38: Ctrl-C (SIGINT) during a chat's turn cancels it — its program commits nothing — and the chat goes on. */
class ChatInterruptTest {
    @TempDir Path dir;

    @Test void ctrlCCancelsTheTurnAndTheChatGoesOn() throws Exception {
        Path script = dir.resolve("spin.script");
        Files.writeString(script, """
                >>> final
                (define counter 0) (say "spinning") (let loop ((n 0)) (loop (+ n 1)))
                >>> final
                (say "after")
                """);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.finch.cli.Main",
                "chat", "--json", "--no-state", "--provider", "script:" + script));
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("err.txt").toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (java.io.IOException ended) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            OutputStream in = p.getOutputStream();
            in.write("spin\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            // The program says it spins (a hang guard only: it says so at once), then Ctrl-C.
            String said = lines.poll(2, TimeUnit.MINUTES);
            assertThat(said).as("stderr: %s", Files.readString(dir.resolve("err.txt"))).contains("spinning");
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            List<String> events = new ArrayList<>();
            for (String line; (line = lines.poll(2, TimeUnit.MINUTES)) != null; ) {
                events.add(line);
                if (line.contains("\"event\":\"answered\"") || line.contains("\"event\":\"stopped\"")) break;
            }
            assertThat(String.join("\n", events)).as("the spinning program was cancelled, and the turn with it")
                    .contains("\"status\":\"cancelled\"").contains("E-CONVERSATION-009");
            in.write("and now?\n:quit\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
            List<String> rest = new ArrayList<>();
            lines.drainTo(rest);
            assertThat(p.exitValue()).as("the chat went on and ended at :quit (a stopped turn counts as a failure)").isEqualTo(1);
            assertThat(String.join("\n", rest)).contains("after");
        } finally {
            p.destroyForcibly();
        }
    }
}
