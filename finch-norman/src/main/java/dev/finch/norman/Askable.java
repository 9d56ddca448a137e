package dev.finch.norman;

import dev.finch.ir.type.Type;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An askable µNorman type (language reference, "Which types can be asked for"): built only from Text, Num, Bool,
 * Sym, List, and datatypes or records whose fields are all askable, with the optional size bounds that the IR type
 * does not carry. It is what {@code validate} (and the next issue's {@code ask}) checks JSON against, and
 * {@link #irType()} is the type {@code show} writes values of it by.
 */
public sealed interface Askable {
    /** The IR type of values of this type (Text→string, Num→float, Bool→bool, Sym→symbol, …). */
    Type irType();

    /** {@code Text} or {@code (Text n)}: at most n bytes of UTF-8. */
    record Text(OptionalLong maxBytes) implements Askable {
        @Override public Type irType() { return Type.Prim.STRING; }
        @Override public String toString() { return maxBytes.isPresent() ? "(Text " + maxBytes.getAsLong() + ")" : "Text"; }
    }

    /** {@code Num}. */
    record Num() implements Askable {
        @Override public Type irType() { return Type.Prim.FLOAT; }
        @Override public String toString() { return "Num"; }
    }

    /** {@code Bool}. */
    record Bool() implements Askable {
        @Override public Type irType() { return Type.Prim.BOOL; }
        @Override public String toString() { return "Bool"; }
    }

    /** {@code Sym}. */
    record Sym() implements Askable {
        @Override public Type irType() { return Type.Prim.SYMBOL; }
        @Override public String toString() { return "Sym"; }
    }

    /** {@code (List t)} or {@code (List t n)}: at most n elements. */
    record ListOf(Askable element, OptionalLong maxItems) implements Askable {
        @Override public Type irType() { return Type.list(element.irType()); }
        @Override public String toString() { return "(List " + element + (maxItems.isPresent() ? " " + maxItems.getAsLong() : "") + ")"; }
    }

    /**
     * Inside a recursive datatype or record, a reference to it (or to another declaration it is inside): a value of
     * the enclosing declaration of that name. Its IR type is the reference the enclosing recursive type binds.
     */
    record Ref(String name) implements Askable {
        public Ref { java.util.Objects.requireNonNull(name, "name"); }
        @Override public Type irType() { return new Type.Named(name); }
        @Override public String toString() { return name; }
    }

    /** A record: every field, by name (kept sorted, like the IR's record types). */
    record Record(String name, Map<String, Askable> fields) implements Askable {
        public Record { fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields)); }
        @Override public Type irType() { return recursive(name, this, new Type.RecordT(irFields(fields))); }
        @Override public String toString() { return name; }
    }

    /** A datatype: its constructors in declaration order, each with its fields (none for a nullary constructor). */
    record Datatype(String name, Map<String, Map<String, Askable>> constructors) implements Askable {
        public Datatype {
            Map<String, Map<String, Askable>> copy = new LinkedHashMap<>();
            constructors.forEach((c, f) -> copy.put(c, java.util.Collections.unmodifiableMap(new TreeMap<>(f))));
            constructors = java.util.Collections.unmodifiableMap(copy);
        }

        @Override public Type irType() {
            Map<String, Optional<Type>> tags = new LinkedHashMap<>();
            constructors.forEach((c, f) -> tags.put(c, f.isEmpty() ? Optional.empty() : Optional.of(new Type.RecordT(irFields(f)))));
            return recursive(name, this, new Type.VariantT(tags));
        }

        @Override public String toString() { return name; }
    }

    /** {@code structure} as the recursive IR type {@code rec<name,…>} when {@code decl} refers to itself, else as it is. */
    private static Type recursive(String name, Askable decl, Type structure) {
        return refersTo(name, decl, true) ? new Type.Named(name, Optional.of(structure)) : structure;
    }

    /** True when {@code t} contains a {@link Ref} to {@code name} not bound by a nested declaration of that name. */
    static boolean refersTo(String name, Askable t, boolean top) {
        if (t instanceof Ref r) return r.name().equals(name);
        if (t instanceof ListOf l) return refersTo(name, l.element(), false);
        if (t instanceof Record r) {
            if (!top && r.name().equals(name)) return false;
            return r.fields().values().stream().anyMatch(f -> refersTo(name, f, false));
        }
        if (t instanceof Datatype d) {
            if (!top && d.name().equals(name)) return false;
            return d.constructors().values().stream().anyMatch(fs -> fs.values().stream().anyMatch(f -> refersTo(name, f, false)));
        }
        return false;
    }

    private static Map<String, Type> irFields(Map<String, Askable> fields) {
        Map<String, Type> out = new LinkedHashMap<>();
        new TreeMap<>(fields).forEach((n, t) -> out.put(n, t.irType()));
        return out;
    }

    /** Shorthands for tests and embedders. */
    static Askable text() { return new Text(OptionalLong.empty()); }

    /** {@code (List t)}. */
    static Askable listOf(Askable element) { return new ListOf(element, OptionalLong.empty()); }
}
