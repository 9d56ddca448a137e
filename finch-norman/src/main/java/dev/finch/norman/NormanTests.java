package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.instr.Module;
import java.util.List;
import java.util.Optional;

/**
 * The unit tests of a program lowered for the harness: one module holding the program's words and, per test,
 * words of no inputs answering {@code result<T,Failure>} (one per test expression, in order), plus for check-fail a
 * word {@code Failure -> bool} that matches the pattern. A check-error whose expression has a static error gets one
 * word that raises that error as a checked run-time error.
 */
public record NormanTests(Optional<Module> module, List<Lowered> tests, List<Diagnostic> diagnostics) {
    public NormanTests { tests = List.copyOf(tests); diagnostics = List.copyOf(diagnostics); }

    /** One test with the names of its words in {@link #module()}. */
    public record Lowered(UnitTest test, List<String> words, Optional<String> matcher) {
        public Lowered { words = List.copyOf(words); }
    }
}
