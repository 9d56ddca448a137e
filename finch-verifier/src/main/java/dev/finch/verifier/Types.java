package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Structural helpers over types: variable mapping, instantiation, generalization and printing of rows. */
final class Types {
    private Types() { }

    /**
     * Rebuilds {@code t} with every type variable replaced by {@code f(var)}; a part in which nothing changes is
     * returned as it is (most types a program meets hold no variable, and this runs for every call it checks).
     */
    static Type mapVars(Type t, Function<Type.Var, Type> f) {
        return switch (t.kind()) {
            case PRIM, PATH -> t;
            case NAMED -> {
                Type.Named n = (Type.Named) t;
                if (n.definition().isEmpty()) yield t;
                Type d = n.definition().get();
                Type m = mapVars(d, f);
                yield m == d ? t : new Type.Named(n.name(), Optional.of(m));
            }
            case VAR -> f.apply((Type.Var) t);
            case OPTION -> {
                Type v = ((Type.OptionT) t).value(), m = mapVars(v, f);
                yield m == v ? t : new Type.OptionT(m);
            }
            case LIST -> {
                Type v = ((Type.ListT) t).element(), m = mapVars(v, f);
                yield m == v ? t : new Type.ListT(m);
            }
            case TASK -> {
                Type v = ((Type.TaskT) t).value(), m = mapVars(v, f);
                yield m == v ? t : new Type.TaskT(m);
            }
            case STREAM -> {
                Type v = ((Type.StreamT) t).element(), m = mapVars(v, f);
                yield m == v ? t : new Type.StreamT(m);
            }
            case RESOURCE -> {
                Type v = ((Type.ResourceT) t).of(), m = mapVars(v, f);
                yield m == v ? t : new Type.ResourceT(m);
            }
            case RESULT -> {
                Type.ResultT r = (Type.ResultT) t;
                Type ok = mapVars(r.ok(), f), err = mapVars(r.err(), f);
                yield ok == r.ok() && err == r.err() ? t : new Type.ResultT(ok, err);
            }
            case MAP -> {
                Type.MapT m = (Type.MapT) t;
                Type k = mapVars(m.key(), f), v = mapVars(m.value(), f);
                yield k == m.key() && v == m.value() ? t : new Type.MapT(k, v);
            }
            case FIBER -> {
                Type.FiberT x = (Type.FiberT) t;
                Type y = mapVars(x.yielded(), f), r = mapVars(x.result(), f);
                yield y == x.yielded() && r == x.result() ? t : new Type.FiberT(y, r);
            }
            case RECORD -> {
                Map<String, Type> fields = new TreeMap<>();
                boolean same = true;
                for (var e : ((Type.RecordT) t).fields().entrySet()) {
                    Type m = mapVars(e.getValue(), f);
                    same &= m == e.getValue();
                    fields.put(e.getKey(), m);
                }
                yield same ? t : new Type.RecordT(fields);
            }
            case VARIANT -> {
                Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                boolean same = true;
                for (var e : ((Type.VariantT) t).tags().entrySet()) {
                    Optional<Type> p = e.getValue();
                    if (p.isEmpty()) { tags.put(e.getKey(), p); continue; }
                    Type m = mapVars(p.get(), f);
                    same &= m == p.get();
                    tags.put(e.getKey(), m == p.get() ? p : Optional.of(m));
                }
                yield same ? t : new Type.VariantT(tags);
            }
            case FN -> {
                Type.Fn fn = (Type.Fn) t;
                List<Type> ins = mapRow(fn.ins(), f), outs = mapRow(fn.outs(), f);
                Optional<Type.Yields> yields = fn.yields();
                if (yields.isPresent()) {
                    Type.Yields y = yields.get();
                    Type a = mapVars(y.yielded(), f), b = mapVars(y.resumed(), f);
                    if (a != y.yielded() || b != y.resumed()) yields = Optional.of(new Type.Yields(a, b));
                }
                yield ins == fn.ins() && outs == fn.outs() && yields == fn.yields() ? t : new Type.Fn(ins, outs, fn.effects(), yields);
            }
        };
    }

    /** {@code row} with each type mapped; {@code row} itself when no type changes. */
    static List<Type> mapRow(List<Type> row, Function<Type.Var, Type> f) {
        List<Type> out = null;
        for (int i = 0; i < row.size(); i++) {
            Type t = row.get(i), m = mapVars(t, f);
            if (out == null && m != t) {
                out = new ArrayList<>(row.size());
                for (int j = 0; j < i; j++) out.add(row.get(j));
            }
            if (out != null) out.add(m);
        }
        return out == null ? row : out;
    }

