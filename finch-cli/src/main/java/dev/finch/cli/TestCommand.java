package dev.finch.cli;

import dev.finch.DiagnosticText;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.norman.test.FileReport;
import dev.finch.norman.test.TestHarness;
import dev.finch.norman.test.TestResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.vm.value.Duration;
import dev.finch.vm.value.Money;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code finch test FILE…} (decisions D2, D10): runs each µNorman file's unit tests after the whole file has loaded,
 * each test in a fresh world. A line per failing test, {@code file:line:col: form: message}; a file that does not
 * load gets its diagnostics on stderr with the source line and caret, like {@code run}; a val that failed while
 * loading is reported on stderr. The last line is {@code N passed, M failed}, followed on that line by {@code , K
 * file(s) did not load (names)} when one did not. Exit 0 only when M = 0 and every file loaded, else 1.
 *
 * <p>With {@code -v} every test gets a line, passing or failing: {@code file:line:col: form: passed|failed, spent $…,
 * took …} (the spend and the simulated time of the tested expression's world), then {@code : message} when it failed.
 * With {@code --trace} (which implies {@code -v}) each such line is followed by one indented line per ask and call
 * of that world, in order: {@code ask SITE} or {@code call CAP/OP}, its cost, its latency and what came back.
 */
@Command(name = "test", mixinStandardHelpOptions = true, description = "Run the unit tests of µNorman files.")
final class TestCommand implements Callable<Integer> {
    private final Io io;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "µNorman files (.nm), or - for standard input.")
    List<String> files;

    @Option(names = {"-v", "--verbose"}, description = "A line for every test, passing or failing, with its spend and simulated time.")
    boolean verbose;

    @Option(names = "--trace", description = "Under each test's line, every ask and call it made (site, cost, latency, reply); implies -v.")
    boolean trace;

    TestCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        long passed = 0;
        long failed = 0;
        boolean allLoaded = true;
        List<String> notLoaded = new java.util.ArrayList<>();
        if (files.stream().filter(Source.STDIN::equals).count() > 1) return Main.usage(io, "test", "standard input (-) can be given only once");
        try (TestHarness harness = new TestHarness()) {
            for (String file : files) {
                Source src;
                try {
                    src = Source.read(file, io.in());
                } catch (UsageException e) {
                    io.err().println("finch test: " + e.getMessage());
                    allLoaded = false;
                    notLoaded.add(file);
                    continue;
                }
                FileReport r = harness.runAll(src.text(), src.defaultSourceId());
                if (!r.loaded()) {
                    allLoaded = false;
                    notLoaded.add(src.defaultSourceId());
                    for (Diagnostic d : r.diagnostics()) io.err().print(DiagnosticText.render(d, textOf(d, src)));
                    continue;
                }
                for (String v : r.valFailures()) io.err().println(v);
                for (TestResult t : r.results()) {
                    if (t.passed()) passed++; else failed++;
                    if (verbose || trace) io.out().println(verboseLine(t));
                    else if (!t.passed()) io.out().println(t.origin() + ": " + t.kind().spelling() + ": " + t.message());
                    if (trace) for (ScriptedModels.TraceEntry e : t.trace()) io.out().println("    " + traceLine(e));
                }
            }
        }
        // The last line starts "N passed, M failed" (decisions D2); a file that did not load says so on that same line,
        // so that "0 passed, 0 failed" never reads as success to whatever reads only the last line.
        io.out().println(passed + " passed, " + failed + " failed" + (notLoaded.isEmpty() ? ""
                : ", " + notLoaded.size() + (notLoaded.size() == 1 ? " file" : " files") + " did not load (" + String.join(", ", notLoaded) + ")"));
        io.out().flush();
        io.err().flush();
        return failed == 0 && allLoaded ? Main.EXIT_OK : Main.EXIT_FAILED;
    }

    /** {@code file:line:col: form: passed, spent $0.00, took 0s}, and {@code : message} after a failure. */
    static String verboseLine(TestResult t) {
        String head = t.origin() + ": " + t.kind().spelling() + ": " + (t.passed() ? "passed" : "failed")
                + ", spent " + Money.ofMicros(t.spent()) + ", took " + Duration.ofMillis(t.elapsed());
        return t.passed() ? head : head + ": " + t.message();
    }

    /** {@code ask SITE: cost $…, latency …: reply …} (or {@code call CAP/OP: …}). */
    static String traceLine(ScriptedModels.TraceEntry e) {
        // An ask says what it reserved and from what (an OverBudget one also what was left).
        String reserved = e.reservation().isEmpty() ? "" : " (" + e.reservation() + ")";
        return e.kind() + " " + e.site() + ": cost " + Money.ofMicros(e.cost()) + ", latency " + Duration.ofMillis(e.end() - e.start()) + ": " + e.reply() + reserved;
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
