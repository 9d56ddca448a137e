package dev.finch.cli;

import dev.finch.CheckResult;
import dev.finch.DiagnosticText;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code finch check}: parse, lower and verify without running; print signatures and inferred capabilities. */
@Command(name = "check", mixinStandardHelpOptions = true, description = "Verify a program without running it.")
final class CheckCommand implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print one object: status, language, definitions, inferred_capabilities, diagnostics.")
    boolean json;

    @Option(names = "--emit", paramLabel = "FORM", description = "forth: print the program as canonical Co-Forth.")
    String emit;

    @Option(names = "--lang", paramLabel = "LANG", description = "lisp, forth or norman (default: by extension, else inferred)")
    String lang;

    @Parameters(arity = "1", paramLabel = "FILE", description = "The program file, or - for standard input.")
    String file;

    CheckCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        try {
            return check();
        } catch (UsageException e) {
            return Main.usage(io, "check", e.getMessage());
        }
    }

    private int check() throws UsageException {
        if (emit != null && !emit.equals("forth")) throw new UsageException("--emit takes 'forth', not '" + emit + "'");
        if (emit != null && json) throw new UsageException("--emit forth and --json cannot be combined");
        Source src = Source.read(file, io.in());
        Submission sub = Submission.of(src.text(), src.defaultSourceId()).withLanguage(src.language(Source.parseLanguage(lang)));
        CheckResult r = Finch.create().newSession().check(sub);
        if (json) {
            io.out().println(FinchJson.write(r));
        } else {
            for (Diagnostic d : r.diagnostics()) io.err().print(DiagnosticText.render(d, src.text()));
            if (emit != null) {
                // A runnable .fth file: end it with a newline like any text file.
                r.canonicalForth().ifPresent(f -> io.out().print(f.endsWith("\n") ? f : f + "\n"));
            } else if (r.ok()) {
                for (CheckResult.Definition d : r.definitions()) io.out().println(d.name() + " : " + d.signature());
                io.out().println("inferred capabilities: " + (r.inferredCapabilities().isEmpty() ? "none (pure)" : String.join(", ", r.inferredCapabilities())));
            }
        }
        io.out().flush();
        io.err().flush();
        return r.ok() ? 0 : 1;
    }
}
