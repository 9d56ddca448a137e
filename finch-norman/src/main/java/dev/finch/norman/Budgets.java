package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.LimitCode;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Telling a crossed compile limit from an ordinary diagnostic. A phase that collects its diagnostics and goes on (one
 * definition's type error does not stop the next definition) must not go on after a limit: the budget is spent, so the
 * limit's exception ends the whole submission's frontend work.
 */
final class Budgets {
    private static final Set<String> CODES = Stream.of(LimitCode.values()).map(LimitCode::code).collect(Collectors.toUnmodifiableSet());

    private Budgets() { }

    /** True when {@code e} reports a crossed compile limit (or the deadline, or a cancellation). */
    static boolean crossed(DiagnosticException e) {
        for (Diagnostic d : e.diagnostics()) if (CODES.contains(d.code())) return true;
        return false;
    }

    /** Rethrows {@code e} when it reports a crossed compile limit; otherwise returns, for the caller to collect it. */
    static void rethrowCrossed(DiagnosticException e) {
        if (crossed(e)) throw e;
    }

    /** The limit on nesting crossed by a type that {@code phase} infers or lowers (types nest like the forms that write them). */
    static DiagnosticException typeTooDeep(Phase phase, int limit, Origin at) {
        return new DiagnosticException(new Diagnostic(phase, LimitCode.NESTING.code(), "a type here nests deeper than " + limit
                + " levels; the limit is " + limit, at, Integer.toString(limit), "more than " + limit));
    }
}
