package dev.finch.ir.type;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** The diagnostics of a refused named type ({@link TypeNames}), the same in every frontend that defines one. */
public enum TypeNameCode implements DiagnosticCode {
    BAD_NAME("E-TYPENAME-001", "A type name is not lowercase letters, digits and '-', or is a built-in type or a type variable."),
    REDEFINED("E-TYPENAME-002", "A named type is defined again with another structure (the same structure again is accepted)."),
    SELF_REFERENCE("E-TYPENAME-003", "A named type names itself: named types are aliases of structures and are never recursive."),
    UNKNOWN_NAME("E-TYPENAME-004", "A named type's structure names a type that is neither named before it nor known to the session, or has a type variable.");

    private final String code;
    private final String meaning;

    TypeNameCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The code of a refusal. */
    public static TypeNameCode of(TypeNames.Problem p) {
        switch (p) {
            case BAD_NAME: return BAD_NAME;
            case REDEFINED: return REDEFINED;
            case SELF_REFERENCE: return SELF_REFERENCE;
            default: return UNKNOWN_NAME;
        }
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.LOWER; }

    @Override public String meaning() { return meaning; }
}
