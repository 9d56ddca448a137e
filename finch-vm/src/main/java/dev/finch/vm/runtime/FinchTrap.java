package dev.finch.vm.runtime;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Origin;

/**
 * A structured run-time error raised by generated code, the runtime or the host boundary. Internal: the VM catches
 * it at the run boundary and turns it into a failed outcome; it never reaches an embedder. No stack trace is captured.
 */
public final class FinchTrap extends RuntimeException {
    private final transient Diagnostic diagnostic;
    private final transient DiagnosticCode code;

    public FinchTrap(DiagnosticCode code, Origin origin, String message) {
        this(code, code.at(origin, message));
    }

    /** A trap carrying a diagnostic made elsewhere (for example a capability refusal). */
    public FinchTrap(DiagnosticCode code, Diagnostic diagnostic) {
        super(diagnostic.message(), null, false, false);
        this.code = code;
        this.diagnostic = diagnostic;
    }

    public DiagnosticCode code() { return code; }

    public Diagnostic diagnostic() { return diagnostic; }
}
