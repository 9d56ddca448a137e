package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state directory: what one {@code finch run} process keeps (memory, project grants) the next one has; with
 * {@code --no-state} nothing is kept. Each run is its own JVM, as a person's two commands are.
 */
class StateCommandTest {
    @TempDir Path dir;

    record Ran(int exit, String out, String err) { }

    /** {@code finch ARGS} as its own process, with the state directory under this test's directory unless args say. */
    private Ran finch(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "dev.finch.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("FINCH_STATE", dir.resolve("state").toString());
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        // A hang guard only: the runs take a second or two.
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("finch " + String.join(" ", args) + " did not end");
        }
        return new Ran(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private Path program(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void aNoteWrittenByOneRunIsReadByTheNextProcess() throws Exception {
        Path write = program("a.lisp", "(memory-put \"project\" \"notes/first\" (json-of-string \"buy milk\"))");
        Path read = program("b.lisp", "(match-option (memory-get \"project\" \"notes/first\") (some v (say (show v))) (none (say \"nothing\")))");
        Ran wrote = finch("run", "--grant", "memory.write(tree=project,path=**)", write.toString());
        assertThat(wrote.exit()).as(wrote.err()).isZero();
        Ran got = finch("run", "--grant", "memory.read(tree=project,path=**)", read.toString());
        assertThat(got.exit()).as(got.err()).isZero();
        assertThat(got.out()).isEqualTo("\"buy milk\"");
        // Without the state, the next process has none of it.
        Ran none = finch("run", "--no-state", "--grant", "memory.read(tree=project,path=**)", read.toString());
        assertThat(none.out()).isEqualTo("nothing");
        // Another project (its own workspace) has its own tree.
        Path other = Files.createDirectories(dir.resolve("other"));
        Ran elsewhere = finch("run", "--workspace", other.toString(), "--grant", "memory.read(tree=project,path=**)", read.toString());
        assertThat(elsewhere.out()).isEqualTo("nothing");
    }

    @Test
    void theStateDirectoryCanBeNamedAndMustBeUsable() throws Exception {
        Path write = program("a.lisp", "(memory-put \"global\" \"k\" (json-of-int 1))");
        Path state = dir.resolve("elsewhere");
        assertThat(finch("run", "--state", state.toString(), "--grant", "memory.write(tree=global,path=**)", write.toString()).exit()).isZero();
        assertThat(Files.exists(state.resolve("finch.db"))).isTrue();
        Path file = program("not-a-dir", "x");
        Ran bad = finch("run", "--state", file.toString(), write.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("state directory").doesNotContain("Exception");
        assertThat(finch("run", "--state", state.toString(), "--no-state", write.toString()).exit()).isEqualTo(2);
    }
}
