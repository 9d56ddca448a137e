package dev.finch.jsr223;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import javax.script.ScriptException;

/**
 * Every refusal of a {@link FinchScriptEngine}: a {@link ScriptException} that carries Finch's diagnostics. Its
 * message starts with the stable code ({@code E-LISP-102: unknown name 'frobnicate'…}), its file, line and column are
 * the first diagnostic's origin, and {@link #code()} answers the code to match on (never the message). What the host
 * handed in and Finch could not use (a reader that failed) is the {@linkplain #getCause() cause}, never the message.
 */
public final class FinchScriptException extends ScriptException {
    private static final long serialVersionUID = 1L;

    private final transient List<Diagnostic> diagnostics;

    FinchScriptException(List<Diagnostic> diagnostics, Throwable cause) {
        super(message(diagnostics), diagnostics.get(0).origin().source(), place(diagnostics.get(0).origin().line()),
                place(diagnostics.get(0).origin().column()));
        this.diagnostics = List.copyOf(diagnostics);
        if (cause != null) initCause(cause);
    }

    FinchScriptException(Diagnostic d) { this(List.of(d), null); }

    /**
     * The first diagnostic's stable code, to match on instead of the message.
     *
     * @return the code, e.g. {@code E-CAP-014}
     */
    public String code() { return diagnostics.get(0).code(); }

    /**
     * Every diagnostic of the refusal: each with its phase, code, origin, expected and found.
     *
     * @return the diagnostics, the first one (whose code, line and column this exception carries) first; unmodifiable
     */
    public List<Diagnostic> diagnostics() { return diagnostics; }

    /**
     * The same refusal where a checked exception cannot go: a method of a {@link FinchScriptEngine#getInterface}
     * proxy that declares no {@link ScriptException}. Its cause is the {@link FinchScriptException}.
     */
    public static final class Unchecked extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unchecked(FinchScriptException refusal) { super(refusal.getMessage(), refusal); }

        /**
         * The refusal's stable code.
         *
         * @return the code of the {@link FinchScriptException} this wraps, e.g. {@code E-EMBED-002}
         */
        public String code() { return refusal().code(); }

        /**
         * The refusal itself, with its diagnostics, line and column.
         *
         * @return the {@link FinchScriptException} this wraps (also its {@link #getCause() cause})
         */
        public FinchScriptException refusal() { return (FinchScriptException) getCause(); }
    }

    private static String message(List<Diagnostic> ds) {
        Diagnostic d = ds.get(0);
        return d.code() + ": " + d.message() + (ds.size() > 1 ? " (and " + (ds.size() - 1) + " more)" : "");
    }

    private static int place(int n) { return n > 0 ? n : -1; }
}