    /** Every variable of {@code t} in order of first appearance. */
    static Set<Type.Var> vars(Type t) {
        Set<Type.Var> out = new LinkedHashSet<>();
        mapVars(t, new Collect(out));
        return out;
    }

    /** Adds each variable to {@code out}, leaving it as it is. A class, not a lambda, as {@link Freshen} is. */
    private record Collect(Set<Type.Var> out) implements java.util.function.Function<Type.Var, Type> {
        @Override
        public Type apply(Type.Var v) {
            out.add(v);
            return v;
        }
    }

    /** The names of the declared (non-meta) type variables of {@code t}. */
    static Set<String> rigidNames(Type t) {
        Set<String> out = new LinkedHashSet<>();
        for (Type.Var v : vars(t)) if (!Substitution.isMeta(v)) out.add(v.name());
        return out;
    }

    /**
     * Replaces every declared type variable of {@code t} that is not in {@code keep} by a fresh meta-variable,
     * consistently: one call site of {@code dup : a -> a a} gets one fresh variable for both outputs.
     */
    static Type instantiate(Type t, Substitution s, Origin at, Set<String> keep) {
        s.charge(size(t));
        return mapVars(t, new Freshen(s, at, keep));
    }

    /**
     * Each declared variable not in {@code keep} to one fresh meta-variable. A named class, not a lambda: every call
     * site instantiates, the first submission in a fresh JVM too, where linking a lambda costs about 0.7 ms.
     */
    private static final class Freshen implements java.util.function.Function<Type.Var, Type> {
        private final Substitution s;
        private final Origin at;
        private final Set<String> keep;
        /** Made at the first variable: most signatures a program calls have none. */
        private Map<String, Type> fresh;

        Freshen(Substitution s, Origin at, Set<String> keep) {
            this.s = s;
            this.at = at;
            this.keep = keep;
        }

        @Override
        public Type apply(Type.Var v) {
            if (Substitution.isMeta(v) || keep.contains(v.name())) return v;
            if (fresh == null) fresh = new HashMap<>(4);
            Type made = fresh.get(v.name());
            if (made == null) {
                made = s.fresh(at);
                fresh.put(v.name(), made);
            }
            return made;
        }
    }

    static Type.Fn instantiate(Type.Fn t, Substitution s, Origin at) { return (Type.Fn) instantiate(t, s, at, Set.of()); }

    /**
     * {@code sig} instantiated by matching: each declared variable replaced by the type it meets in the inputs
     * {@code st} holds on top (call {@link StackState#ensure} first), when the inputs are then exactly those types;
     * otherwise {@code null} — a variable appears only in an output or meets two different types, a part only
     * unification can settle (a meta-variable, a named, function, record, variant or fiber type around a variable),
     * or inputs that do not fit, whose error the ordinary path reports. What it answers is what instantiating with
     * fresh meta-variables and unifying the inputs binds them to, without making them: a generic word on a known
     * stack ({@code drop}, {@code dup}, {@code swap}…) then leaves no meta-variable for the substitution pass. It
     * charges the work {@link #instantiate} charges.
     */
    static Type.Fn matched(Type.Fn sig, StackState st, Substitution s) {
        int n = sig.ins().size();
        Bind bind = new Bind();
        for (int i = 0; i < n; i++) if (!match(sig.ins().get(i), st.fromTop(n - 1 - i), s, bind)) return null;
        if (bind.bound == null) return null; // no variable: instantiating changes nothing
        Type.Fn out = (Type.Fn) mapVars(sig, bind);
        if (bind.missed) return null;
        s.charge(size(sig));
        return out;
    }

    /** Matches a declared type against a stack type, noting what each variable meets; false when it cannot tell. */
    private static boolean match(Type pattern, Type actual, Substitution s, Bind bound) {
        switch (pattern.kind()) {
            case PRIM, PATH: {
                Type a = s.shallow(actual);
                return pattern == a || pattern.equals(a);
            }
            case VAR: {
                if (Substitution.isMeta(pattern)) return false;
                Type a = s.shallow(actual), before = bound.meets(((Type.Var) pattern).name(), a);
                return before == null || before == a || before.equals(a);
            }
            default:
                break;
        }
        Type a = s.shallow(actual);
        if (a.kind() != pattern.kind()) return false;
        return switch (pattern.kind()) {
            case OPTION -> match(((Type.OptionT) pattern).value(), ((Type.OptionT) a).value(), s, bound);
            case LIST -> match(((Type.ListT) pattern).element(), ((Type.ListT) a).element(), s, bound);
            case TASK -> match(((Type.TaskT) pattern).value(), ((Type.TaskT) a).value(), s, bound);
            case STREAM -> match(((Type.StreamT) pattern).element(), ((Type.StreamT) a).element(), s, bound);
            case RESOURCE -> match(((Type.ResourceT) pattern).of(), ((Type.ResourceT) a).of(), s, bound);
            case RESULT -> match(((Type.ResultT) pattern).ok(), ((Type.ResultT) a).ok(), s, bound)
                    && match(((Type.ResultT) pattern).err(), ((Type.ResultT) a).err(), s, bound);
            case MAP -> match(((Type.MapT) pattern).key(), ((Type.MapT) a).key(), s, bound)
                    && match(((Type.MapT) pattern).value(), ((Type.MapT) a).value(), s, bound);
            default -> false; // named, function, record, variant and fiber types: unification's rules, not matching
        };
    }

