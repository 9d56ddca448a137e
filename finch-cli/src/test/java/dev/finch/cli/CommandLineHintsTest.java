package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What to add on the command line, said where a run stopped for want of it (issue 36): a root (in the diagnostic), a grant. */
class CommandLineHintsTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void aFileWordWithoutAWorkspaceNamesTheWorkspaceFlag() throws IOException {
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", file("r.fth", "\"a.txt\" path file-read").toString()), "");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("E-HOST-013").contains("(on the command line, --workspace DIR; embedded, SessionOptions.withWorkspace)");
    }

    @Test
    void aRootThatIsNotInstalledNamesItsFlag() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", "--workspace", ws.toString(),
                file("r.fth", "\"a.txt\" project-path project-file-read").toString()), "");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("E-HOST-002").contains("(on the command line, --project DIR; embedded, SessionOptions.withRoot)");
    }

    @Test
    void aRunWaitingForAGrantNamesTheGrantFlagToAdd() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "A");
        ConformanceTest.Run r = ConformanceTest.invoke(List.of("run", "--workspace", ws.toString(),
                file("r.fth", "\"a.txt\" path file-read drop").toString()), "");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("waiting for a grant of fs.read(${workspace}/a.txt)")
                .contains("= help: to allow it, run again with --grant 'fs.read(${workspace}/a.txt)'");
        // … and with it, the run goes through.
        ConformanceTest.Run again = ConformanceTest.invoke(List.of("run", "--workspace", ws.toString(), "--grant", "fs.read(${workspace}/a.txt)",
                dir.resolve("r.fth").toString()), "");
        assertThat(again.exit()).isZero();
    }
}
