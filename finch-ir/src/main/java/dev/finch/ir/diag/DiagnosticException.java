package dev.finch.ir.diag;

import java.util.List;

/**
 * Carries diagnostics out of a phase that cannot continue. Phases catch it at their boundary and return the
 * diagnostics as values; it never reaches an embedder.
 */
public final class DiagnosticException extends RuntimeException {
    private final List<Diagnostic> diagnostics;

    public DiagnosticException(Diagnostic diagnostic) { this(List.of(diagnostic)); }

    public DiagnosticException(List<Diagnostic> diagnostics) {
        super(diagnostics.isEmpty() ? "diagnostics" : diagnostics.get(0).toString(), null, false, false);
        this.diagnostics = List.copyOf(diagnostics);
    }

    public List<Diagnostic> diagnostics() { return diagnostics; }
}
