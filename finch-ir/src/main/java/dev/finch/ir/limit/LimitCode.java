package dev.finch.ir.limit;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * The diagnostics of the compile phases' limits ({@link CompileLimits}). Each is reported with the phase that hit it
 * (the phase below is the usual one); the run's own limits are {@code E-LIMIT-001}…{@code 006}.
 */
public enum LimitCode implements DiagnosticCode {
    SOURCE_SIZE("E-LIMIT-010", Phase.PARSE, "The submission's text (or a file it uses) is longer than the compile limit on source characters."),
    TOKENS("E-LIMIT-011", Phase.PARSE, "The submission has more tokens than the compile limit allows."),
    NESTING("E-LIMIT-012", Phase.PARSE, "Brackets, forms, quotes, blocks or type expressions nest deeper than the compile limit; refused without recursing."),
    EXPANSION("E-LIMIT-013", Phase.EXPAND, "Macro expansion produced more nodes than the compile limit (a self-growing macro)."),
    TYPE_SIZE("E-LIMIT-014", Phase.VERIFY, "A type written or inferred is larger than the compile limit (for example let-polymorphism doubling a type)."),
    WORK("E-LIMIT-015", Phase.VERIFY, "Checking the submission (inference, unification, verification) took more work than the compile limit allows."),
    DEADLINE("E-LIMIT-016", Phase.VERIFY, "The compile phases passed the submission's deadline before it could run."),
    CANCELLED("E-LIMIT-017", Phase.VERIFY, "The submission was cancelled while it was being compiled; nothing ran.");

    private final String code;
    private final Phase phase;
    private final String meaning;

    LimitCode(String code, Phase phase, String meaning) {
        this.code = code;
        this.phase = phase;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return phase; }

    @Override public String meaning() { return meaning; }
}
