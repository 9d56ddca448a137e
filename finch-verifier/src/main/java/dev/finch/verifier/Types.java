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

    /** Rebuilds {@code t} with every type variable replaced by {@code f(var)}. */
    static Type mapVars(Type t, Function<Type.Var, Type> f) {
        return switch (t.kind()) {
            case PRIM, PATH -> t;
            case NAMED -> ((Type.Named) t).definition().map(d -> (Type) new Type.Named(((Type.Named) t).name(), Optional.of(mapVars(d, f)))).orElse(t);
            case VAR -> f.apply((Type.Var) t);
            case OPTION -> new Type.OptionT(mapVars(((Type.OptionT) t).value(), f));
            case LIST -> new Type.ListT(mapVars(((Type.ListT) t).element(), f));
            case TASK -> new Type.TaskT(mapVars(((Type.TaskT) t).value(), f));
            case STREAM -> new Type.StreamT(mapVars(((Type.StreamT) t).element(), f));
            case RESOURCE -> new Type.ResourceT(mapVars(((Type.ResourceT) t).of(), f));
            case RESULT -> {
                Type.ResultT r = (Type.ResultT) t;
                yield new Type.ResultT(mapVars(r.ok(), f), mapVars(r.err(), f));
            }
            case MAP -> {
                Type.MapT m = (Type.MapT) t;
                yield new Type.MapT(mapVars(m.key(), f), mapVars(m.value(), f));
            }
            case FIBER -> {
                Type.FiberT x = (Type.FiberT) t;
                yield new Type.FiberT(mapVars(x.yielded(), f), mapVars(x.result(), f));
            }
            case RECORD -> {
                Map<String, Type> fields = new TreeMap<>();
                for (var e : ((Type.RecordT) t).fields().entrySet()) fields.put(e.getKey(), mapVars(e.getValue(), f));
                yield new Type.RecordT(fields);
            }
            case VARIANT -> {
                Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                for (var e : ((Type.VariantT) t).tags().entrySet()) tags.put(e.getKey(), e.getValue().map(p -> mapVars(p, f)));
                yield new Type.VariantT(tags);
            }
            case FN -> {
                Type.Fn fn = (Type.Fn) t;
                yield new Type.Fn(mapRow(fn.ins(), f), mapRow(fn.outs(), f), fn.effects(),
                        fn.yields().map(y -> new Type.Yields(mapVars(y.yielded(), f), mapVars(y.resumed(), f))));
            }
        };
    }

    static List<Type> mapRow(List<Type> row, Function<Type.Var, Type> f) {
        List<Type> out = new ArrayList<>(row.size());
        for (Type t : row) out.add(mapVars(t, f));
        return out;
    }

    /** Every variable of {@code t} in order of first appearance. */
    static Set<Type.Var> vars(Type t) {
        Set<Type.Var> out = new LinkedHashSet<>();
        mapVars(t, v -> { out.add(v); return v; });
        return out;
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
        Map<String, Type> fresh = new HashMap<>();
        return mapVars(t, v -> {
            if (Substitution.isMeta(v) || keep.contains(v.name())) return v;
            return fresh.computeIfAbsent(v.name(), n -> s.fresh(at));
        });
    }

    static Type.Fn instantiate(Type.Fn t, Substitution s, Origin at) { return (Type.Fn) instantiate(t, s, at, Set.of()); }

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
            case RECORD -> ((Type.RecordT) t).fields().values().stream().mapToLong(Types::size).sum();
            case VARIANT -> ((Type.VariantT) t).tags().values().stream().mapToLong(p -> p.map(Types::size).orElse(0L)).sum();
            case FN -> {
                Type.Fn f = (Type.Fn) t;
                long n = f.ins().stream().mapToLong(Types::size).sum() + f.outs().stream().mapToLong(Types::size).sum();
                yield n + f.yields().map(y -> size(y.yielded()) + size(y.resumed())).orElse(0L);
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
