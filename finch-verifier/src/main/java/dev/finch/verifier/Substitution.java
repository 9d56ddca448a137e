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

    /**
     * Whether any meta-variable was ever made: when none was, no type of the checked tree holds one, and applying
     * this substitution changes nothing.
     */
    boolean madeMetas() { return next > 0; }

    static boolean isMeta(Type t) { return t instanceof Type.Var v && v.name().startsWith("?"); }

    Origin originOf(Type.Var meta) { return origins.getOrDefault(meta.name(), Origin.UNKNOWN); }

    void bind(Type.Var meta, Type t) {
        bindings.put(meta.name(), t);
        trail.add(meta.name());
    }

    int mark() { return trail.size(); }

    /** Pairs of recursive types assumed equal while their unfoldings are compared ({@link Unifier}). */
    final java.util.Set<List<Type>> assumed = new java.util.HashSet<>();

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

    /**
     * A signature resolved part by part: its inputs and outputs are rows, each type bounded on its own (a program
     * that leaves 20,000 values on the stack has a 20,000-output signature, not one type of 20,000 parts).
     */
    Type.Fn resolveFn(Type.Fn f) {
        List<Type> ins = resolveAll(f.ins());
        List<Type> outs = resolveAll(f.outs());
        Optional<Type.Yields> yields = f.yields().map(y -> new Type.Yields(resolve(y.yielded()), resolve(y.resumed())));
        return new Type.Fn(ins, outs, f.effects(), yields);
    }

    List<Type> resolveAll(List<Type> row) {
        List<Type> out = new ArrayList<>(row.size());
        for (Type t : row) out.add(resolve(t));
        return out;
    }

    /**
     * True when meta {@code name} occurs in {@code t} (the occurs check), walking the bindings without building
     * anything, within the same size and nesting bounds as {@link #resolve}.
     */
    boolean occurs(String name, Type t) {
        Resolver r = new Resolver();
        boolean found = r.occurs(name, t, 0);
        charge(r.nodes);
        return found;
    }

    /**
     * One resolution: rebuilds a type with every bound meta replaced, counting what it visits. A part in which
     * nothing changes is returned as it is, so resolving a type without bound metas allocates nothing.
     */
    private final class Resolver {
        long nodes;

        /**
         * The depth of a function type's input or output, measured as {@link TypeSyntax} nests it: a row's types sit at
         * the function's own level, except a function among them, which is parenthesized.
         */
        private int rowDepth(Type x, int depth) { return shallow(x) instanceof Type.Fn ? depth + 1 : depth; }

        private void count(int depth) {
            if (++nodes > maxSize) budget.typeSize(Phase.VERIFY, nodes, at);
            if (depth > maxDepth) budget.nesting(Phase.VERIFY, depth, at);
        }

        boolean occurs(String name, Type t, int depth) {
            t = shallow(t);
            count(depth);
            int d = depth + 1;
            return switch (t.kind()) {
                case PRIM, PATH -> false;
                case NAMED -> ((Type.Named) t).isRecursive() && occurs(name, ((Type.Named) t).definition().get(), d);
                case VAR -> ((Type.Var) t).name().equals(name);
                case OPTION -> occurs(name, ((Type.OptionT) t).value(), d);
                case LIST -> occurs(name, ((Type.ListT) t).element(), d);
                case TASK -> occurs(name, ((Type.TaskT) t).value(), d);
                case STREAM -> occurs(name, ((Type.StreamT) t).element(), d);
                case RESOURCE -> occurs(name, ((Type.ResourceT) t).of(), d);
                case RESULT -> occurs(name, ((Type.ResultT) t).ok(), d) || occurs(name, ((Type.ResultT) t).err(), d);
                case MAP -> occurs(name, ((Type.MapT) t).key(), d) || occurs(name, ((Type.MapT) t).value(), d);
                case FIBER -> occurs(name, ((Type.FiberT) t).yielded(), d) || occurs(name, ((Type.FiberT) t).result(), d);
                case RECORD -> {
                    for (Type f : ((Type.RecordT) t).fields().values()) if (occurs(name, f, d)) yield true;
                    yield false;
                }
                case VARIANT -> {
                    for (Optional<Type> p : ((Type.VariantT) t).tags().values()) if (p.isPresent() && occurs(name, p.get(), d)) yield true;
                    yield false;
                }
                case FN -> {
                    Type.Fn fn = (Type.Fn) t;
                    for (Type x : fn.ins()) if (occurs(name, x, rowDepth(x, depth))) yield true;
                    for (Type x : fn.outs()) if (occurs(name, x, rowDepth(x, depth))) yield true;
                    yield fn.yields().isPresent() && (occurs(name, fn.yields().get().yielded(), d) || occurs(name, fn.yields().get().resumed(), d));
                }
            };
        }

        Type go(Type t, int depth) {
            t = shallow(t);
            count(depth);
            int d = depth + 1;
            switch (t.kind()) {
                case PRIM, PATH, VAR:
                    return t;
                case NAMED: {
                    Type.Named n = (Type.Named) t;
                    if (!n.isRecursive()) return t;
                    Type def = n.definition().get(), x = go(def, d);
                    return x == def ? t : new Type.Named(n.name(), Optional.of(x));
                }
                case OPTION: {
                    Type v = ((Type.OptionT) t).value(), x = go(v, d);
                    return x == v ? t : new Type.OptionT(x);
                }
                case LIST: {
                    Type v = ((Type.ListT) t).element(), x = go(v, d);
                    return x == v ? t : new Type.ListT(x);
                }
                case TASK: {
                    Type v = ((Type.TaskT) t).value(), x = go(v, d);
                    return x == v ? t : new Type.TaskT(x);
                }
                case STREAM: {
                    Type v = ((Type.StreamT) t).element(), x = go(v, d);
                    return x == v ? t : new Type.StreamT(x);
                }
                case RESOURCE: {
                    Type v = ((Type.ResourceT) t).of(), x = go(v, d);
                    return x == v ? t : new Type.ResourceT(x);
                }
                case RESULT: {
                    Type.ResultT r = (Type.ResultT) t;
                    Type ok = go(r.ok(), d), err = go(r.err(), d);
                    return ok == r.ok() && err == r.err() ? t : new Type.ResultT(ok, err);
                }
                case MAP: {
                    Type.MapT m = (Type.MapT) t;
                    Type k = go(m.key(), d), v = go(m.value(), d);
                    return k == m.key() && v == m.value() ? t : new Type.MapT(k, v);
                }
                case FIBER: {
                    Type.FiberT f = (Type.FiberT) t;
                    Type y = go(f.yielded(), d), r = go(f.result(), d);
                    return y == f.yielded() && r == f.result() ? t : new Type.FiberT(y, r);
                }
                case RECORD: {
                    Map<String, Type> fields = new TreeMap<>();
                    boolean same = true;
                    for (var e : ((Type.RecordT) t).fields().entrySet()) {
                        Type x = go(e.getValue(), d);
                        same &= x == e.getValue();
                        fields.put(e.getKey(), x);
                    }
                    return same ? t : new Type.RecordT(fields);
                }
                case VARIANT: {
                    Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                    boolean same = true;
                    for (var e : ((Type.VariantT) t).tags().entrySet()) {
                        Optional<Type> p = e.getValue();
                        Optional<Type> x = p.isPresent() ? Optional.of(go(p.get(), d)) : p;
                        same &= p.isEmpty() || x.get() == p.get();
                        tags.put(e.getKey(), x);
                    }
                    return same ? t : new Type.VariantT(tags);
                }
                case FN: {
                    Type.Fn fn = (Type.Fn) t;
                    boolean same = true;
                    List<Type> ins = new ArrayList<>(fn.ins().size());
                    for (Type x : fn.ins()) { Type y = go(x, rowDepth(x, depth)); same &= y == x; ins.add(y); }
                    List<Type> outs = new ArrayList<>(fn.outs().size());
                    for (Type x : fn.outs()) { Type y = go(x, rowDepth(x, depth)); same &= y == x; outs.add(y); }
                    Optional<Type.Yields> yields = fn.yields();
                    if (yields.isPresent()) {
                        Type y = go(yields.get().yielded(), d), r = go(yields.get().resumed(), d);
                        if (y != yields.get().yielded() || r != yields.get().resumed()) {
                            same = false;
                            yields = Optional.of(new Type.Yields(y, r));
                        }
                    }
                    return same ? t : new Type.Fn(ins, outs, fn.effects(), yields);
                }
                default:
                    throw new IllegalStateException("unknown type kind " + t.kind());
            }
        }
    }
}
