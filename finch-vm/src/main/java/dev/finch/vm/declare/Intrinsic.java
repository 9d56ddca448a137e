package dev.finch.vm.declare;

import dev.finch.ir.vocab.Overload;

/**
 * The true intrinsics an overload may name in its declaration ({@code @Overload(intrinsic = …)}): operations the
 * compiler emits as a few JVM instructions on unboxed slots instead of a call. The declared method stays the
 * reference implementation, which the interpreter runs; the compiler's emitter for each id is its own
 * ({@code dev.finch.vm.compile.Intrinsics}), and a property test runs both tiers on generated inputs and requires them
 * to agree. Every other word compiles to a direct call of its method.
 */
public enum Intrinsic {
    /** Not an intrinsic: compiled code calls the method. */
    NONE,
    /** A stack shuffle: slot moves derived from the signature's permutation ({@code a b -> b a}). */
    SHUFFLE,
    FLOAT_ADD,
    FLOAT_SUB,
    FLOAT_MUL,
    FLOAT_DIV,
    FLOAT_REM,
    FLOAT_NEGATE,
    INT_TO_FLOAT,
    BOOL_AND,
    BOOL_OR,
    BOOL_NOT,
    INT_LESS,
    INT_GREATER,
    INT_LESS_EQUAL,
    INT_GREATER_EQUAL,
    /**
     * Equality ({@code Values.equal}, the one definition) on the call site's type: ints and bools compare in place,
     * floats through {@code Values.floatEquals}, everything else through {@code Values.equal}, charged to the run's
     * context.
     */
    EQUAL,
    /** The negation of {@link #EQUAL}. */
    NOT_EQUAL;

    /**
     * Why this intrinsic cannot emit overload {@code o}, or null when it can: a shuffle needs a permutation, and the
     * fixed-type intrinsics accept only the signature they were written for.
     */
    public String refuses(Overload o) {
        if (this == SHUFFLE) return o.permutation().isPresent() ? null : "needs a signature that only permutes its inputs, like `a b -> b a`";
        String expected = switch (this) {
            case FLOAT_ADD, FLOAT_SUB, FLOAT_MUL, FLOAT_DIV, FLOAT_REM -> "float float -> float";
            case FLOAT_NEGATE -> "float -> float";
            case INT_TO_FLOAT -> "int -> float";
            case BOOL_AND, BOOL_OR -> "bool bool -> bool";
            case BOOL_NOT -> "bool -> bool";
            case INT_LESS, INT_GREATER, INT_LESS_EQUAL, INT_GREATER_EQUAL -> "int int -> bool";
            case EQUAL, NOT_EQUAL -> "a a -> bool";
            case NONE, SHUFFLE -> null;
        };
        return expected == null || o.signature().toString().equals(expected) ? null : "emits `" + expected + "`, not `" + o.signature() + "`";
    }

}
