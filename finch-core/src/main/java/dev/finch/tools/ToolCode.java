package dev.finch.tools;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * The errors of the tool surface itself: a call the host could not even route to the session. Program failures
 * are never these; they come back as an ordinary outcome object from {@code submit_program}.
 */
public enum ToolCode implements DiagnosticCode {
    /** The tool name is not one of the surface's tools. */
    UNKNOWN_TOOL("E-TOOL-001", "The tool name is not one the tool surface offers (get_vm_state, get_language_definition, search_word, inspect_word, submit_program, and vm_resume where the host enabled it)."),
    /** The arguments are not one strict JSON object. */
    MALFORMED_ARGUMENTS("E-TOOL-002", "The tool arguments are not one JSON object (malformed JSON, a duplicate key, trailing text, or too large or deep)."),
    /** The arguments object does not match the tool's input schema. */
    INVALID_ARGUMENTS("E-TOOL-003", "The tool arguments do not match the tool's input schema (a required field is missing, a field is unknown, or a value has the wrong type or range)."),
    /** inspect_word named nothing the session knows. */
    UNKNOWN_WORD("E-TOOL-004", "inspect_word named no core word, persisted definition, constant or source syntax; the error lists close names."),
    /** A defect inside Finch while handling a tool call. */
    INTERNAL("E-TOOL-005", "An internal error in Finch stopped the tool call; nothing was committed. Please report it.");

    private final String code;
    private final String meaning;

    ToolCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
