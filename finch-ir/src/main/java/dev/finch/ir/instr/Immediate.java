package dev.finch.ir.instr;

import dev.finch.ir.type.Type;

/** A static argument of a {@link Instr.Call}: a type or a name (a tag or a literal field name). */
public sealed interface Immediate {
    record TypeArg(Type type) implements Immediate { @Override public String toString() { return type.toString(); } }

    record NameArg(String name) implements Immediate { @Override public String toString() { return name; } }
}
