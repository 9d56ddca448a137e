package dev.finch.lisp.types;

import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Hindley–Milner machinery: fresh variables with levels, unification with an occurs check, generalization and
 * instantiation of schemes, conversion to and from IR types, and the effect fixpoint.
 */
public final class Infer {
    /** Thrown when two types cannot be unified; the caller turns it into a diagnostic with expected/found. */
    public static final class Clash extends RuntimeException {
        private final boolean infinite;

        Clash(String message, boolean infinite) {
            super(message, null, false, false);
            this.infinite = infinite;
        }

        /** True for an occurs-check failure. */
        public boolean infinite() { return infinite; }
    }

    /** A generalized type: {@code vars} are instantiated afresh at each use. */
    public record Scheme(List<Ty.Var> vars, Ty body) {
        public static Scheme mono(Ty t) { return new Scheme(List.of(), t); }
    }

    private int level;
    private final List<Eff> effs = new ArrayList<>();

    public static final Ty INT = prim("int");
    public static final Ty FLOAT = prim("float");
    public static final Ty BOOL = prim("bool");
    public static final Ty STRING = prim("string");
    public static final Ty UNIT = prim("unit");
    public static final Ty SYMBOL = prim("symbol");

    private static Ty prim(String name) { return new Ty.Con(name, List.of()); }

    public int level() { return level; }

    public void enter() { level++; }

    public void leave() { level--; }

    public Ty.Var fresh() { return new Ty.Var(level); }

    public Eff eff() {
        Eff e = new Eff();
        effs.add(e);
        return e;
    }

    public static Ty con(String name, Ty... args) { return new Ty.Con(name, List.of(args)); }

    /** True when the pruned type is the primitive {@code name}. */
    public static boolean isCon(Ty t, String name) { return t.prune() instanceof Ty.Con c && c.name.equals(name); }

    public void unify(Ty a, Ty b) {
        a = a.prune();
        b = b.prune();
        if (a == b) return;
        if (a instanceof Ty.Var va) { bind(va, b); return; }
        if (b instanceof Ty.Var vb) { bind(vb, a); return; }
        if (a.kind() != b.kind()) throw new Clash(show(a) + " is not " + show(b), false);
        switch (a.kind()) {
            case CON: {
                Ty.Con ca = (Ty.Con) a;
                Ty.Con cb = (Ty.Con) b;
                if (!ca.name.equals(cb.name) || ca.args.size() != cb.args.size() || !ca.tags.equals(cb.tags) || !ca.payload.equals(cb.payload)) {
                    throw new Clash(show(a) + " is not " + show(b), false);
                }
                for (int i = 0; i < ca.args.size(); i++) unify(ca.args.get(i), cb.args.get(i));
                return;
            }
            case REC: {
                Ty.Rec ra = (Ty.Rec) a;
                Ty.Rec rb = (Ty.Rec) b;
                if (!ra.fields.keySet().equals(rb.fields.keySet())) throw new Clash("record fields " + ra.fields.keySet() + " are not " + rb.fields.keySet(), false);
                for (String k : ra.fields.keySet()) unify(ra.fields.get(k), rb.fields.get(k));
                return;
            }
            case FN: {
                Ty.Fn fa = (Ty.Fn) a;
                Ty.Fn fb = (Ty.Fn) b;
                if (fa.ins.size() != fb.ins.size()) throw new Clash("a function of " + fa.ins.size() + " argument(s) is not one of " + fb.ins.size(), false);
                if (fa.outs.size() != fb.outs.size()) throw new Clash("a function leaving " + fa.outs.size() + " value(s) is not one leaving " + fb.outs.size(), false);
                for (int i = 0; i < fa.ins.size(); i++) unify(fa.ins.get(i), fb.ins.get(i));
                for (int i = 0; i < fa.outs.size(); i++) unify(fa.outs.get(i), fb.outs.get(i));
                Eff ea = fa.eff.find();
                Eff eb = fb.eff.find();
                if (ea != eb) {
                    if (ea.yielded != null && eb.yielded != null) unify(ea.yielded, eb.yielded);
                    ea.mergeInto(eb);
                }
                return;
            }
            default:
                throw new Clash(show(a) + " is not " + show(b), false);
        }
    }

    private void bind(Ty.Var v, Ty t) {
        if (t instanceof Ty.Var w) {
            w.level = Math.min(w.level, v.level);
            v.ref = w;
            return;
        }
        adjust(t, v);
        v.ref = t;
    }

