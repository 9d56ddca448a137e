package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * Two JVMs racing over one store: each runs {@code main} with the arguments given plus the go file, prints {@code ready}
 * once set up, waits for the go file, and prints what it won. The waits are hang guards only.
 */
final class Racers implements AutoCloseable {
    private final Path dir;
    private final String name;
    private final Path go;
    private final CountDownLatch ready = new CountDownLatch(2);
    private final List<Process> processes = new ArrayList<>();
    private final List<CompletableFuture<List<String>>> outputs = new ArrayList<>();

    private Racers(Path dir, String name) {
        this.dir = dir;
        this.name = name;
        this.go = dir.resolve("go-" + name);
    }

    /** Starts both racers, {@code main} with {@code args} then the go file, and waits until both are ready. */
    static Racers start(Path dir, Class<?> main, String name, List<String> args) throws Exception {
        Racers r = new Racers(dir, name);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (int n = 0; n < 2; n++) {
            List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classPath, main.getName()));
            command.addAll(args.stream().map(a -> a.replace("{n}", Integer.toString(r.processes.size()))).toList());
            command.add(r.go.toString());
            Process p = new ProcessBuilder(command).redirectError(r.stderr(n).toFile()).start();
            r.processes.add(p);
            r.outputs.add(CompletableFuture.supplyAsync(() -> lines(p, r.ready)));
        }
        assertThat(r.ready.await(3, TimeUnit.MINUTES)).as("both %s racers are ready (a hang guard)", name).isTrue();
        return r;
    }

    /** Lets both go, then answers what each printed (the first line, {@code ready}, included); each must exit 0. */
    List<List<String>> go() throws Exception {
        Files.writeString(go, "go");
        List<List<String>> out = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            List<String> lines = outputs.get(n).get(3, TimeUnit.MINUTES);
            assertThat(processes.get(n).waitFor(1, TimeUnit.MINUTES)).isTrue();
            assertThat(processes.get(n).exitValue()).as("%s racer %d (stderr in %s)", name, n, stderr(n)).isZero();
            assertThat(lines).first().isEqualTo("ready");
            out.add(lines);
        }
        return out;
    }

    private Path stderr(int n) { return dir.resolve(name + "-" + n + ".err"); }

    @Override public void close() { for (Process p : processes) p.destroyForcibly(); }

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
