package dev.finch.norman;

import dev.finch.frontend.types.Term;
import dev.finch.frontend.types.VarSupply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A µNorman static type during inference: a unification variable, a constructor applied to arguments (Text, Num,
 * Bool, Sym, Money, Duration, List, a datatype or record, Model and Tool (what model and tool grants' names are), and the effect constants
 * {@code Fail}/{@code Pure}), or a function with a latent effect (whether calling it may fail). A term of the frontend
 * kit's Hindley–Milner core ({@link Term}: variables' levels and bindings, {@link #prune()}, are the kit's).
 */
abstract sealed class Ty extends Term<Ty> permits Ty.Var, Ty.Con, Ty.Fun {
    /** The effect of a function that may fail. */
    static final String FAIL = "Fail";
    /** The effect of a function that never fails (the default of an unconstrained effect). */
    static final String PURE = "Pure";

    Ty() { }

    Ty(VarSupply supply, int level) { super(supply, level); }

    /** A constructor's arguments; a function's parameters, result and effect, in that order. */
    @Override protected List<Ty> parts() {
        if (this instanceof Con c) return c.args;
        if (this instanceof Fun f) {
            List<Ty> all = new ArrayList<>(f.params.size() + 2);
            all.addAll(f.params);
            all.add(f.ret);
            all.add(f.eff);
            return all;
        }
        return List.of();
    }

    /** Same constructor name and arity, or functions of as many parameters. */
    @Override protected boolean sameShape(Ty other) {
        if (this instanceof Con x && other instanceof Con y) return x.name.equals(y.name) && x.args.size() == y.args.size();
        return this instanceof Fun x && other instanceof Fun y && x.params.size() == y.params.size();
    }

    @Override protected Ty withParts(List<Ty> parts) {
        if (this instanceof Con c) return new Con(c.name, parts);
        int n = ((Fun) this).params.size();
        return new Fun(parts.subList(0, n), parts.get(n), parts.get(n + 1));
    }

    /** A unification variable; an effect variable is never generalized (top-level effects are monomorphic). */
    public static final class Var extends Ty {
        final boolean effect;

        Var(VarSupply supply, int level, boolean effect) {
            super(supply, level);
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

    /** True when this (resolved) is the effect {@code Fail}. */
    boolean isFail() { return prune() instanceof Con c && c.name.equals(FAIL); }

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
        t = t.prune();
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
