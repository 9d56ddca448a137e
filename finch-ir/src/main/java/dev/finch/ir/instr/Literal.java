package dev.finch.ir.instr;

import dev.finch.ir.type.Type;

/** A literal value of the IR. */
public sealed interface Literal {
    /** The type of the value. */
    Type type();

    record IntLit(long value) implements Literal { @Override public Type type() { return Type.INT; } }

    record FloatLit(double value) implements Literal { @Override public Type type() { return Type.FLOAT; } }

    record StringLit(String value) implements Literal { @Override public Type type() { return Type.STRING; } }

    record BoolLit(boolean value) implements Literal { @Override public Type type() { return Type.BOOL; } }

    record UnitLit() implements Literal { @Override public Type type() { return Type.UNIT; } }

    /** A symbol {@code 'name}; never a string. */
    record SymbolLit(String name) implements Literal { @Override public Type type() { return Type.SYMBOL; } }

    /** Managed JSON, kept as its compact canonical text (a frontend validates it before lowering). */
    record JsonLit(String text) implements Literal { @Override public Type type() { return Type.JSON; } }
}
