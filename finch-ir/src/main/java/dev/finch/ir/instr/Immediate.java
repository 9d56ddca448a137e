package dev.finch.ir.instr;

import dev.finch.ir.type.Type;

/** A static argument of a {@link Instr.Call}: a type or a name (a tag or a literal field name). */
public sealed interface Immediate {
    /** The discriminator for exhaustive switches (Java 17 has no pattern switch). */
    enum Kind { TYPE, NAME }

    Kind kind();

    record TypeArg(Type type) implements Immediate {
        @Override public Kind kind() { return Kind.TYPE; }
        @Override public String toString() { return type.toString(); }
    }

    record NameArg(String name) implements Immediate {
        @Override public Kind kind() { return Kind.NAME; }
        @Override public String toString() { return name; }
    }
}
