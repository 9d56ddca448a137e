package dev.finch.ir.diag;

/**
 * A stable diagnostic code {@code E-AREA-NNN}. Each module declares its codes in one enum implementing this
 * interface; the catalogue in {@code docs/errors.md} is checked against those enums. Codes never change meaning.
 */
public interface DiagnosticCode {
    /** The stable code, e.g. {@code E-OPTION-001}. */
    String code();

    /** The phase that reports it. */
    Phase phase();

    /** One sentence on what it means, for the catalogue. */
    String meaning();

    /** A diagnostic of this code. */
    default Diagnostic at(Origin origin, String message) { return Diagnostic.of(this, origin, message); }

    /** A diagnostic of this code with expected/found types or values. */
    default Diagnostic at(Origin origin, String message, String expected, String found) {
        return new Diagnostic(phase(), code(), message, origin, expected, found);
    }
}
