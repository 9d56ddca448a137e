package dev.finch.verifier;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bindings of meta-variables (unification variables) to types. Meta-variables are {@link Type.Var}s whose name
 * starts with {@code ?}, a spelling no declared type variable can have, so rigid variables of declared signatures
 * and metas coexist in one type without a new IR node. Bindings are trailed so that an overload attempt can be
 * undone without committing ({@link #mark()} / {@link #rollback(int)}).
 */
final class Substitution {
    private final Map<String, Type> bindings = new HashMap<>();
    private final Map<String, Origin> origins = new HashMap<>();
    private final List<String> trail = new ArrayList<>();
    private int next;

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

    /** Applies the substitution everywhere inside {@code t}. */
    Type resolve(Type t) {
        return Types.mapVars(t, v -> {
            if (!isMeta(v)) return v;
            Type b = shallow(v);
            return b.equals(v) ? v : resolve(b);
        });
    }

    Type.Fn resolveFn(Type.Fn f) { return (Type.Fn) resolve(f); }

    List<Type> resolveAll(List<Type> row) {
        List<Type> out = new ArrayList<>(row.size());
        for (Type t : row) out.add(resolve(t));
        return out;
    }
}
