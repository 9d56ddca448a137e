package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The held-out tasks the primer was validated with (docs/primer.md): programs written from {@code finch language
 * --primer} alone, each run here as a model's would be — {@code finch run} with a workspace and a read grant, or
 * {@code finch test} for µNorman — and held to the output the task asks for. tasks.tsv records which were right the
 * first time and which after one diagnostic.
 */
@Timeout(300)   // a hang guard for the command-line runs; nothing here bounds wall time
class PrimerValidationTest {
    private static final String DIR = "/primer-validation/";

    @TempDir
    Path workspace;

    record Task(String file, String task, String expected, int attempts) { }

    static List<Task> tasks() throws IOException {
        List<Task> out = new ArrayList<>();
        for (String line : resource("tasks.tsv").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            out.add(new Task(f[0], f[1], f[2], Integer.parseInt(f[3].split(" ")[0])));
        }
        return out;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = PrimerValidationTest.class.getResourceAsStream(DIR + name)) {
            if (in == null) throw new IOException("missing test resource " + DIR + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The blind comparison of docs/primer.md: the same tasks, written once each by a fresh model given only the primer
     * ({@code fresh-primer/}) and by one given only the full text ({@code fresh-full/}): every program runs as its task
     * asks, the first time.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"fresh-primer/", "fresh-full/"})
    void freshModelsWroteEveryTaskRightTheFirstTime(String dir) throws IOException {
        Files.writeString(workspace.resolve("people.csv"), resource("people.csv"));
        Files.writeString(workspace.resolve("app.log"), resource("app.log"));
        List<String> failures = new ArrayList<>();
        for (Task t : tasks()) failures.addAll(run(t, dir + t.file()));
        assertThat(failures).isEmpty();
    }

    /** Runs task {@code t} with the program in resource {@code program}; what went wrong, if anything. */
    private List<String> run(Task t, String program) throws IOException {
        Path file = workspace.resolve(t.file());
        Files.writeString(file, resource(program));
        ConformanceTest.Run r = t.file().endsWith(".nm")
                ? ConformanceTest.invoke(List.of("test", file.toString()), "")
                : ConformanceTest.invoke(List.of("run", "--no-state", "--workspace", workspace.toString(), "--grant", "fs.read(${workspace}/**)",
                        "--grant", "fs.write(${workspace}/**)", file.toString()), "");
        String out = r.out().strip();
        boolean ok = r.exit() == 0 && (t.file().endsWith(".nm") ? out.contains(t.expected()) : out.equals(t.expected()));
        return ok ? List.of() : List.of(program + ": exit " + r.exit() + ", out '" + out + "', err '" + r.err() + "' (wanted '" + t.expected() + "')");
    }

    @Test
    void everyHeldOutProgramWrittenFromThePrimerRunsAsItsTaskAsks() throws IOException {
        Files.writeString(workspace.resolve("people.csv"), resource("people.csv"));
        Files.writeString(workspace.resolve("app.log"), resource("app.log"));
        List<Task> tasks = tasks();
        List<String> failures = new ArrayList<>();
        for (Task t : tasks) {
            Path program = workspace.resolve(t.file());
            Files.writeString(program, resource(t.file()));
            ConformanceTest.Run r = t.file().endsWith(".nm")
                    ? ConformanceTest.invoke(List.of("test", program.toString()), "")
                    : ConformanceTest.invoke(List.of("run", "--workspace", workspace.toString(), "--grant", "fs.read(${workspace}/**)",
                            "--grant", "fs.write(${workspace}/**)", program.toString()), "");
            String out = r.out().strip();
            boolean ok = r.exit() == 0 && (t.file().endsWith(".nm") ? out.contains(t.expected()) : out.equals(t.expected()));
            if (!ok) failures.add(t.file() + ": exit " + r.exit() + ", out '" + out + "', err '" + r.err() + "' (wanted '" + t.expected() + "')");
        }
        assertThat(failures).isEmpty();
        // The counts docs/primer.md reports.
        assertThat(tasks).hasSize(23);
        assertThat(tasks.stream().filter(t -> t.attempts() == 1).count()).isEqualTo(20);
        assertThat(tasks.stream().filter(t -> t.attempts() == 2).count()).isEqualTo(3);
        assertThat(tasks.stream().map(t -> t.file().substring(t.file().lastIndexOf('.'))).distinct()).contains(".lisp", ".fth", ".nm");
    }
}
