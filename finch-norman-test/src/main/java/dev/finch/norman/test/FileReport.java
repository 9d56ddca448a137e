package dev.finch.norman.test;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;

/**
 * What running one file's unit tests found: whether the file loaded (else its diagnostics), one result per unit
 * test in the order written, and a line per val that failed while loading (it bound nothing; its failure is
 * reported, as the reference asks, without stopping the file).
 */
public record FileReport(String source, List<Diagnostic> diagnostics, List<TestResult> results, List<String> valFailures) {
    public FileReport {
        diagnostics = List.copyOf(diagnostics);
        results = List.copyOf(results);
        valFailures = List.copyOf(valFailures);
    }

    /** True when the file parsed, type-checked, lowered, verified and its top level ran. */
    public boolean loaded() { return diagnostics.isEmpty(); }

    /** How many tests passed. */
    public long passed() { return results.stream().filter(TestResult::passed).count(); }

    /** How many tests failed. */
    public long failed() { return results.size() - passed(); }
}
