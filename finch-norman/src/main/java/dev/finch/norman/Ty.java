package dev.finch.norman;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A µNorman static type during inference: a unification variable, a constructor applied to arguments (Text, Num,
 * Bool, Sym, Money, Duration, List, a datatype or record, Model and Tool (what model and tool grants' names are), and the effect constants
 * {@code Fail}/{@code Pure}), or a function with a latent effect (whether calling it may fail).
 */
public abstract sealed class Ty permits Ty.Var, Ty.Con, Ty.Fun {
    /** The effect of a function that may fail. */
    static final String FAIL = "Fail";
    /** The effect of a function that never fails (the default of an unconstrained effect). */
    static final String PURE = "Pure";

    /** A unification variable; an effect variable is never generalized (top-level effects are monomorphic). */
    public static final class Var extends Ty {
        private static int counter;
        final int id;
        final boolean effect;
        int level;
        Ty ref;

        Var(int level, boolean effect) {
            this.id = ++counter;
            this.level = level;
            this.effect = effect;
        }
    }

    /** A type constructor applied to arguments. */
    public static final class Con extends Ty {
        final String name;
        final List<Ty> args;

        Con(String name, List<Ty> args) {
            this.name = name;
            this.args = List.copyOf(args);
        }

        /** The constructor's name. */
        public String name() { return name; }

        /** Its arguments. */
        public List<Ty> args() { return args; }
    }

    /** A function type with a latent effect. */
    public static final class Fun extends Ty {
        final List<Ty> params;
        final Ty ret;
        final Ty eff;

        Fun(List<Ty> params, Ty ret, Ty eff) {
            this.params = List.copyOf(params);
            this.ret = ret;
            this.eff = eff;
        }

        /** The parameter types. */
        public List<Ty> params() { return params; }

        /** The result type. */
        public Ty ret() { return ret; }

        /** Fail, Pure or a variable. */
        public Ty eff() { return eff; }
    }

    static Con con(String name, Ty... args) { return new Con(name, List.of(args)); }

    static final Con TEXT = con("Text");
    static final Con NUM = con("Num");
    static final Con BOOL = con("Bool");
    static final Con SYM = con("Sym");
    static final Con MONEY = con("Money");
    static final Con DURATION = con("Duration");
    static final Con MODEL = con("Model");
    /** A tool capability, of any tool grant (what a call through it answers is the grant's declaration). */
    static final Con TOOL = con("Tool");
    static final Con FAIL_EFFECT = con(FAIL);
    static final Con PURE_EFFECT = con(PURE);

    static Con list(Ty element) { return con("List", element); }

    /** Follows bound variables. */
    public Ty resolve() {
        Ty t = this;
        while (t instanceof Var v && v.ref != null) t = v.ref;
        return t;
    }

    /** True when this (resolved) is the effect {@code Fail}. */
    boolean isFail() { return resolve() instanceof Con c && c.name.equals(FAIL); }

    /**
     * The µNorman spelling: {@code Num}, {@code (List Text)}, {@code (Option Num)}, {@code (Num Num -> Num)}, {@code 'a}.
     * A type too large or too deep to be worth reading (one the compile limits refuse) is cut with {@code …}.
     */
    @Override public String toString() { return show(this, new HashMap<>()); }

    /** How many parts, and how deep, a spelling shows before it is cut with {@code …}. */
    private static final int SHOWN_PARTS = 20_000;
    private static final int SHOWN_DEPTH = 300;

    /**
     * The spelling in a diagnostic: like {@link #toString()}, but a type left open is spelled {@code Any}, the word
     * a µNorman author writes for it, never a type variable such as {@code 'a}.
     */
    static String spelled(Ty t) { return show(t, v -> "Any"); }

    /** The spelling with {@code 'a}, {@code 'b}, … for the type variables, named in {@code names} as they are first met. */
    static String show(Ty t, Map<Var, String> names) {
        return show(t, v -> names.computeIfAbsent(v, k -> "'" + (char) ('a' + names.size() % 26) + (names.size() >= 26 ? String.valueOf(names.size() / 26) : "")));
    }

    /** The spelling with each type variable spelled by {@code name}. */
    static String show(Ty t, Function<Var, String> name) {
        StringBuilder b = new StringBuilder();
        show(t, name, b, 1, new int[] {SHOWN_PARTS});
        return b.toString();
    }

    private static void show(Ty t, Function<Var, String> name, StringBuilder b, int depth, int[] left) {
        t = t.resolve();
        if (depth > SHOWN_DEPTH || left[0]-- <= 0) { b.append('…'); return; }
        if (t instanceof Var v) {
            b.append(name.apply(v));
            return;
        }
        if (t instanceof Con c) {
            if (c.args.isEmpty()) { b.append(c.name); return; }
            b.append('(').append(c.name);
            for (Ty a : c.args) show(a, name, b.append(' '), depth + 1, left);
            b.append(')');
            return;
        }
        Fun f = (Fun) t;
        b.append('(');
        for (Ty p : f.params) { show(p, name, b, depth + 1, left); b.append(' '); }
        b.append("-> ");
        show(f.ret, name, b, depth + 1, left);
        if (f.eff.isFail()) b.append(" ! Failure");
        b.append(')');
    }
}