    /** Occurs check plus level adjustment (variables in t may not be generalized above v's level). */
    private void adjust(Ty t, Ty.Var v) {
        t = t.prune();
        switch (t.kind()) {
            case VAR: {
                Ty.Var w = (Ty.Var) t;
                if (w == v) throw new Clash("a type would contain itself", true);
                w.level = Math.min(w.level, v.level);
                return;
            }
            case CON: for (Ty a : ((Ty.Con) t).args) adjust(a, v); return;
            case REC: for (Ty a : ((Ty.Rec) t).fields.values()) adjust(a, v); return;
            case FN: {
                Ty.Fn f = (Ty.Fn) t;
                for (Ty a : f.ins) adjust(a, v);
                for (Ty a : f.outs) adjust(a, v);
                return;
            }
            default:
        }
    }

    /** Generalizes the variables above the current level. */
    public Scheme generalize(Ty t) {
        Set<Ty.Var> vars = new LinkedHashSet<>();
        freeVars(t, vars);
        List<Ty.Var> gen = new ArrayList<>();
        for (Ty.Var v : vars) if (v.level > level) gen.add(v);
        return new Scheme(gen, t);
    }

    /** The unbound variables of t, in order of appearance. */
    public static void freeVars(Ty t, Set<Ty.Var> out) {
        t = t.prune();
        switch (t.kind()) {
            case VAR: out.add((Ty.Var) t); return;
            case CON: for (Ty a : ((Ty.Con) t).args) freeVars(a, out); return;
            case REC: for (Ty a : ((Ty.Rec) t).fields.values()) freeVars(a, out); return;
            case FN: {
                Ty.Fn f = (Ty.Fn) t;
                for (Ty a : f.ins) freeVars(a, out);
                for (Ty a : f.outs) freeVars(a, out);
                return;
            }
            default:
        }
    }

    public Ty instantiate(Scheme s) {
        if (s.vars().isEmpty()) return s.body();
        Map<Ty.Var, Ty> m = new IdentityHashMap<>();
        for (Ty.Var v : s.vars()) m.put(v, fresh());
        return copy(s.body(), m);
    }

    private Ty copy(Ty t, Map<Ty.Var, Ty> m) {
        t = t.prune();
        switch (t.kind()) {
            case VAR: return m.getOrDefault(t, t);
            case CON: {
                Ty.Con c = (Ty.Con) t;
                if (c.args.isEmpty()) return c;
                List<Ty> args = new ArrayList<>();
                for (Ty a : c.args) args.add(copy(a, m));
                return new Ty.Con(c.name, args, c.tags, c.payload);
            }
            case REC: {
                Map<String, Ty> f = new TreeMap<>();
                ((Ty.Rec) t).fields.forEach((k, v) -> f.put(k, copy(v, m)));
                return new Ty.Rec(f);
            }
            case FN: {
                Ty.Fn f = (Ty.Fn) t;
                List<Ty> ins = new ArrayList<>();
                List<Ty> outs = new ArrayList<>();
                for (Ty a : f.ins) ins.add(copy(a, m));
                for (Ty a : f.outs) outs.add(copy(a, m));
                return new Ty.Fn(ins, outs, f.eff);
            }
            default: return t;
        }
    }

    /** Converts an IR type; its variables map through {@code vars} (fresh ones are added for new names). */
    public Ty fromType(Type t, Map<String, Ty> vars) {
        switch (t.kind()) {
            case PRIM: return prim(t.toString());
            case PATH: case NAMED: return prim(t.toString());
            case VAR: return vars.computeIfAbsent(((Type.Var) t).name(), n -> fresh());
            case OPTION: return con("option", fromType(((Type.OptionT) t).value(), vars));
            case RESULT: return con("result", fromType(((Type.ResultT) t).ok(), vars), fromType(((Type.ResultT) t).err(), vars));
            case LIST: return con("list", fromType(((Type.ListT) t).element(), vars));
            case MAP: return con("map", fromType(((Type.MapT) t).key(), vars), fromType(((Type.MapT) t).value(), vars));
            case TASK: return con("task", fromType(((Type.TaskT) t).value(), vars));
            case FIBER: return con("fiber", fromType(((Type.FiberT) t).yielded(), vars), fromType(((Type.FiberT) t).result(), vars));
            case STREAM: return con("stream", fromType(((Type.StreamT) t).element(), vars));
            case RESOURCE: return con("resource", fromType(((Type.ResourceT) t).of(), vars));
            case RECORD: {
                Map<String, Ty> f = new TreeMap<>();
                ((Type.RecordT) t).fields().forEach((k, v) -> f.put(k, fromType(v, vars)));
                return new Ty.Rec(f);
            }
            case VARIANT: {
                List<String> tags = new ArrayList<>();
                List<Boolean> has = new ArrayList<>();
                List<Ty> args = new ArrayList<>();
                ((Type.VariantT) t).tags().forEach((tag, p) -> {
                    tags.add(tag);
                    has.add(p.isPresent());
                    p.ifPresent(pt -> args.add(fromType(pt, vars)));
                });
                return new Ty.Con("variant", args, tags, has);
            }
            case FN: {
                Type.Fn f = (Type.Fn) t;
                List<Ty> ins = new ArrayList<>();
                List<Ty> outs = new ArrayList<>();
                for (Type a : f.ins()) ins.add(fromType(a, vars));
                for (Type a : f.outs()) outs.add(fromType(a, vars));
                Eff e = eff();
                e.caps.addAll(f.effects());
                f.yields().ifPresent(y -> e.yielded = fromType(y.yielded(), vars));
                return new Ty.Fn(ins, outs, e);
            }
            default: throw new IllegalStateException(t.kind().toString());
        }
    }

