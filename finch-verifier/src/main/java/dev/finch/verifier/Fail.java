package dev.finch.verifier;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import java.util.List;

/**
 * Raises verifier diagnostics through the internal {@link DiagnosticException} carrier. A body stops at its first
 * error (as in WebAssembly validation: after an error the stack shape is unknown); other bodies go on.
 */
final class Fail {
    private Fail() { }

    static DiagnosticException at(VerifyCode code, Origin origin, String message) {
        return new DiagnosticException(code.at(origin, message));
    }

    static DiagnosticException at(VerifyCode code, Origin origin, String message, String expected, String found) {
        return new DiagnosticException(code.at(origin, message, expected, found));
    }

    /** Stops a body that depends on a word which already failed (its own diagnostic was reported there). */
    static DiagnosticException poisoned() { return new DiagnosticException(List.<Diagnostic>of()); }
}
