package dev.finch.ir.instr;

import dev.finch.ir.type.Type;

/** A literal value of the IR. */
public sealed interface Literal {
    /** The discriminator for exhaustive switches (Java 17 has no pattern switch). */
    enum Kind { INT, FLOAT, STRING, BOOL, UNIT, SYMBOL, JSON }

    Kind kind();

    /** The type of the value. */
    Type type();

    record IntLit(long value) implements Literal {
        @Override public Kind kind() { return Kind.INT; }
        @Override public Type type() { return Type.INT; }
    }

    record FloatLit(double value) implements Literal {
        @Override public Kind kind() { return Kind.FLOAT; }
        @Override public Type type() { return Type.FLOAT; }
    }

    record StringLit(String value) implements Literal {
        @Override public Kind kind() { return Kind.STRING; }
        @Override public Type type() { return Type.STRING; }
    }

    record BoolLit(boolean value) implements Literal {
        @Override public Kind kind() { return Kind.BOOL; }
        @Override public Type type() { return Type.BOOL; }
    }

    record UnitLit() implements Literal {
        @Override public Kind kind() { return Kind.UNIT; }
        @Override public Type type() { return Type.UNIT; }
    }

    /** A symbol {@code 'name}; never a string. */
    record SymbolLit(String name) implements Literal {
        @Override public Kind kind() { return Kind.SYMBOL; }
        @Override public Type type() { return Type.SYMBOL; }
    }

    /** Managed JSON, kept as its compact canonical text (a frontend validates it before lowering). */
    record JsonLit(String text) implements Literal {
        @Override public Kind kind() { return Kind.JSON; }
        @Override public Type type() { return Type.JSON; }
    }
}
