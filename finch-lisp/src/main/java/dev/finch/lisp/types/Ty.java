package dev.finch.lisp.types;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An inference type: the IR's {@link dev.finch.ir.type.Type} plus mutable unification variables. Constructors are
 * applications by name ({@code int}, {@code option}, {@code list}, …); records are closed field maps; functions
 * carry an {@link Eff} so effects and yields flow without being part of type equality.
 */
public abstract sealed class Ty permits Ty.Var, Ty.Con, Ty.Rec, Ty.Fn {
    /** The discriminator for switches. */
    public enum Kind { VAR, CON, REC, FN }

    public abstract Kind kind();

    /** Follows bound variables to the representative type. */
    public Ty prune() {
        Ty t = this;
        while (t instanceof Var v && v.ref != null) t = v.ref;
        return t;
    }

    /** A unification variable; {@code level} drives let-generalization. */
    public static final class Var extends Ty {
        private static int counter;
        final int id;
        int level;
        Ty ref;

        Var(int level) { this.level = level; this.id = ++counter; }

        public int id() { return id; }

        public int level() { return level; }

        @Override public Kind kind() { return Kind.VAR; }

        @Override public String toString() { return ref != null ? ref.toString() : "?" + id; }
    }

    /**
     * A constructor application. Primitives have no args; {@code path<root>} and named types are nullary with the
     * full spelling as name; {@code variant} lists its tags (and which carry a payload) with payloads as args.
     */
    public static final class Con extends Ty {
        final String name;
        final List<Ty> args;
        final List<String> tags;
        final List<Boolean> payload;

        public Con(String name, List<Ty> args) { this(name, args, List.of(), List.of()); }

        Con(String name, List<Ty> args, List<String> tags, List<Boolean> payload) {
            this.name = name;
            this.args = List.copyOf(args);
            this.tags = List.copyOf(tags);
            this.payload = List.copyOf(payload);
        }

        public String name() { return name; }

        public List<Ty> args() { return args; }

        public List<String> tags() { return tags; }

        /** The payload type of a variant tag, null for a payload-free tag; throws when the tag is absent. */
        public Ty payloadOf(String tag) {
            int argIndex = 0;
            for (int i = 0; i < tags.size(); i++) {
                if (tags.get(i).equals(tag)) return payload.get(i) ? args.get(argIndex) : null;
                if (payload.get(i)) argIndex++;
            }
            throw new IllegalArgumentException(tag);
        }

        @Override public Kind kind() { return Kind.CON; }

        @Override public String toString() { return args.isEmpty() ? name : name + args; }
    }

    /** A closed record type, fields sorted by name. */
    public static final class Rec extends Ty {
        final SortedMap<String, Ty> fields;

        public Rec(java.util.Map<String, Ty> fields) { this.fields = new TreeMap<>(fields); }

        public SortedMap<String, Ty> fields() { return fields; }

        @Override public Kind kind() { return Kind.REC; }

        @Override public String toString() { return "record" + fields; }
    }

    /** A callable: inputs, outputs (Lisp functions have exactly one), and its effect class. */
    public static final class Fn extends Ty {
        final List<Ty> ins;
        final List<Ty> outs;
        final Eff eff;

        public Fn(List<Ty> ins, List<Ty> outs, Eff eff) {
            this.ins = List.copyOf(ins);
            this.outs = List.copyOf(outs);
            this.eff = eff;
        }

        public List<Ty> ins() { return ins; }

        public List<Ty> outs() { return outs; }

        public Eff eff() { return eff.find(); }

        @Override public Kind kind() { return Kind.FN; }

        @Override public String toString() { return ins + "->" + outs; }
    }
}
