package dev.finch.lisp.types;

import dev.finch.frontend.types.Mismatch;
import dev.finch.frontend.types.Scheme;
import dev.finch.frontend.types.Unifier;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
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

/**
 * Lisp's inference machinery over the frontend kit's Hindley–Milner core ({@link Unifier}: fresh variables with
 * levels, unification with an occurs check, generalization and instantiation of schemes): Lisp's clash messages,
 * conversion to and from IR types, and the effect fixpoint.
 *
 * <p>Every walk over a type is bounded, because a type's tree can be exponentially larger than the program that
 * builds it (let-polymorphism doubling a type per definition, records of records sharing their parts): each walk
 * — unifying, the occurs check, generalizing, instantiating, converting — counts the parts it visits and refuses
 * past the budget's type-size limit ({@code E-LIMIT-014}), refuses a type nested past the nesting limit
 * ({@code E-LIMIT-012}) before it could exhaust the stack, and charges every part as work ({@code E-LIMIT-015}),
 * which also polls the submission's deadline and cancellation. Limits are reported at {@link #at}, the origin the
 * analyzer is working on. Types shown in messages are cut to a readable size instead.
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

    private final CompileBudget budget;
    private Origin at;
    /** The kit's Hindley–Milner core: this inference's variables, levels and unification, every walk {@link Checked}. */
    private final Unifier<Ty> hm = new Unifier<>(walk -> new Checked(), false);
    private final List<Eff> effs = new ArrayList<>();

    /** Inference metered by {@code budget}; limits are reported at {@code start} until {@link #at} moves on. */
    public Infer(CompileBudget budget, Origin start) {
        this.budget = budget;
        this.at = start;
    }

    /** Inference under the default compile limits (tests and tools). */
    public Infer() { this(CompileBudget.standard(), Origin.of("<inference>", 1, 1)); }

    /** Where inference is working: the origin a limit is reported at. */
    public void at(Origin where) { this.at = where; }

    /** One walk over a type: the parts it may visit and how deep. */
    private interface Parts {
        /** Counts a part at {@code depth} (the root is 1); false when the walk should stop here. */
        boolean enter(int depth);
    }

    /**
     * A checked walk: every part is charged as work, and a walk of more parts than the type-size limit, or deeper
     * than the nesting limit, is refused. One per top-level operation, so a type is measured by the walk itself.
     */
    private final class Checked implements Parts, Unifier.Meter {
        private long parts;

        @Override public boolean enter(int depth) {
            visit(depth);
            return true;
        }

        @Override public void visit(int depth) {
            if (++parts > budget.limits().maxTypeSize()) budget.typeSize(Phase.VERIFY, parts, at);
            if (depth > budget.limits().maxNesting()) budget.nesting(Phase.VERIFY, depth, at);
            budget.charge(Phase.VERIFY, 1, at);
        }
    }

    /** A walk for messages: it stops, leaving "…", after {@value #SHOWN_PARTS} parts or {@value #SHOWN_DEPTH} levels. */
    private static final class Cut implements Parts {
        private int parts;

        @Override public boolean enter(int depth) { return ++parts <= SHOWN_PARTS && depth <= SHOWN_DEPTH; }
    }

    private static final int SHOWN_PARTS = 60;
    private static final int SHOWN_DEPTH = 12;
    private static final Type ELIDED = new Type.Var("…");

    /** One constructor per primitive, shared (a constructor without arguments holds nothing that changes). */
    private static final Ty[] PRIMS = new Ty[Type.Prim.values().length];

    static {
        for (Type.Prim p : Type.Prim.values()) PRIMS[p.ordinal()] = prim(p.toString());
    }

    /** The inference type of a primitive type. */
    public static Ty primitive(Type t) { return PRIMS[((Type.Prim) t).ordinal()]; }

    /** Whether {@code f} takes and leaves only primitive types, needs no capability and never yields. */
    public static boolean primitivesOnly(Type.Fn f) {
        if (!f.effects().isEmpty() || f.yields().isPresent()) return false;
        for (Type t : f.ins()) if (t.kind() != Type.Kind.PRIM) return false;
        for (Type t : f.outs()) if (t.kind() != Type.Kind.PRIM) return false;
        return true;
    }

    /** Whether {@code f} takes and leaves only primitives and type variables, needs no capability and never yields. */
    public static boolean flatAndPure(Type.Fn f) {
        if (!f.effects().isEmpty() || f.yields().isPresent()) return false;
        for (Type t : f.ins()) if (t.kind() != Type.Kind.PRIM && t.kind() != Type.Kind.VAR) return false;
        for (Type t : f.outs()) if (t.kind() != Type.Kind.PRIM && t.kind() != Type.Kind.VAR) return false;
        return true;
    }

    /** A primitive or a type variable as an inference type, as {@link #fromType} converts it (fresh variables into {@code vars}). */
    public Ty flat(Type t, Map<String, Ty> vars) {
        if (t.kind() == Type.Kind.PRIM) return primitive(t);
        String name = ((Type.Var) t).name();
        Ty v = vars.get(name);
        if (v == null) {
            v = fresh();
            vars.put(name, v);
        }
        return v;
    }

    public static final Ty INT = PRIMS[Type.Prim.INT.ordinal()];
    public static final Ty FLOAT = PRIMS[Type.Prim.FLOAT.ordinal()];
    public static final Ty BOOL = PRIMS[Type.Prim.BOOL.ordinal()];
    public static final Ty STRING = PRIMS[Type.Prim.STRING.ordinal()];
    public static final Ty UNIT = PRIMS[Type.Prim.UNIT.ordinal()];
    public static final Ty SYMBOL = PRIMS[Type.Prim.SYMBOL.ordinal()];

    private static Ty prim(String name) { return new Ty.Con(name, List.of()); }

    public int level() { return hm.level(); }

    public void enter() { hm.enter(); }

    public void leave() { hm.leave(); }

    public Ty.Var fresh() { return new Ty.Var(hm.supply(), hm.level()); }

    public Eff eff() {
        Eff e = new Eff();
        effs.add(e);
        return e;
    }

    public static Ty con(String name, Ty... args) { return new Ty.Con(name, List.of(args)); }

    /** True when the pruned type is the primitive {@code name}. */
    public static boolean isCon(Ty t, String name) { return t.prune() instanceof Ty.Con c && c.name.equals(name); }

    /**
     * A clash of the part {@code a} of what was expected with the part {@code b} of what was found: every caller unifies
     * (expected, found), and the recursion keeps that side, so the message names them the right way round.
     */
    private static String expectedFound(Ty a, Ty b) { return "expected " + show(a) + ", found " + show(b); }

    /** Unifies two types; throws {@link Clash} when they cannot be equal. */
    public void unify(Ty a, Ty b) {
        try {
            hm.unify(a, b);
        } catch (Mismatch m) {
            throw clash(m);
        }
    }

    /** The clash of a mismatch, worded by what the clashing parts are. */
    private static Clash clash(Mismatch m) {
        if (m.infinite()) return new Clash("a type would contain itself", true);
        Ty a = m.expected();
        Ty b = m.found();
        if (a.kind() == b.kind() && a.kind() == Ty.Kind.REC) {
            return new Clash("expected record fields " + ((Ty.Rec) a).fields.keySet() + ", found " + ((Ty.Rec) b).fields.keySet(), false);
        }
        if (a.kind() == b.kind() && a.kind() == Ty.Kind.FN) {
            Ty.Fn fa = (Ty.Fn) a;
            Ty.Fn fb = (Ty.Fn) b;
            if (fa.ins.size() != fb.ins.size()) return new Clash("expected a function of " + fa.ins.size() + " argument(s), found one of " + fb.ins.size(), false);
            return new Clash("expected a function leaving " + fa.outs.size() + " value(s), found one leaving " + fb.outs.size(), false);
        }
        return new Clash(expectedFound(a, b), false);
    }

    /**
     * Generalizes the variables above the current level. The walk measures the type, so a scheme is never larger
     * than the type-size limit: this is where let-polymorphism's doubling stops.
     */
    public Scheme<Ty> generalize(Ty t) { return hm.generalize(t, v -> true); }

    /** The unbound variables of t, in order of appearance. */
    public void freeVars(Ty t, Set<Ty.Var> out) {
        Set<Ty> all = new LinkedHashSet<>();
        hm.freeVariables(t, all);
        for (Ty v : all) out.add((Ty.Var) v);
    }

    /**
     * A fresh instance of a scheme: a copy of its body with fresh variables for its own. The copy keeps the body's
     * sharing (each distinct part is copied once), so an instance costs what the scheme's structure holds, not
     * what its tree would spell out.
     */
    public Ty instantiate(Scheme<Ty> s) { return hm.instantiate(s, v -> fresh()); }

    /** Converts an IR type; its variables map through {@code vars} (fresh ones are added for new names). */
    public Ty fromType(Type t, Map<String, Ty> vars) { return fromType(t, vars, new Checked(), 1); }

    private Ty fromType(Type t, Map<String, Ty> vars, Parts parts, int depth) {
        parts.enter(depth);
        int d = depth + 1;
        switch (t.kind()) {
            case PRIM: return primitive(t);
            case PATH: case NAMED: return prim(t.toString());
            case VAR: return vars.computeIfAbsent(((Type.Var) t).name(), n -> fresh());
            case OPTION: return con("option", fromType(((Type.OptionT) t).value(), vars, parts, d));
            case RESULT: return con("result", fromType(((Type.ResultT) t).ok(), vars, parts, d), fromType(((Type.ResultT) t).err(), vars, parts, d));
            case LIST: return con("list", fromType(((Type.ListT) t).element(), vars, parts, d));
            case MAP: return con("map", fromType(((Type.MapT) t).key(), vars, parts, d), fromType(((Type.MapT) t).value(), vars, parts, d));
            case TASK: return con("task", fromType(((Type.TaskT) t).value(), vars, parts, d));
            case FIBER: return con("fiber", fromType(((Type.FiberT) t).yielded(), vars, parts, d), fromType(((Type.FiberT) t).result(), vars, parts, d));
            case STREAM: return con("stream", fromType(((Type.StreamT) t).element(), vars, parts, d));
            case RESOURCE: return con("resource", fromType(((Type.ResourceT) t).of(), vars, parts, d));
            case RECORD: {
                Map<String, Ty> f = new TreeMap<>();
                ((Type.RecordT) t).fields().forEach((k, v) -> f.put(k, fromType(v, vars, parts, d)));
                return new Ty.Rec(f);
            }
            case VARIANT: {
                List<String> tags = new ArrayList<>();
                List<Boolean> has = new ArrayList<>();
                List<Ty> args = new ArrayList<>();
                ((Type.VariantT) t).tags().forEach((tag, p) -> {
                    tags.add(tag);
                    has.add(p.isPresent());
                    p.ifPresent(pt -> args.add(fromType(pt, vars, parts, d)));
                });
                return new Ty.Con("variant", args, tags, has);
            }
            case FN: {
                Type.Fn f = (Type.Fn) t;
                List<Ty> ins = new ArrayList<>();
                List<Ty> outs = new ArrayList<>();
                for (Type a : f.ins()) ins.add(fromType(a, vars, parts, d));
                for (Type a : f.outs()) outs.add(fromType(a, vars, parts, d));
                Eff e = eff();
                // A callee's template over its own parameters speaks of its call sites, which the verifier instantiates;
                // in a Lisp function's or closure's type it is its bound.
                e.addCaps(dev.finch.ir.vocab.RequirementTemplate.bounded(f.effects()));
                if (f.yields().isPresent()) e.yielded = fromType(f.yields().get().yielded(), vars, parts, d);
                return new Ty.Fn(ins, outs, e);
            }
            default: throw new IllegalStateException(t.kind().toString());
        }
    }

    /**
     * Converts to an IR type; unbound variables become whatever {@code leftover} says. The walk is checked: an IR
     * type is a tree, so a type that shares its parts is refused here if its tree is over the type-size limit.
     */
    public Type toType(Ty t, Function<Ty.Var, Type> leftover) { return convert(t, leftover, new Checked(), 1); }

    private static Type convert(Ty t, Function<Ty.Var, Type> leftover, Parts parts, int depth) {
        t = t.prune();
        if (!parts.enter(depth)) return ELIDED;
        int d = depth + 1;
        switch (t.kind()) {
            case VAR: return leftover.apply((Ty.Var) t);
            case CON: {
                Ty.Con c = (Ty.Con) t;
                List<Type> a = new ArrayList<>();
                for (Ty x : c.args) a.add(convert(x, leftover, parts, d));
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
                for (Map.Entry<String, Ty> e : ((Ty.Rec) t).fields.entrySet()) f.put(e.getKey(), convert(e.getValue(), leftover, parts, d));
                return new Type.RecordT(f);
            }
            case FN: {
                Ty.Fn f = (Ty.Fn) t;
                List<Type> ins = new ArrayList<>();
                List<Type> outs = new ArrayList<>();
                for (Ty x : f.ins) ins.add(convert(x, leftover, parts, d));
                for (Ty x : f.outs) outs.add(convert(x, leftover, parts, d));
                Eff e = f.eff.find();
                Optional<Type.Yields> y = e.yielded == null ? Optional.empty()
                        : Optional.of(new Type.Yields(convert(e.yielded, leftover, parts, d), Type.Prim.UNIT));
                return new Type.Fn(ins, outs, e.caps, y);
            }
            default: throw new IllegalStateException();
        }
    }

    /**
     * Spells a type for a message: unbound variables are named a, b, … in order of appearance; a large type is cut
     * to its first parts, with "…" for the rest.
     */
    public static String show(Ty t) {
        Map<Ty.Var, Type> names = new HashMap<>();
        return convert(t, v -> names.computeIfAbsent(v, k -> new Type.Var(letter(names.size()))), new Cut(), 1).toString();
    }

    /** The n-th type variable name: a … z, then a1, b1, …. */
    public static String letter(int n) {
        return n < 26 ? String.valueOf((char) ('a' + n)) : (char) ('a' + n % 26) + Integer.toString(n / 26);
    }

    /**
     * Propagates capabilities and yields along "flows into" edges until nothing changes: a worklist of the classes
     * that changed, then a full pass to confirm (a unification of yields may merge classes on the way). Each edge
     * followed is charged as work.
     */
    public void solveEffects() {
        if (nothingToPropagate()) return;
        java.util.ArrayDeque<Eff> work = new java.util.ArrayDeque<>(effs);
        while (!work.isEmpty()) {
            while (!work.isEmpty()) propagate(work.poll().find(), work);
            for (Eff raw : effs) propagate(raw.find(), work);
        }
    }

    /**
     * Whether no class has a capability or a yield: then following the edges adds nothing anywhere (most programs a
     * model writes are pure and yield nothing).
     */
    private boolean nothingToPropagate() {
        for (Eff e : effs) if (!e.caps.isEmpty() || e.yielded != null) return false;
        return true;
    }

    /**
     * Pushes {@code e}'s capabilities and yields into every class it flows into; queues each one that changed. A
     * unification of yields on the way may add edges to {@code e}; they are followed too (edges are only ever added).
     */
    private void propagate(Eff e, java.util.Deque<Eff> changed) {
        for (int i = 0; i < e.into.size(); i++) {
            Eff tRaw = e.into.get(i);
            budget.charge(Phase.VERIFY, 1, at);
            Eff t = tRaw.find();
            if (t == e) continue;
            boolean grew = t.addCaps(e.caps);
            if (e.yielded != null) {
                if (t.yielded == null) {
                    t.yielded = e.yielded;
                    grew = true;
                } else unify(t.yielded, e.yielded);
            }
            if (grew) changed.add(t);
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
        b.addCaps(dev.finch.ir.vocab.RequirementTemplate.bounded(sig.effects()));
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
