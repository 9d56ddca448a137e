package dev.finch;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * What an embedding surface over a session (the JSR-223 engine, {@code finch-jsr223}) refuses by itself: a value the
 * host hands it that Finch cannot hold, a pause it cannot answer. A program's own failures keep their codes.
 */
public enum EmbedCode implements DiagnosticCode {
    UNHELD_VALUE("E-EMBED-001", "A value the host handed in (a script binding, a function argument) has no Finch counterpart (null, or an object of a class Finch does not convert); nothing ran."),
    BINDING_CLASH("E-EMBED-002", "A script binding cannot become a session constant: its name is not a constant name, names a word of the session, or the constant already holds a value of another type; nothing ran."),
    UNANSWERED_YIELD("E-EMBED-003", "The script yielded a value, which an engine does not answer (it resumes only unit yields); the run was cancelled and nothing was committed."),
    UNREADABLE_SCRIPT("E-EMBED-004", "The script's text could not be read from the reader the host gave; nothing ran (the host's exception is the cause)."),
    NO_ANSWER("E-EMBED-005", "A word called through an interface proxy answered nothing, or a value the interface method's return type cannot hold."),
    ENGINE_SETTINGS("E-EMBED-006", "A script engine's finch.workspace or finch.grants is malformed (not a directory, not a path; a grant that does not parse), or was changed after the engine's session began at its first script; nothing ran.");

    private final String code;
    private final String meaning;

    EmbedCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
