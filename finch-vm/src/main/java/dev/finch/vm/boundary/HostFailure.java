package dev.finch.vm.boundary;

import dev.finch.ir.diag.DiagnosticCode;

/**
 * A host binding's structured failure: a code and a message for the program's author. The code is the boundary's own
 * ({@link HostCode}) or a word library's (a memory failure's {@code E-MEMORY-…}); the run fails with it.
 */
public final class HostFailure extends Exception {
    private final DiagnosticCode code;

    public HostFailure(HostCode code, String message) { this((DiagnosticCode) code, message); }

    /** A failure with a word library's own code. */
    public HostFailure(DiagnosticCode code, String message) {
        super(message, null, false, false);
        this.code = java.util.Objects.requireNonNull(code, "code");
    }

    /** A failure whose original cause goes to the host (never into the message a program sees). */
    public HostFailure(DiagnosticCode code, String message, Throwable cause) {
        super(message, cause, false, false);
        this.code = java.util.Objects.requireNonNull(code, "code");
    }

    public DiagnosticCode code() { return code; }
}
