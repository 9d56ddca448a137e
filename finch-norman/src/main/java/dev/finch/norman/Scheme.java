package dev.finch.norman;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A type scheme ∀vars. type: the type of a let-polymorphic binding, a definition or a primitive. */
public record Scheme(List<Ty.Var> vars, Ty type) {
    public Scheme { vars = List.copyOf(vars); }

    /** A scheme with nothing quantified. */
    static Scheme mono(Ty t) { return new Scheme(List.of(), t); }

    /** A fresh instance at {@code level}. */
    Ty instantiate(int level) {
        if (vars.isEmpty()) return type;
        Map<Ty.Var, Ty> map = new HashMap<>();
        for (Ty.Var v : vars) map.put(v, new Ty.Var(level, v.effect));
        return substitute(type, map);
    }

    /** Replaces the variables of {@code map} inside {@code t}. */
    static Ty substitute(Ty t, Map<Ty.Var, Ty> map) {
        t = t.resolve();
        if (t instanceof Ty.Var v) return map.getOrDefault(v, v);
        if (t instanceof Ty.Con c) {
            if (c.args.isEmpty()) return c;
            return new Ty.Con(c.name, c.args.stream().map(a -> substitute(a, map)).toList());
        }
        Ty.Fun f = (Ty.Fun) t;
        return new Ty.Fun(f.params.stream().map(p -> substitute(p, map)).toList(), substitute(f.ret, map), substitute(f.eff, map));
    }

    @Override public String toString() { return type.toString(); }
}
