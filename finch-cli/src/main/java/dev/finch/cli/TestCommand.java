package dev.finch.cli;

import dev.finch.DiagnosticText;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.norman.harness.FileReport;
import dev.finch.norman.harness.TestHarness;
import dev.finch.norman.harness.TestResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code finch test FILE…} (decisions D2, D10): runs each µNorman file's unit tests after the whole file has loaded,
 * each test in a fresh world. A line per failing test, {@code file:line:col: form: message}; a file that does not
 * load gets its diagnostics on stderr with the source line and caret, like {@code run}; a val that failed while
 * loading is reported on stderr. The last line is exactly {@code N passed, M failed}. Exit 0 only when M = 0 and
 * every file loaded, else 1.
 */
@Command(name = "test", mixinStandardHelpOptions = true, description = "Run the unit tests of µNorman files.")
final class TestCommand implements Callable<Integer> {
    private final Io io;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "µNorman files (.nm), or - for standard input.")
    List<String> files;

    TestCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        long passed = 0;
        long failed = 0;
        boolean allLoaded = true;
        if (files.stream().filter(Source.STDIN::equals).count() > 1) return Main.usage(io, "test", "standard input (-) can be given only once");
        try (TestHarness harness = new TestHarness()) {
            for (String file : files) {
                Source src;
                try {
                    src = Source.read(file, io.in());
                } catch (UsageException e) {
                    io.err().println("finch test: " + e.getMessage());
                    allLoaded = false;
                    continue;
                }
                FileReport r = harness.runAll(src.text(), src.defaultSourceId());
                if (!r.loaded()) {
                    allLoaded = false;
                    for (Diagnostic d : r.diagnostics()) io.err().print(DiagnosticText.render(d, textOf(d, src)));
                    continue;
                }
                for (String v : r.valFailures()) io.err().println(v);
                for (TestResult t : r.results()) {
                    if (t.passed()) {
                        passed++;
                    } else {
                        failed++;
                        io.out().println(t.origin() + ": " + t.kind().spelling() + ": " + t.message());
                    }
                }
            }
        }
        io.out().println(passed + " passed, " + failed + " failed");
        io.out().flush();
        io.err().flush();
        return failed == 0 && allLoaded ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    /** The text a diagnostic points into: the file itself, or a file it uses. */
    private static String textOf(Diagnostic d, Source src) {
        String at = d.origin().source();
        if (at == null || at.equals(src.defaultSourceId())) return src.text();
        try {
            return Files.readString(Path.of(at), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
