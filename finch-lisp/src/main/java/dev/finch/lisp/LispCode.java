package dev.finch.lisp;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Every diagnostic code of the Lisp frontend (decisions D4): stable, one meaning each. */
public enum LispCode implements DiagnosticCode {
    UNCLOSED_DELIMITER("E-LISP-001", Phase.PARSE, "A form is not closed at the end of the source; the origin points at the unclosed delimiter."),
    UNEXPECTED_CLOSER("E-LISP-002", Phase.PARSE, "A closing delimiter does not match an open one."),
    UNTERMINATED_STRING("E-LISP-003", Phase.PARSE, "A string literal is not closed at the end of the source."),
    BAD_TOKEN("E-LISP-004", Phase.PARSE, "A character that cannot start any token."),
    BAD_ESCAPE("E-LISP-005", Phase.PARSE, "An unknown escape sequence in a string literal."),
    NUMBER_RANGE("E-LISP-006", Phase.PARSE, "An integer literal outside the 64-bit range."),
    SYNTAX("E-LISP-007", Phase.PARSE, "Malformed S-expression syntax."),

    BAD_MACRO("E-EXPAND-001", Phase.EXPAND, "A malformed define-syntax / syntax-rules definition."),
    NO_MACRO_RULE("E-EXPAND-002", Phase.EXPAND, "No syntax-rules pattern matches this use of the macro."),
    EXPANSION_STEPS("E-EXPAND-003", Phase.EXPAND, "Macro expansion exceeded the step limit."),
    EXPANSION_DEPTH("E-EXPAND-004", Phase.EXPAND, "Macro expansion exceeded the nesting depth limit."),

    MALFORMED_FORM("E-LISP-101", Phase.LOWER, "A special form has the wrong shape."),
    UNKNOWN_NAME("E-LISP-102", Phase.LOWER, "A name that is neither a local, a definition, a constant nor a vocabulary word."),
    SET_CAPTURED("E-LISP-103", Phase.LOWER, "set! on a variable captured by a lambda (closures capture by value, read-only)."),
    SET_NOT_LOCAL("E-LISP-104", Phase.LOWER, "set! on something that is not a local binding."),
    TRY_OUTSIDE_RESULT("E-LISP-105", Phase.LOWER, "try outside a function (a define or a lambda) whose declared return type is result<…>."),
    BAD_ANNOTATION("E-LISP-106", Phase.LOWER, "A type annotation that is not a valid compact type spelling."),
    NOT_CALLABLE("E-LISP-107", Phase.LOWER, "A word that cannot be used as a Lisp function (it leaves several values, or needs its own form)."),
    UNSUPPORTED("E-LISP-108", Phase.LOWER, "A Scheme form this frontend does not support."),
    DUPLICATE_DEFINITION("E-LISP-109", Phase.LOWER, "A name defined twice at the top level of one submission."),
    INTERNAL("E-LISP-110", Phase.LOWER, "An internal error of the Lisp frontend (a bug; please report the program)."),

    TYPE_MISMATCH("E-TYPE-001", Phase.VERIFY, "Two types that must be equal are not."),
    ARITY("E-TYPE-002", Phase.VERIFY, "A function called with the wrong number of arguments."),
    INFINITE_TYPE("E-TYPE-003", Phase.VERIFY, "A type would have to contain itself."),
    NO_OVERLOAD("E-TYPE-004", Phase.VERIFY, "No overload of a vocabulary word accepts these argument types."),
    NO_FIELD("E-TYPE-005", Phase.VERIFY, "A record field that the record type does not have, or a field access on a non-record."),
    BAD_TAG("E-TYPE-006", Phase.VERIFY, "A variant tag that the variant type does not have, or a payload that does not fit it."),
    AMBIGUOUS("E-TYPE-007", Phase.VERIFY, "A type that inference cannot determine; add an annotation."),
    NOT_A_FUNCTION("E-TYPE-008", Phase.VERIFY, "A value that is called but is not a function."),
    EMPTY_LITERAL("E-TYPE-009", Phase.VERIFY, "An empty list or map literal; use (empty-list T) or give it elements."),
    NON_EXHAUSTIVE("E-TYPE-010", Phase.VERIFY, "A match over a closed variant that has no arm for some tag; add the missing arms or a final (_ …) arm.");

    private final String code;
    private final Phase phase;
    private final String meaning;

    LispCode(String code, Phase phase, String meaning) {
        this.code = code;
        this.phase = phase;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return phase; }

    @Override public String meaning() { return meaning; }
}
