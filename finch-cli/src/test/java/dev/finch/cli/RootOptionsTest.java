package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --project}, {@code --task-output} and {@code --host-root} on {@code run} and {@code repl}: availability, not authority. */
class RootOptionsTest {
    @TempDir Path dir;

    private static ConformanceTest.Run finch(String stdin, String... args) { return ConformanceTest.invoke(List.of(args), stdin); }

    private Path mkdir(String name) throws IOException { return Files.createDirectories(dir.resolve(name)); }

    private Path program(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static final String COPY = "(match-result (bytes-to-string (project-file-read (project-path \"in.txt\")))"
            + " (ok s (task-output-file-write (task-output-path \"out.txt\") (string-to-bytes (string-append s \"!\"))))"
            + " (err e (say \"bad\")))"
            + " (match-result (bytes-to-string (host-file-read (host-path \"etc/name\"))) (ok s (say s)) (err e (say \"bad\")))";

    @Test
    void theRootsAreInstalledAndEachOperationStillNeedsItsGrant() throws IOException {
        Path project = mkdir("project");
        Files.writeString(project.resolve("in.txt"), "copied");
        Path out = mkdir("out");
        Path host = mkdir("host");
        Files.createDirectories(host.resolve("etc"));
        Files.writeString(host.resolve("etc/name"), "box-1");
        Path prog = program("copy.lisp", COPY);
        List<String> roots = List.of("--project", project.toString(), "--task-output", out.toString(), "--host-root", host.toString());

        List<String> ungranted = new ArrayList<>(List.of("run", "--json"));
        ungranted.addAll(roots);
        ungranted.add(prog.toString());
        ConformanceTest.Run paused = ConformanceTest.invoke(ungranted, "");
        assertThat(paused.exit()).as(paused.err()).isEqualTo(3);
        assertThat(paused.outcomes().get(0).get("required_capabilities").get(0).asText()).isEqualTo("fs.read(${project}/in.txt)");
        assertThat(Files.exists(out.resolve("out.txt"))).isFalse();

        List<String> granted = new ArrayList<>(List.of("run", "--grant", "fs.read(${project}/**)", "--grant", "fs.write(${task.output}/**)",
                "--grant", "fs.read(${host-machine}/etc/**)"));
        granted.addAll(roots);
        granted.add(prog.toString());
        ConformanceTest.Run ran = ConformanceTest.invoke(granted, "");
        assertThat(ran.exit()).as(ran.err()).isZero();
        assertThat(ran.out()).isEqualTo("box-1");
        assertThat(Files.readString(out.resolve("out.txt"))).isEqualTo("copied!");
        assertThat(Files.exists(project.resolve("out.txt"))).isFalse();
    }

    @Test
    void aRootThatWasNotGivenIsNotInstalled() throws IOException {
        Path project = mkdir("project");
        ConformanceTest.Run r = finch("", "run", "--json", "--project", project.toString(), "--grant", "fs.write(${task.output}/**)",
                program("w.lisp", "(task-output-file-write (task-output-path \"x\") (string-to-bytes \"x\"))").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.outcomes().get(0).get("diagnostics").get(0).get("code").asText()).isEqualTo("E-HOST-002");
    }

    @Test
    void aRootThatIsNotADirectoryIsAUsageErrorAndNothingRuns() throws IOException {
        Path prog = program("say.fth", "\"ran\" say");
        Path file = program("plain.txt", "not a directory");
        for (String option : List.of("--project", "--task-output", "--host-root", "--workspace")) {
            for (Path bad : List.of(dir.resolve("missing"), file)) {
                ConformanceTest.Run r = finch("", "run", option, bad.toString(), prog.toString());
                assertThat(r.exit()).as("%s %s", option, bad).isEqualTo(2);
                assertThat(r.out()).isEmpty();
                assertThat(r.err()).contains("is not a directory: " + bad);
            }
        }
    }

    @Test
    void theReplInstallsTheRootsToo() throws IOException {
        Path project = mkdir("project");
        Files.writeString(project.resolve("in.txt"), "from the project");
        ConformanceTest.Run r = finch("\"in.txt\" project-path project-file-read bytes-to-string if-ok say else say then\n:quit\n",
                "repl", "--no-history", "--project", project.toString(), "--grant", "fs.read(${project}/**)");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("from the project");
        for (String option : List.of("--project", "--task-output", "--host-root")) {
            assertThat(finch("", "repl", "--no-history", option, dir.resolve("missing").toString()).exit()).as(option).isEqualTo(2);
        }
    }

    @Test
    void theHelpNamesTheRootOptions() {
        for (String command : List.of("run", "repl")) {
            ConformanceTest.Run r = finch("", command, "--help");
            assertThat(r.out()).contains("--workspace=DIR", "--project=DIR", "--task-output=DIR", "--host-root=DIR");
        }
    }
}
