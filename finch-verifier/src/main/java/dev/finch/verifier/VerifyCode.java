package dev.finch.verifier;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Every diagnostic the verifier reports: a stable {@code E-VERIFY-NNN} code with its meaning (never renumbered). */
public enum VerifyCode implements DiagnosticCode {
    STACK_UNDERFLOW("E-VERIFY-001", "An instruction needs more values than the stack holds (in the program, the session stack is too short)."),
    TYPE_MISMATCH("E-VERIFY-002", "A value's type is not the type an instruction, local, constant, yield or error edge requires."),
    UNKNOWN_WORD("E-VERIFY-003", "A called name is not a module word, dictionary word, constant or vocabulary word."),
    BRANCH_MISMATCH("E-VERIFY-004", "The edges of if / if-some / if-ok / case leave different stack rows."),
    LOOP_ROW("E-VERIFY-005", "A loop's test or body does not restore the row at the loop head (plus a bool where one is required)."),
    SIGNATURE_MISMATCH("E-VERIFY-006", "A word or closure body does not leave exactly its declared output row."),
    RECURSION_NEEDS_SIGNATURE("E-VERIFY-007", "A word is used recursively (directly or through other words) without a declared signature."),
    DUPLICATE_WORD("E-VERIFY-008", "A module defines the same word twice."),
    BAD_IMMEDIATE("E-VERIFY-009", "A call has missing, extra or ill-kinded immediates (type or name arguments)."),
    UNKNOWN_TAG("E-VERIFY-010", "A variant tag is not one of the closed variant type's tags."),
    UNKNOWN_FIELD("E-VERIFY-011", "A record field is not one of the record type's fields."),
    NOT_A_FUNCTION("E-VERIFY-012", "execute found a value that is not a function (closure or execution token) on top of the stack."),
    NEEDS_KNOWN_TYPE("E-VERIFY-013", "An operation needs the concrete type of a value (a function, variant or record) that is not known yet at this point."),
    EMPTY_LIST_LITERAL("E-VERIFY-014", "An empty list literal has no element type; use empty-list<T>."),
    LITERAL_UNDERFLOW("E-VERIFY-015", "A list, map or record literal consumes values from below its own start."),
    ODD_MAP_LITERAL("E-VERIFY-016", "A map literal pushes an odd number of values (keys and values must pair up)."),
    RECORD_FIELD_ARITY("E-VERIFY-017", "A record literal field does not push exactly one value."),
    DUPLICATE_FIELD("E-VERIFY-018", "A record literal names the same field twice."),
    BAD_QUOTE("E-VERIFY-019", "['] names something that has no execution token (a special word or a constant)."),
    LOCAL_UNASSIGNED("E-VERIFY-020", "A local is read where it has not been assigned on every path (or does not exist)."),
    CAPTURED_LOCAL_STORE("E-VERIFY-021", "A closure body stores to a local of an enclosing word (captures are read-only)."),
    PROPAGATE_TARGET("E-VERIFY-022", "? / try is used outside a word or closure whose sole declared output is a result<R,E>."),
    CONSTANT_PLACEMENT("E-VERIFY-023", "A constant is defined somewhere other than the top level of the program."),
    AMBIGUOUS_TYPE("E-VERIFY-024", "A type that reaches the session stack or dictionary is never determined; annotate it."),
    UNDECLARED_EFFECT("E-VERIFY-025", "A body needs a capability its declared signature does not list (session.emit excepted)."),
    UNDECLARED_YIELDS("E-VERIFY-026", "A body yields but its declared signature has no yields<Y,R>."),
    DUPLICATE_CASE_VALUE("E-VERIFY-027", "Two case arms test the same value (the second could never run)."),
    VERIFIER_LIMIT("E-VERIFY-028", "The program is too deeply nested or too large for the verifier to check."),
    MALFORMED_IR("E-VERIFY-029", "The instructions handed to the verifier are malformed (missing parts); a frontend bug, not a program error."),
    CONSTANT_NOT_YET_DEFINED("E-VERIFY-030", "A word reads a constant that this program defines only later than the word is first used, or the program redefines with another type a constant a word reads."),
    MALFORMED_CAPABILITY("E-VERIFY-031", "A declared capability is not one Finch knows (D9 names, a known ${root}, well-formed parameters)."),
    IMPURE_TASK("E-VERIFY-032", "defer-cpu (Lisp: defer :cpu) was given a closure that is not pure: it needs a capability or session.emit (say), or it yields; a CPU task computes a value and nothing else."),
    AGENT_TASK("E-VERIFY-033", "A CPU-task or step word (task-poll, task-join, task-cancel, step-join) was given an agent-task handle, task<agent-result>; agent work is coordinated with the agent-* words.");

    private final String code;
    private final String meaning;

    VerifyCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.VERIFY; }

    @Override public String meaning() { return meaning; }
}
