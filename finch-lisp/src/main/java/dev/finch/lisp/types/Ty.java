package dev.finch.lisp.types;

import dev.finch.frontend.types.Term;
import dev.finch.frontend.types.Unifier;
import dev.finch.frontend.types.VarSupply;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An inference type: the IR's {@link dev.finch.ir.type.Type} plus unification variables, as a term of the frontend
 * kit's Hindley–Milner core ({@link Term}: {@link #prune()}, levels and binding are the kit's). Constructors are
 * applications by name ({@code int}, {@code option}, {@code list}, …); records are closed field maps; functions carry an
 * {@link Eff} so effects and yields flow without being part of type equality (they are unified beside the parts, in
 * {@link Fn#unified}).
 */
public abstract sealed class Ty extends Term<Ty> permits Ty.Var, Ty.Con, Ty.Rec, Ty.Fn {
    /** The discriminator for switches. */
    public enum Kind { VAR, CON, REC, FN }

    Ty() { }

    Ty(VarSupply supply, int level) { super(supply, level); }

    public abstract Kind kind();

    /** A structure's parts in unification order: a constructor's arguments, a record's fields by name, a function's inputs then outputs. */
    @Override protected List<Ty> parts() {
        switch (kind()) {
            case CON: return ((Con) this).args;
            case REC: return List.copyOf(((Rec) this).fields.values());
            case FN: {
                Fn f = (Fn) this;
                List<Ty> all = new ArrayList<>(f.ins.size() + f.outs.size());
                all.addAll(f.ins);
                all.addAll(f.outs);
                return all;
            }
            default: return List.of();
        }
    }

    /** Same constructor: a name with its tags, a record's field names, a function's numbers of inputs and outputs. */
    @Override protected boolean sameShape(Ty other) {
        if (kind() != other.kind()) return false;
        switch (kind()) {
            case CON: {
                Con a = (Con) this;
                Con b = (Con) other;
                return a.name.equals(b.name) && a.args.size() == b.args.size() && a.tags.equals(b.tags) && a.payload.equals(b.payload);
            }
            case REC: return ((Rec) this).fields.keySet().equals(((Rec) other).fields.keySet());
            case FN: {
                Fn a = (Fn) this;
                Fn b = (Fn) other;
                return a.ins.size() == b.ins.size() && a.outs.size() == b.outs.size();
            }
            default: return false;
        }
    }

    @Override protected Ty withParts(List<Ty> parts) {
        switch (kind()) {
            case CON: {
                Con c = (Con) this;
                return new Con(c.name, parts, c.tags, c.payload);
            }
            case REC: {
                java.util.Map<String, Ty> f = new TreeMap<>();
                int i = 0;
                for (String k : ((Rec) this).fields.keySet()) f.put(k, parts.get(i++));
                return new Rec(f);
            }
            case FN: {
                Fn f = (Fn) this;
                return new Fn(parts.subList(0, f.ins.size()), parts.subList(f.ins.size(), parts.size()), f.eff);
            }
            default: throw new IllegalStateException("a variable has no parts");
        }
    }

    /** A unification variable; its level (the kit's) drives let-generalization. */
    public static final class Var extends Ty {
        Var(VarSupply supply, int level) { super(supply, level); }

        @Override public Kind kind() { return Kind.VAR; }

        @Override public String toString() { return binding() != null ? binding().toString() : "?" + id(); }
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

        /** Two functions unified: their effect classes merge, and their yields (when both yield) unify too. */
        @Override protected void unified(Ty other, Unifier.More<Ty> more) {
            Eff ea = eff.find();
            Eff eb = ((Fn) other).eff.find();
            if (ea != eb) {
                if (ea.yielded != null && eb.yielded != null) more.unify(ea.yielded, eb.yielded);
                ea.mergeInto(eb);
            }
        }

        @Override public String toString() { return ins + "->" + outs; }
    }
}
