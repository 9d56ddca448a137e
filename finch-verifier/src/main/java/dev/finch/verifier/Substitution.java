package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Bindings of meta-variables (unification variables) to types. Meta-variables are {@link Type.Var}s whose name
 * starts with {@code ?}, a spelling no declared type variable can have, so rigid variables of declared signatures
 * and metas coexist in one type without a new IR node. Bindings are trailed so that an overload attempt can be
 * undone without committing ({@link #mark()} / {@link #rollback(int)}).
 *
 * <p>Bindings can share: {@code ?2 = record{l:?1,r:?1}}, {@code ?3 = record{l:?2,r:?2}}, … describe a type that doubles
 * with each step (Hindley–Milner's exponential case) in linear space. {@link #resolve} is where such a type is
 * written out, so it is where its size is bounded: it counts the nodes it builds, charges them as work, and refuses a
 * type of more than {@code maxTypeSize} nodes ({@code E-LIMIT-014}) or nested deeper than {@code maxNesting}
 * ({@code E-LIMIT-012}; never deeper than {@link TypeSyntax#MAX_NESTING}, so every type the verifier lets through
 * can be spelled and read back) before it is ever materialized.
 */
final class Substitution {
    private final Map<String, Type> bindings = new HashMap<>();
    private final Map<String, Origin> origins = new HashMap<>();
    private final List<String> trail = new ArrayList<>();
    private final CompileBudget budget;
    private final int maxSize;
    private final int maxDepth;
    /** The instruction being checked, where a limit crossed while resolving is reported. */
    private Origin at = Origin.UNKNOWN;
    private int next;

    Substitution(CompileBudget budget) {
        this.budget = budget;
        this.maxSize = budget.limits().maxTypeSize();
        this.maxDepth = Math.min(budget.limits().maxNesting(), TypeSyntax.MAX_NESTING);
    }

    /** Notes the instruction being checked and charges one unit for it. */
    void at(Origin origin) {
        if (origin != null) at = origin;
        budget.charge(Phase.VERIFY, 1, at);
    }

    /** Charges {@code units} of checking work at the current instruction. */
    void charge(long units) { budget.charge(Phase.VERIFY, units, at); }

    /** A fresh meta-variable created for the instruction at {@code origin} (kept to point ambiguity errors there). */
    Type.Var fresh(Origin origin) {
        String name = "?" + (++next);
        origins.put(name, origin == null ? Origin.UNKNOWN : origin);
        return new Type.Var(name);
    }

    static boolean isMeta(Type t) { return t instanceof Type.Var v && v.name().startsWith("?"); }

    Origin originOf(Type.Var meta) { return origins.getOrDefault(meta.name(), Origin.UNKNOWN); }

    void bind(Type.Var meta, Type t) {
        bindings.put(meta.name(), t);
        trail.add(meta.name());
    }

    int mark() { return trail.size(); }

    void rollback(int mark) {
        while (trail.size() > mark) bindings.remove(trail.remove(trail.size() - 1));
    }

    /** Follows bindings at the top only. */
    Type shallow(Type t) {
        while (isMeta(t)) {
            Type b = bindings.get(((Type.Var) t).name());
            if (b == null) return t;
            t = b;
        }
        return t;
    }

    /** Applies the substitution everywhere inside {@code t}, within the type size and nesting limits. */
    Type resolve(Type t) {
        Resolver r = new Resolver();
        Type out = r.go(t, 0);
        charge(r.nodes);
        return out;
    }

    Type.Fn resolveFn(Type.Fn f) { return (Type.Fn) resolve(f); }

    List<Type> resolveAll(List<Type> row) {
        List<Type> out = new ArrayList<>(row.size());
        for (Type t : row) out.add(resolve(t));
        return out;
    }

    /** One resolution: rebuilds a type with every bound meta replaced, counting what it builds. */
    private final class Resolver {
        long nodes;

        Type go(Type t, int depth) {
            t = shallow(t);
            if (++nodes > maxSize) budget.typeSize(Phase.VERIFY, nodes, at);
            if (depth > maxDepth) budget.nesting(Phase.VERIFY, depth, at);
            int d = depth + 1;
            return switch (t.kind()) {
                case PRIM, PATH, NAMED, VAR -> t;
                case OPTION -> new Type.OptionT(go(((Type.OptionT) t).value(), d));
                case LIST -> new Type.ListT(go(((Type.ListT) t).element(), d));
                case TASK -> new Type.TaskT(go(((Type.TaskT) t).value(), d));
                case STREAM -> new Type.StreamT(go(((Type.StreamT) t).element(), d));
                case RESOURCE -> new Type.ResourceT(go(((Type.ResourceT) t).of(), d));
                case RESULT -> {
                    Type.ResultT r = (Type.ResultT) t;
                    Type ok = go(r.ok(), d);
                    yield new Type.ResultT(ok, go(r.err(), d));
                }
                case MAP -> {
                    Type.MapT m = (Type.MapT) t;
                    Type k = go(m.key(), d);
                    yield new Type.MapT(k, go(m.value(), d));
                }
                case FIBER -> {
                    Type.FiberT x = (Type.FiberT) t;
                    Type y = go(x.yielded(), d);
                    yield new Type.FiberT(y, go(x.result(), d));
                }
                case RECORD -> {
                    Map<String, Type> fields = new TreeMap<>();
                    for (var e : ((Type.RecordT) t).fields().entrySet()) fields.put(e.getKey(), go(e.getValue(), d));
                    yield new Type.RecordT(fields);
                }
                case VARIANT -> {
                    Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                    for (var e : ((Type.VariantT) t).tags().entrySet()) tags.put(e.getKey(), e.getValue().map(p -> go(p, d)));
                    yield new Type.VariantT(tags);
                }
                case FN -> {
                    Type.Fn fn = (Type.Fn) t;
                    List<Type> ins = new ArrayList<>(fn.ins().size());
                    for (Type x : fn.ins()) ins.add(go(x, d));
                    List<Type> outs = new ArrayList<>(fn.outs().size());
                    for (Type x : fn.outs()) outs.add(go(x, d));
                    Optional<Type.Yields> yields = fn.yields().isPresent()
                            ? Optional.of(new Type.Yields(go(fn.yields().get().yielded(), d), go(fn.yields().get().resumed(), d)))
                            : Optional.empty();
                    yield new Type.Fn(ins, outs, fn.effects(), yields);
                }
            };
        }
    }
}
