package dev.finch.ir.type;

import dev.finch.ir.cap.Capability;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A type in the contract's compact spelling. Closed: every consumer switches exhaustively over {@link #kind()}.
 * {@link TypeSyntax#parse} and {@code toString()} are the one parser and the one printer used everywhere.
 */
public sealed interface Type {

    /** The discriminator for exhaustive switches. */
    enum Kind { PRIM, PATH, OPTION, RESULT, LIST, MAP, RECORD, VARIANT, TASK, FIBER, STREAM, RESOURCE, NAMED, FN, VAR }

    Kind kind();

    /**
     * True when no type variable occurs inside. Static, not a default method: a default method would make
     * initializing {@link Prim} initialize this interface first, while Prim's constants are still null.
     */
    static boolean isGround(Type type) {
        return switch (type.kind()) {
            case PRIM, PATH -> true;
            case NAMED -> ((Named) type).definition().map(Type::isGround).orElse(true);
            case VAR -> false;
            case OPTION -> isGround(((OptionT) type).value());
            case RESULT -> isGround(((ResultT) type).ok()) && isGround(((ResultT) type).err());
            case LIST -> isGround(((ListT) type).element());
            case MAP -> isGround(((MapT) type).key()) && isGround(((MapT) type).value());
            case RECORD -> ((RecordT) type).fields().values().stream().allMatch(Type::isGround);
            case VARIANT -> ((VariantT) type).tags().values().stream().allMatch(t -> t.map(Type::isGround).orElse(true));
            case TASK -> isGround(((TaskT) type).value());
            case FIBER -> isGround(((FiberT) type).yielded()) && isGround(((FiberT) type).result());
            case STREAM -> isGround(((StreamT) type).element());
            case RESOURCE -> isGround(((ResourceT) type).of());
            case FN -> {
                Fn f = (Fn) type;
                yield f.ins().stream().allMatch(Type::isGround) && f.outs().stream().allMatch(Type::isGround)
                        && f.yields().map(y -> isGround(y.yielded()) && isGround(y.resumed())).orElse(true);
            }
        };
    }

    /** The primitive scalar types. */
    enum Prim implements Type {
        INT("int"), FLOAT("float"), BOOL("bool"), STRING("string"), BYTES("bytes"), UNIT("unit"), SYMBOL("symbol"), JSON("json");

        private final String spelling;

        Prim(String spelling) { this.spelling = spelling; }

        public String spelling() { return spelling; }

        @Override public Kind kind() { return Kind.PRIM; }

        @Override public String toString() { return spelling; }

        /** The primitive spelled {@code name}, if any. */
        public static Optional<Prim> named(String name) {
            for (Prim p : values()) if (p.spelling.equals(name)) return Optional.of(p);
            return Optional.empty();
        }
    }

    /** A refined path constrained to an installed root: {@code path} (workspace) or {@code path<host-machine>}. */
    record PathT(String root) implements Type {
        public static final String WORKSPACE = "workspace";
        public static final PathT WORKSPACE_PATH = new PathT(WORKSPACE);
        public PathT { Objects.requireNonNull(root); }
        @Override public Kind kind() { return Kind.PATH; }
        @Override public String toString() { return root.equals(WORKSPACE) ? "path" : "path<" + root + ">"; }
    }

    record OptionT(Type value) implements Type {
        @Override public Kind kind() { return Kind.OPTION; }
        @Override public String toString() { return "option<" + value + ">"; }
    }

    record ResultT(Type ok, Type err) implements Type {
        @Override public Kind kind() { return Kind.RESULT; }
        @Override public String toString() { return "result<" + ok + "," + err + ">"; }
    }

    record ListT(Type element) implements Type {
        @Override public Kind kind() { return Kind.LIST; }
        @Override public String toString() { return "list<" + element + ">"; }
    }

    record MapT(Type key, Type value) implements Type {
        @Override public Kind kind() { return Kind.MAP; }
        @Override public String toString() { return "map<" + key + "," + value + ">"; }
    }

    /** A record; fields are kept sorted by name, which is the canonical order. */
    record RecordT(Map<String, Type> fields) implements Type {
        public RecordT { fields = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(fields)); }
        @Override public Kind kind() { return Kind.RECORD; }
        @Override public String toString() {
            StringBuilder b = new StringBuilder("record{");
            String sep = "";
            for (var e : fields.entrySet()) { b.append(sep).append(e.getKey()).append(':').append(e.getValue()); sep = ","; }
            return b.append('}').toString();
        }
    }

    /** A closed tagged sum; tags keep their declared order, each with no payload or one. */
    record VariantT(Map<String, Optional<Type>> tags) implements Type {
        public VariantT { tags = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tags)); }
        @Override public Kind kind() { return Kind.VARIANT; }
        @Override public String toString() {
            StringBuilder b = new StringBuilder("variant{");
            String sep = "";
            for (var e : tags.entrySet()) {
                b.append(sep).append(e.getKey());
                e.getValue().ifPresent(t -> b.append('(').append(t).append(')'));
                sep = "|";
            }
            return b.append('}').toString();
        }
        @Override public boolean equals(Object o) {
            return o instanceof VariantT v && List.copyOf(tags.entrySet()).equals(List.copyOf(v.tags.entrySet()));
        }
        @Override public int hashCode() { return List.copyOf(tags.entrySet()).hashCode(); }
    }

    record TaskT(Type value) implements Type {
        @Override public Kind kind() { return Kind.TASK; }
        @Override public String toString() { return "task<" + value + ">"; }
    }

    record FiberT(Type yielded, Type result) implements Type {
        @Override public Kind kind() { return Kind.FIBER; }
        @Override public String toString() { return "fiber<" + yielded + "," + result + ">"; }
    }

    record StreamT(Type element) implements Type {
        @Override public Kind kind() { return Kind.STREAM; }
        @Override public String toString() { return "stream<" + element + ">"; }
    }

    record ResourceT(Type of) implements Type {
        @Override public Kind kind() { return Kind.RESOURCE; }
        @Override public String toString() { return "resource<" + of + ">"; }
    }

    /**
     * An opaque host-defined type name such as {@code agent-result} or {@code capability-grant}; or, with a
     * {@code definition}, a recursive type {@code rec<Name,T>}: inside {@code T}, each {@code Name} (a named type
     * without a definition) stands for the whole recursive type, and a value of it is a value of {@link #unfold()}
     * — {@code rec<Tree,variant{Leaf|Node(record{left:Tree,right:Tree})}>}. A recursive type is equal to another with
     * the same name and definition, and to its unfolding (the verifier unfolds where it meets a structure).
     */
    record Named(String name, Optional<Type> definition) implements Type {
        public Named {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(definition, "definition");
        }

        /** An opaque named type (or, inside a recursive type's definition, the reference to it). */
        public Named(String name) { this(name, Optional.empty()); }

        /** True for a recursive type (one with a definition). */
        public boolean isRecursive() { return definition.isPresent(); }

        /**
         * One level of a recursive type's structure: its definition with each reference to it replaced by the whole
         * type (a nested recursive type of the same name binds its own references). An opaque type is itself.
         */
        public Type unfold() { return definition.map(d -> Recursion.replace(d, name, this)).orElse(this); }

        @Override public Kind kind() { return Kind.NAMED; }
        @Override public String toString() { return definition.map(d -> "rec<" + name + "," + d + ">").orElse(name); }
    }

    /**
     * A type variable of a polymorphic signature: a lowercase letter optionally followed by digits ({@code a}, {@code b2}).
     */
    record Var(String name) implements Type {
        @Override public Kind kind() { return Kind.VAR; }
        @Override public String toString() { return name; }
    }

    /** What a callable publishes with {@code yield}: values of {@code yielded}, resumed with {@code resumed}. */
    record Yields(Type yielded, Type resumed) {
        @Override public String toString() { return "yields<" + yielded + "," + resumed + ">"; }
    }

    /**
     * A list of types that is immutable and holds no null: the checked IR's {@code Row}, the only one. A signature
     * keeps it as it is instead of copying it (a session's program is typed over the whole stack, at every submission).
     */
    sealed interface Frozen extends List<Type> permits dev.finch.ir.checked.Row { }

    /**
     * A callable type {@code ins -> outs ! {caps} yields<Y,R>}; also a word's signature.
     * Effects are canonical capability requirements, kept sorted by their spelling.
     */
    record Fn(List<Type> ins, List<Type> outs, SortedSet<Capability> effects, Optional<Yields> yields) implements Type {
        public Fn {
            ins = ins instanceof Frozen ? ins : List.copyOf(ins);
            outs = outs instanceof Frozen ? outs : List.copyOf(outs);
            // Most signatures are pure: they share one empty set instead of each copying one.
            effects = effects.isEmpty() ? NO_EFFECTS : java.util.Collections.unmodifiableSortedSet(new TreeSet<>(effects));
            Objects.requireNonNull(yields);
        }

        private static final SortedSet<Capability> NO_EFFECTS = java.util.Collections.emptySortedSet();

        public static Fn of(List<Type> ins, List<Type> outs) { return new Fn(ins, outs, new TreeSet<>(), Optional.empty()); }

        public boolean isPure() { return effects.isEmpty(); }

        public Fn withEffects(java.util.Collection<Capability> caps) { return new Fn(ins, outs, new TreeSet<>(caps), yields); }

        public Fn withYields(Optional<Yields> y) { return new Fn(ins, outs, effects, y); }

        @Override public Kind kind() { return Kind.FN; }

        @Override public String toString() {
            StringBuilder b = new StringBuilder();
            for (Type t : ins) b.append(TypeSyntax.nested(t)).append(' ');
            b.append("->");
            for (Type t : outs) b.append(' ').append(TypeSyntax.nested(t));
            if (!effects.isEmpty()) {
                b.append(" ! {");
                String sep = "";
                for (Capability c : effects) { b.append(sep).append(c); sep = ","; }
                b.append('}');
            }
            yields.ifPresent(y -> b.append(' ').append(y));
            return b.toString();
        }
    }

    Type INT = Prim.INT;
    Type FLOAT = Prim.FLOAT;
    Type BOOL = Prim.BOOL;
    Type STRING = Prim.STRING;
    Type BYTES = Prim.BYTES;
    Type UNIT = Prim.UNIT;
    Type SYMBOL = Prim.SYMBOL;
    Type JSON = Prim.JSON;
    Type PATH = PathT.WORKSPACE_PATH;

    /**
     * Whether two types are the same up to folding recursive types: {@code rec<T,D>} is its unfolding wherever either
     * side spells it (a value read back from JSON holds unfolded structure where a constructed one names the type).
     */
    static boolean equivalent(Type a, Type b) { return Recursion.equivalent(a, b); }

    static Type option(Type t) { return new OptionT(t); }
    static Type result(Type ok, Type err) { return new ResultT(ok, err); }
    static Type list(Type t) { return new ListT(t); }
    static Type map(Type k, Type v) { return new MapT(k, v); }
    static Type var(String name) { return new Var(name); }
}