    /** Each variable to what it met (the map made at the first variable); notes one that met nothing. */
    private static final class Bind implements java.util.function.Function<Type.Var, Type> {
        private Map<String, Type> bound;
        boolean missed;

        /** Notes that {@code var} meets {@code t}; answers what it met before, or null. */
        Type meets(String var, Type t) {
            if (bound == null) bound = new HashMap<>(4);
            return bound.putIfAbsent(var, t);
        }

        @Override
        public Type apply(Type.Var v) {
            Type t = bound.get(v.name());
            if (t == null) {
                missed = true;
                return v;
            }
            return t;
        }
    }

    /** The nodes of {@code t} as a tree (a declared or already resolved type, whose size the limits bound). */
    static long size(Type t) {
        return 1 + switch (t.kind()) {
            case PRIM, PATH, VAR -> 0L;
            case NAMED -> ((Type.Named) t).definition().map(Types::size).orElse(0L);
            case OPTION -> size(((Type.OptionT) t).value());
            case LIST -> size(((Type.ListT) t).element());
            case TASK -> size(((Type.TaskT) t).value());
            case STREAM -> size(((Type.StreamT) t).element());
            case RESOURCE -> size(((Type.ResourceT) t).of());
            case RESULT -> size(((Type.ResultT) t).ok()) + size(((Type.ResultT) t).err());
            case MAP -> size(((Type.MapT) t).key()) + size(((Type.MapT) t).value());
            case FIBER -> size(((Type.FiberT) t).yielded()) + size(((Type.FiberT) t).result());
            case RECORD -> {
                long n = 0;
                for (Type f : ((Type.RecordT) t).fields().values()) n += size(f);
                yield n;
            }
            case VARIANT -> {
                long n = 0;
                for (Optional<Type> p : ((Type.VariantT) t).tags().values()) if (p.isPresent()) n += size(p.get());
                yield n;
            }
            case FN -> {
                Type.Fn f = (Type.Fn) t;
                long n = 0;
                for (Type x : f.ins()) n += size(x);
                for (Type x : f.outs()) n += size(x);
                if (f.yields().isPresent()) n += size(f.yields().get().yielded()) + size(f.yields().get().resumed());
                yield n;
            }
        };
    }

    /** Replaces the unresolved meta-variables left in {@code t} by {@code unit} (they never reached a signature). */
    static Type defaultMetas(Type t) { return mapVars(t, v -> Substitution.isMeta(v) ? Type.Prim.UNIT : v); }

    /** The first unresolved meta-variable in {@code t}, if any. */
    static Optional<Type.Var> firstMeta(Type t) {
        for (Type.Var v : vars(t)) if (Substitution.isMeta(v)) return Optional.of(v);
        return Optional.empty();
    }

    /** The name of the {@code i}-th generalized variable: a … z, then a1 … z1, and so on. */
    static String varName(int i) {
        char c = (char) ('a' + i % 26);
        return i < 26 ? String.valueOf(c) : c + String.valueOf(i / 26);
    }

    /** A row spelled for people, bottom to top; unresolved metas print as {@code _}. */
    static String row(Substitution s, List<Type> row) {
        if (row.isEmpty()) return "(empty)";
        StringBuilder b = new StringBuilder();
        for (Type t : row) {
            if (b.length() > 0) b.append(' ');
            b.append(show(s, t));
        }
        return b.toString();
    }

    /** A type spelled for people; unresolved metas print as {@code _}. */
    static String show(Substitution s, Type t) {
        Type r = mapVars(s.resolve(t), v -> Substitution.isMeta(v) ? new Type.Var("_") : v);
        return r instanceof Type.Fn ? "(" + r + ")" : r.toString();
    }
}