    /** Converts to an IR type; unbound variables become whatever {@code leftover} says. */
    public static Type toType(Ty t, Function<Ty.Var, Type> leftover) {
        t = t.prune();
        switch (t.kind()) {
            case VAR: return leftover.apply((Ty.Var) t);
            case CON: {
                Ty.Con c = (Ty.Con) t;
                List<Type> a = new ArrayList<>();
                for (Ty x : c.args) a.add(toType(x, leftover));
                switch (c.name) {
                    case "option": return new Type.OptionT(a.get(0));
                    case "result": return new Type.ResultT(a.get(0), a.get(1));
                    case "list": return new Type.ListT(a.get(0));
                    case "map": return new Type.MapT(a.get(0), a.get(1));
                    case "task": return new Type.TaskT(a.get(0));
                    case "fiber": return new Type.FiberT(a.get(0), a.get(1));
                    case "stream": return new Type.StreamT(a.get(0));
                    case "resource": return new Type.ResourceT(a.get(0));
                    case "variant": {
                        Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                        int k = 0;
                        for (int i = 0; i < c.tags.size(); i++) tags.put(c.tags.get(i), c.payload.get(i) ? Optional.of(a.get(k++)) : Optional.empty());
                        return new Type.VariantT(tags);
                    }
                    default: return TypeSyntax.parse(c.name);
                }
            }
            case REC: {
                Map<String, Type> f = new TreeMap<>();
                ((Ty.Rec) t).fields.forEach((k, v) -> f.put(k, toType(v, leftover)));
                return new Type.RecordT(f);
            }
            case FN: {
                Ty.Fn f = (Ty.Fn) t;
                List<Type> ins = new ArrayList<>();
                List<Type> outs = new ArrayList<>();
                for (Ty x : f.ins) ins.add(toType(x, leftover));
                for (Ty x : f.outs) outs.add(toType(x, leftover));
                Eff e = f.eff.find();
                Optional<Type.Yields> y = e.yielded == null ? Optional.empty()
                        : Optional.of(new Type.Yields(toType(e.yielded, leftover), Type.Prim.UNIT));
                return new Type.Fn(ins, outs, e.caps, y);
            }
            default: throw new IllegalStateException();
        }
    }

    /** Spells a type for a message: unbound variables are named a, b, … in order of appearance. */
    public static String show(Ty t) {
        Map<Ty.Var, Type> names = new HashMap<>();
        return toType(t, v -> names.computeIfAbsent(v, k -> new Type.Var(letter(names.size())))).toString();
    }

    /** The n-th type variable name: a … z, then a1, b1, …. */
    public static String letter(int n) {
        return n < 26 ? String.valueOf((char) ('a' + n)) : (char) ('a' + n % 26) + Integer.toString(n / 26);
    }

    /** Propagates capabilities and yields along "flows into" edges until nothing changes. */
    public void solveEffects() {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Eff raw : effs) {
                Eff e = raw.find();
                for (Eff tRaw : List.copyOf(raw.into)) {
                    Eff t = tRaw.find();
                    if (t == e) continue;
                    if (t.caps.addAll(e.caps)) changed = true;
                    if (e.yielded != null) {
                        if (t.yielded == null) { t.yielded = e.yielded; changed = true; } else unify(t.yielded, e.yielded);
                    }
                }
            }
        }
    }

    /** Records that everything {@code callee} does, {@code caller} does too. */
    public static void flows(Eff callee, Eff caller) {
        Eff c = callee.find();
        if (c != caller.find()) c.into.add(caller);
    }

    /** Adds static effects (a word's declared capabilities and yields) to a body's class. */
    public void addStatic(Eff body, Type.Fn sig, Map<String, Ty> vars) {
        Eff b = body.find();
        b.caps.addAll(sig.effects());
        if (sig.yields().isPresent()) {
            Ty y = fromType(sig.yields().get().yielded(), vars);
            if (b.yielded == null) b.yielded = y; else unify(b.yielded, y);
        }
    }

    /** Declares that a body yields values of type y. */
    public void addYield(Eff body, Ty y) {
        Eff b = body.find();
        if (b.yielded == null) b.yielded = y; else unify(b.yielded, y);
    }
}
