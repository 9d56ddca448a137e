package dev.finch.ir.diag;

/**
 * A structured diagnostic (decisions D4). The code is the contract; the message helps a person or a model fix
 * the program. {@code expected} and {@code found} are null where they do not apply.
 */
public record Diagnostic(Phase phase, String code, String message, Origin origin, String expected, String found) {
    public Diagnostic {
        java.util.Objects.requireNonNull(phase, "phase");
        java.util.Objects.requireNonNull(code, "code");
        java.util.Objects.requireNonNull(message, "message");
        if (origin == null) origin = Origin.UNKNOWN;
    }

    public static Diagnostic of(DiagnosticCode code, Origin origin, String message) {
        return new Diagnostic(code.phase(), code.code(), message, origin, null, null);
    }

    @Override public String toString() {
        StringBuilder b = new StringBuilder().append(origin).append(": ").append(phase).append(' ').append(code).append(": ").append(message);
        if (expected != null) b.append(" (expected ").append(expected).append(", found ").append(found).append(')');
        return b.toString();
    }
}
