package dev.finch.norman;

import dev.finch.frontend.graph.Components;
import dev.finch.frontend.types.Mismatch;
import dev.finch.frontend.types.Scheme;
import dev.finch.frontend.types.Unifier;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.norman.Ast.Exp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hindley–Milner inference with let-polymorphism (decisions D10), levels for generalization, and one latent effect
 * per function: whether calling it may fail. Effects are lower bounds solved after every definition is typed
 * (a caller may fail if a callee may); effect variables are never generalized, so each top-level function has one
 * effect, which keeps lowering to one IR signature per word. let* generalizes syntactic values only (the value
 * restriction), so a polymorphic local is always a value the lowering may rebuild at each use.
 *
 * <p>Inference is bounded by the submission's {@link CompileBudget}: every step of unification, instantiation,
 * generalization and the occurs check is charged as work ({@code E-LIMIT-015}, which also polls the deadline and the
 * cancellation), and a type is never bound to a variable, generalized or kept as a definition's type when it has more
 * than {@code maxTypeSize} parts ({@code E-LIMIT-014}) or nests deeper than {@code maxNesting} ({@code E-LIMIT-012}).
 * Types are measured as trees, which is what showing or lowering them costs, so the doubling chains that make
 * Hindley–Milner exponential ({@code (define f1 (x) (f0 (f0 x)))} over {@code (define f0 (x) (Pair [fst x] [snd x]))},
 * and the same with let) stop after a dozen steps. A crossed limit is never collected as a definition's error: it
 * ends the inference.
 */
final class Infer {
    final Decls decls;
    final CompileBudget budget;
    final Map<String, Ast.Grant> grants = new LinkedHashMap<>();
    final Set<String> scripts = new LinkedHashSet<>();
    /** Top-level definitions by name (the user's shadow the basis's). */
    final Map<String, Ast.Def> globalDefs = new LinkedHashMap<>();
    final Map<String, Scheme<Ty>> globals = new LinkedHashMap<>();
    final Map<Exp, Ty> types = new IdentityHashMap<>();
    final Map<Exp, Ty> catchEffects = new IdentityHashMap<>();
    final Map<Ast.Binding, Scheme<Ty>> letSchemes = new IdentityHashMap<>();
    /** The definition each global name reference resolved to. */
    final Map<Ast.Var, Ast.Def> varTargets = new IdentityHashMap<>();
    /** A define's or val's own effect, a top-level expression's effect. */
    final Map<Ast.Def, Ty> defEffects = new IdentityHashMap<>();
    final Map<Ast.Def, Ty> defTypes = new IdentityHashMap<>();
    /** For each test, the effect of each of its expressions. */
    final Map<Ast.Test, List<Ty>> testEffects = new IdentityHashMap<>();
    /** check-error tests whose expression has a static error: the message it becomes at run time. */
    final Map<Ast.Test, Diagnostic> staticErrors = new IdentityHashMap<>();
    /**
     * Catches that are a whole side of check-expect or check-equiv and whose handler answers another type than the
     * expression (the language reference's own example): the harness runs the expression, and the handler only if
     * it failed, and compares whichever value came out, with its type (see {@link #side}).
     */
    final Set<Exp> testCatches = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    final List<Diagnostic> diagnostics = new ArrayList<>();
    /**
     * The names that denote a grant where they are used (not shadowed by a local or a definition): an ask or call
     * through one is checked against that grant's declaration statically; through any other expression of type
     * {@code Model} or {@code Tool} (a parameter, a local, a field) the grant is known only at run time.
     */
    final Map<Exp, Ast.Grant> literalGrants = new IdentityHashMap<>();

    private final Map<String, Scheme<Ty>> primitives = new HashMap<>();
    private final List<Ty[]> implications = new ArrayList<>();
    private final List<Ty.Var> effectVars = new ArrayList<>();
    private final List<Object[]> limits = new ArrayList<>();
    private final Deque<Ty> ctx = new ArrayDeque<>();
    /**
     * The frontend kit's Hindley–Milner core for this inference: its variables (numbered from the declarations' supply),
     * levels, unification and trail. Its walks are metered at {@link #meterAt}: unification charges each step and bounds
     * the depth; binding, generalizing (and {@link #measure}) also count the type's parts against the size limit.
     */
    private final Unifier<Ty> hm;
    /** The origin the kit's walks report a crossed limit at (set by each operation that starts one). */
    private Origin meterAt = Origin.UNKNOWN;
    /**
     * Field selections whose record type was not known where they were typed and that several records could be
     * ({@code (. a name)} with two records having {@code name}): each waits until the record's type is known from how
     * the program uses it, and is refused only if it never is ({@link #resolveSelections}).
     */
    private final List<Selection> selections = new ArrayList<>();
    /** The records a field selection may be from, while the basis is typed: only the basis's (null: every record). */
    private Set<String> fieldScope;

    /** A field selection waiting for its record's type. */
    private record Selection(Ast.Dot dot, Ty record, Ty result) { }

    /**
     * The primitives, and — Finch's extension — every word the embedding host installed in {@code vocabulary} whose
     * one overload µNorman can spell (Text, Num, Bool, Sym and Lists of them in and one such value out): a host
     * word is a predefined function of the same name, which the program's own definitions shadow. Also the definitions
     * of the session's earlier turns ({@code session}, in any language) whose signature µNorman can spell: a word with
     * inputs is a predefined function, a word without inputs a val (µNorman lowers a val to such a word). µNorman's
     * own helper words are not visible, and a µNorman definition renamed because its name is a vocabulary word
     * ({@code nm.user.ok}) is seen under its own name. All the work is charged to {@code budget}.
     */
    Infer(Decls decls, dev.finch.ir.vocab.Vocabulary vocabulary, Map<String, dev.finch.ir.type.Type.Fn> session, CompileBudget budget) {
        this.decls = decls;
        this.budget = java.util.Objects.requireNonNull(budget, "budget");
        this.hm = new Unifier<>(decls.vars, this::meter, true);
        Ty.Var a = new Ty.Var(decls.vars, 1, false);
        for (String op : List.of("+", "-", "*", "/")) primitive(op, List.of(), Ty.NUM, Ty.NUM, Ty.NUM);
        for (String op : List.of("<", ">")) primitive(op, List.of(), Ty.BOOL, Ty.NUM, Ty.NUM);
        primitive("=", List.of(a), Ty.BOOL, a, a);
        primitive("show", List.of(a), Ty.TEXT, a);
        primitive("remaining", List.of(), Ty.con("Resources", Ty.MONEY, Ty.DURATION));
        // Finch's extension of the basis: text. text-append takes any number of texts when applied (see apply);
        // as a value it is the two-argument function.
        primitive(TEXT_APPEND, List.of(), Ty.TEXT, Ty.TEXT, Ty.TEXT);
        primitive("text-join", List.of(), Ty.TEXT, Ty.list(Ty.TEXT), Ty.TEXT);
        primitive("text-split", List.of(), Ty.list(Ty.TEXT), Ty.TEXT, Ty.TEXT);
        primitive("text-contains", List.of(), Ty.BOOL, Ty.TEXT, Ty.TEXT);
        primitive("text-length", List.of(), Ty.NUM, Ty.TEXT);
        for (dev.finch.ir.vocab.WordSpec w : vocabulary.words()) {
            if (w.origin() != dev.finch.ir.vocab.WordSpec.Provenance.HOST || w.overloads().size() != 1 || primitives.containsKey(w.name())) continue;
            dev.finch.ir.type.Type.Fn f = w.overloads().get(0).signature();
            if (f.outs().size() != 1) continue;
            List<Ty> params = new ArrayList<>();
            for (dev.finch.ir.type.Type t : f.ins()) params.add(spell(t));
            Ty ret = spell(f.outs().get(0));
            if (ret == null || params.contains(null)) continue;
            primitive(w.name(), List.of(), ret, params.toArray(new Ty[0]));
        }
        for (Map.Entry<String, dev.finch.ir.type.Type.Fn> e : new java.util.TreeMap<>(session).entrySet()) {
            String irName = e.getKey();
            if (dev.finch.ir.instr.WordDef.isInternal(irName)) continue;
            String name = irName.startsWith(USER_PREFIX) ? irName.substring(USER_PREFIX.length()) : irName;
            if (primitives.containsKey(name)) continue;
            dev.finch.ir.type.Type.Fn f = e.getValue();
            if (f.outs().size() != 1 || f.yields().isPresent()) continue;
            List<Ty> params = new ArrayList<>();
            for (dev.finch.ir.type.Type t : f.ins()) params.add(spell(t));
            Ty ret = spell(f.outs().get(0));
            if (ret == null || params.contains(null)) continue;
            if (params.isEmpty()) sessionVals.put(name, ret);
            else primitive(name, List.of(), ret, params.toArray(new Ty[0]));
            sessionWords.put(name, irName);
        }
    }

    /** The prefix of a µNorman definition whose name is also a vocabulary word (see {@code Lowerer.userName}). */
    static final String USER_PREFIX = dev.finch.ir.instr.WordDef.RENAMED_PREFIX;

    /** Earlier turns' words visible here: µNorman name → IR name. */
    private final Map<String, String> sessionWords = new HashMap<>();
    /** Earlier turns' words without inputs, seen as vals: µNorman name → type. */
    private final Map<String, Ty> sessionVals = new HashMap<>();

    /** The IR word an earlier turn's definition named {@code name} here is, if it is one. */
    Optional<String> sessionWord(String name) { return Optional.ofNullable(sessionWords.get(name)); }

    /** True when {@code name} is an earlier turn's val (a word without inputs). */
    boolean isSessionVal(String name) { return sessionVals.containsKey(name); }

    /** The µNorman type of a Finch type a host word takes or answers, or null when µNorman has none. */
    private static Ty spell(dev.finch.ir.type.Type t) {
        if (t == dev.finch.ir.type.Type.STRING) return Ty.TEXT;
        if (t == dev.finch.ir.type.Type.FLOAT) return Ty.NUM;
        if (t == dev.finch.ir.type.Type.BOOL) return Ty.BOOL;
        if (t == dev.finch.ir.type.Type.SYMBOL) return Ty.SYM;
        if (t instanceof dev.finch.ir.type.Type.ListT l) {
            Ty e = spell(l.element());
            return e == null ? null : Ty.list(e);
        }
        return null;
    }

    /** The one primitive of variable arity: {@code (text-append t …)} joins any number of texts (none gives ""). */
    static final String TEXT_APPEND = "text-append";

    private void primitive(String name, List<Ty.Var> vars, Ty ret, Ty... params) {
        Ty.Var eff = new Ty.Var(decls.vars, 1, true);
        List<Ty> all = new ArrayList<>(vars);
        all.add(eff);
        primitives.put(name, new Scheme<>(all, new Ty.Fun(List.of(params), ret, eff)));
    }

    /**
     * Where an earlier declaration is, said from a later one: its line and column in the same file, else the file
     * too, so a clash with a used file names that file.
     */
    static String where(Origin first, Origin later) {
        return first.source().equals(later.source()) ? first.line() + ":" + first.column() : first.toString();
    }

    /** True when {@code name} is a primitive typed in the table here. */
    boolean isPrimitive(String name) { return primitives.containsKey(name); }

    // ---- the program --------------------------------------------------------------------------------------------

    /** Types one layer of definitions (the basis, then the user's program); tests only in the latter. */
    /**
     * Types the basis, whose field selections are from the basis's own records only: a program's record with a field
     * the basis also selects ({@code (record Ticket (role Text))}) does not make the basis ambiguous.
     */
    void basis(List<Ast.Def> basisDefs) {
        Set<String> own = new HashSet<>();
        for (Ast.Def d : basisDefs) if (d instanceof Ast.RecordDecl r) own.add(r.name());
        fieldScope = own;
        try {
            program(basisDefs, false);
        } finally {
            fieldScope = null;
        }
    }

    void program(List<Ast.Def> defs, boolean withTests) {
        for (Ast.Def d : defs) {
            if (d instanceof Ast.Grant g) {
                Ast.Grant first = grants.putIfAbsent(g.name(), g);
                if (first != null) {
                    diagnostics.add(NormanCode.DUPLICATE_NAME.at(g.origin(), "a grant named `" + g.name() + "` is already declared at "
                            + where(first.origin(), g.origin())));
                }
            }
            if (d instanceof Ast.Script s) scripts.add(s.name());
        }
        List<Ast.Def> bindings = new ArrayList<>();
        Map<String, Ast.Def> mine = new LinkedHashMap<>();
        for (Ast.Def d : defs) {
            String name = d instanceof Ast.Define f ? f.name() : d instanceof Ast.Val v ? v.name() : null;
            if (name == null) continue;
            Ast.Def first = mine.putIfAbsent(name, d);
            if (first != null) {
                diagnostics.add(NormanCode.DUPLICATE_NAME.at(d.origin(), "`" + name + "` is defined twice in this program (first at "
                        + where(first.origin(), d.origin()) + ")"));
                continue;
            }
            bindings.add(d);
        }
        globalDefs.putAll(mine);
        for (List<Ast.Def> scc : components(bindings, mine)) group(scc);
        for (Ast.Def d : defs) {
            if (d instanceof Ast.TopExp t) topExp(t);
        }
        if (withTests) {
            for (Ast.Def d : defs) {
                if (d instanceof Ast.Test t) test(t);
                if (d instanceof Ast.Under u) under(u);
            }
        }
        resolveSelections(true);
    }

    /**
     * Types the field selections whose record is now known; with {@code force}, refuses those whose record never
     * became known, saying how to let it be.
     */
    private void resolveSelections(boolean force) {
        for (java.util.Iterator<Selection> it = selections.iterator(); it.hasNext(); ) {
            Selection sel = it.next();
            Ty r = sel.record().prune();
            if (r instanceof Ty.Var && !force) continue;
            it.remove();
            try {
                if (r instanceof Ty.Var) {
                    Ast.Dot d = sel.dot();
                    List<String> names = recordsWith(d.field()).stream().map(Decls.TypeInfo::name).toList();
                    throw new DiagnosticException(NormanCode.AMBIGUOUS_FIELD.at(d.origin(), "records " + String.join(" and ", names)
                            + " both have a field `" + d.field() + "`, and nothing in the program says which one this selects from: "
                            + "use it on a value built with one of them somewhere, e.g. (" + names.get(0) + " [" + d.field()
                            + " …] …), so its type is known, or give the fields different names",
                            "one record type", String.join(" or ", names)));
                }
                expect(sel.result(), select(sel.dot(), r), sel.dot().origin(), "(. e " + sel.dot().field() + ")");
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
        }
    }

    /** The records (in scope) that have a field {@code field}. */
    private List<Decls.TypeInfo> recordsWith(String field) {
        return decls.types.values().stream().filter(Decls.TypeInfo::isRecord)
                .filter(t -> fieldScope == null || fieldScope.contains(t.name()))
                .filter(t -> t.fields().stream().anyMatch(f -> f.name().equals(field))).toList();
    }

    /** Solves the effects and the ∞ limits once everything is typed; unconstrained effects are Pure. */
    void finish() {
        // The least solution of "callee may fail ⇒ caller may fail", each implication looked at once it can fire: the
        // ones whose callee may fail already, then those waiting on an effect that has just become Fail.
        Map<Ty.Var, List<Ty[]>> waiting = new IdentityHashMap<>();
        Deque<Ty[]> ready = new ArrayDeque<>();
        for (Ty[] imp : implications) {
            budget.charge(Phase.VERIFY, 1, Origin.UNKNOWN);
            Ty callee = imp[0].prune();
            if (callee instanceof Ty.Var v) waiting.computeIfAbsent(v, k -> new ArrayList<>()).add(imp);
            else if (callee.isFail()) ready.add(imp);
        }
        while (!ready.isEmpty()) {
            budget.charge(Phase.VERIFY, 1, Origin.UNKNOWN);
            Ty caller = ready.poll()[1].prune();
            if (caller.isFail()) continue;
            unifyOrThrow(caller, Ty.FAIL_EFFECT, Origin.UNKNOWN, "effect");
            List<Ty[]> next = caller instanceof Ty.Var v ? waiting.remove(v) : null;
            if (next != null) ready.addAll(next);
        }
        for (Ty.Var v : effectVars) if (v.prune() instanceof Ty.Var free) hm.assign(free, Ty.PURE_EFFECT);
        // Late bindings can grow a definition's type after it was generalized: every kept type is within the limits.
        for (Map.Entry<Ast.Def, Ty> e : defTypes.entrySet()) measure(e.getValue(), e.getKey().origin());
        for (Object[] l : limits) {
            Ty t = ((Ty) l[0]).prune();
            if (t instanceof Ty.Var v) { hm.assign(v, Ty.MONEY); continue; }
            if (t != Ty.MONEY && t != Ty.DURATION && !(t instanceof Ty.Con c && (c.name.equals("Money") || c.name.equals("Duration")))) {
                diagnostics.add(NormanCode.TYPE_MISMATCH.at((Origin) l[1], "∞ is a limit of money or of time", "Money or Duration", Ty.spelled(t)));
            }
        }
    }

    /**
     * Strongly connected components of the reference graph, callees first (the frontend kit's {@link Components}); each
     * lists its definitions in the order the search reached them.
     */
    private List<List<Ast.Def>> components(List<Ast.Def> bindings, Map<String, Ast.Def> byName) {
        return Components.of(bindings, d -> {
            List<Ast.Def> out = new ArrayList<>();
            Set<String> free = d instanceof Ast.Define f ? FreeVars.of(new Ast.Lambda(f.formals(), f.body(), f.origin())) : FreeVars.of(((Ast.Val) d).value());
            budget.charge(Phase.VERIFY, free.size() + 1, d.origin());
            for (String n : free) if (byName.containsKey(n)) out.add(byName.get(n));
            return out;
        });
    }

    /** One group of mutually recursive definitions: typed monomorphically together, then generalized. */
    private void group(List<Ast.Def> scc) {
        hm.enter();
        Map<Ast.Def, Ty> mono = new IdentityHashMap<>();
        for (Ast.Def d : scc) {
            Ty.Var v = new Ty.Var(decls.vars, hm.level(), false);
            mono.put(d, v);
            globals.put(name(d), Scheme.mono(v));
        }
        for (Ast.Def d : scc) {
            try {
                if (d instanceof Ast.Define f) {
                    Ty.Var eff = effectVar();
                    defEffects.put(d, eff);
                    Map<String, Scheme<Ty>> env = new HashMap<>();
                    List<Ty> params = new ArrayList<>();
                    for (String p : f.formals()) {
                        Ty pt = new Ty.Var(decls.vars, hm.level(), false);
                        params.add(pt);
                        env.put(p, Scheme.mono(pt));
                    }
                    Ty.Fun fun = new Ty.Fun(params, new Ty.Var(decls.vars, hm.level(), false), eff);
                    unifyOrThrow(mono.get(d), fun, f.origin(), "`" + f.name() + "`");
                    ctx.push(eff);
                    try {
                        Ty body = infer(f.body(), env);
                        expect(fun.ret, body, f.body().origin(), "the body of `" + f.name() + "`");
                    } finally {
                        ctx.pop();
                    }
                } else {
                    Ast.Val v = (Ast.Val) d;
                    Ty.Var eff = effectVar();
                    defEffects.put(d, eff);
                    ctx.push(eff);
                    try {
                        expect(mono.get(d), infer(v.value(), new HashMap<>()), v.value().origin(), "`" + v.name() + "`");
                    } finally {
                        ctx.pop();
                    }
                }
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
        }
        resolveSelections(false);
        hm.leave();
        for (Ast.Def d : scc) {
            Ty t = mono.get(d);
            defTypes.put(d, t);
            boolean generalize = d instanceof Ast.Define || isValue(((Ast.Val) d).value());
            globals.put(name(d), generalize ? generalize(t, d.origin()) : Scheme.mono(t));
        }
    }

    private static String name(Ast.Def d) { return d instanceof Ast.Define f ? f.name() : ((Ast.Val) d).name(); }

    private void topExp(Ast.TopExp t) {
        Ty.Var eff = effectVar();
        defEffects.put(t, eff);
        ctx.push(eff);
        try {
            defTypes.put(t, infer(t.exp(), new HashMap<>()));
        } catch (DiagnosticException e) {
            Budgets.rethrowCrossed(e);
            diagnostics.addAll(e.diagnostics());
        } finally {
            ctx.pop();
        }
    }

    private void under(Ast.Under u) {
        try {
            if (u.script().isPresent() && !scripts.contains(u.script().get())) {
                throw new DiagnosticException(NormanCode.UNBOUND.at(u.origin(), "no script named `" + u.script().get() + "`"));
            }
            Ty.Var eff = effectVar();
            ctx.push(eff);
            try {
                if (u.cost().isPresent()) expect(Ty.MONEY, infer(u.cost().get(), new HashMap<>()), u.cost().get().origin(), "the cost limit");
                if (u.time().isPresent()) expect(Ty.DURATION, infer(u.time().get(), new HashMap<>()), u.time().get().origin(), "the time limit");
            } finally {
                ctx.pop();
            }
        } catch (DiagnosticException e) {
            Budgets.rethrowCrossed(e);
            diagnostics.addAll(e.diagnostics());
        }
        for (Ast.Test t : u.tests()) test(t);
    }

    private void test(Ast.Test t) {
        int mark = hm.mark();
        int waiting = selections.size();
        try {
            List<Ty> effects = new ArrayList<>();
            List<Ty> ts = new ArrayList<>();
            for (Exp e : t.exps()) {
                Ty.Var eff = effectVar();
                effects.add(eff);
                ctx.push(eff);
                try {
                    boolean compared = t.testKind() == Ast.TestKind.CHECK_EXPECT || t.testKind() == Ast.TestKind.CHECK_EQUIV;
                    ts.add(compared ? side(e) : infer(e, new HashMap<>()));
                } finally {
                    ctx.pop();
                }
            }
            testEffects.put(t, effects);
            switch (t.testKind()) {
                case CHECK_EXPECT:
                case CHECK_EQUIV:
                    // A side whose catch answers either of two types is compared by value and type when the test runs.
                    if (t.exps().stream().noneMatch(testCatches::contains)) expect(ts.get(0), ts.get(1), t.exps().get(1).origin(), "the expected value");
                    break;
                case CHECK_ASSERT:
                    expect(Ty.BOOL, ts.get(0), t.exps().get(0).origin(), "the asserted expression");
                    break;
                case CHECK_FAIL:
                    pattern(t.pattern().orElseThrow(), failure(), new HashMap<>());
                    break;
                case CHECK_WITHIN:
                    expect(Ty.MONEY, ts.get(1), t.exps().get(1).origin(), "the cost limit");
                    expect(Ty.DURATION, ts.get(2), t.exps().get(2).origin(), "the time limit");
                    break;
                default:
                    break;
            }
        } catch (DiagnosticException e) {
            Budgets.rethrowCrossed(e);
            if (t.testKind() == Ast.TestKind.CHECK_ERROR) {
                // D10: a static error inside check-error is the checked run-time error the test expects.
                hm.undo(mark);
                while (selections.size() > waiting) selections.remove(selections.size() - 1);
                staticErrors.put(t, e.diagnostics().get(0));
                testEffects.putIfAbsent(t, List.of(effectVar()));
            } else {
                diagnostics.addAll(e.diagnostics());
            }
        }
    }

    /**
     * One compared side of check-expect or check-equiv. It is typed like any expression, with one exception that
     * keeps the language reference's complete example meaningful under static types (decisions D10): when the side
     * is a {@code catch} whose handler cannot answer the expression's type — {@code (catch (ask-v) e (case e [(ToolError
     * m) m] [_ "other"]))}, a Verdict or a Text — the expression and the handler are typed separately and the test
     * compares whichever value came out, type included; a value of the wrong type simply does not equal the other
     * side. Anywhere else, and when the two do agree, a handler answers like the expression.
     */
    private Ty side(Exp e) {
        if (!(e instanceof Ast.Catch c)) return infer(e, new HashMap<>());
        int mark = hm.mark();
        try {
            return infer(e, new HashMap<>());
        } catch (DiagnosticException mismatch) {
            Budgets.rethrowCrossed(mismatch);
            hm.undo(mark);
            try {
                Ty.Var inner = effectVar();
                catchEffects.put(e, inner);
                ctx.push(inner);
                Ty body;
                try {
                    body = infer(c.body(), new HashMap<>());
                } finally {
                    ctx.pop();
                }
                Map<String, Scheme<Ty>> henv = new HashMap<>();
                henv.put(c.name(), Scheme.mono(failure()));
                infer(c.handler(), henv);
                testCatches.add(e);
                types.put(e, body);
                return body;
            } catch (DiagnosticException elsewhere) {
                Budgets.rethrowCrossed(elsewhere);
                // The two parts are wrong on their own too: report what the whole form found.
                hm.undo(mark);
                throw mismatch;
            }
        }
    }

    // ---- expressions --------------------------------------------------------------------------------------------

    Ty infer(Exp e, Map<String, Scheme<Ty>> env) {
        budget.charge(Phase.VERIFY, 1, e.origin());
        Ty t = inferRaw(e, env);
        types.put(e, t);
        return t;
    }

    private Ty inferRaw(Exp e, Map<String, Scheme<Ty>> env) {
        switch (e.kind()) {
            case NUM: return Ty.NUM;
            case TEXT: return Ty.TEXT;
            case BOOL: return Ty.BOOL;
            case SYM: return Ty.SYM;
            case MONEY: return Ty.MONEY;
            case DURATION: return Ty.DURATION;
            case INFINITY: {
                Ty.Var v = fresh();
                limits.add(new Object[] {v, e.origin()});
                return v;
            }
            case EMPTY_LIST: return Ty.list(fresh());
            case VAR: return variable((Ast.Var) e, env);
            case IF: {
                Ast.If i = (Ast.If) e;
                expect(Ty.BOOL, infer(i.test(), env), i.test().origin(), "the test of if");
                Ty then = infer(i.then(), env);
                expect(then, infer(i.otherwise(), env), i.otherwise().origin(), "the else branch (it must match the then branch)");
                return then;
            }
            case LET_STAR: {
                Ast.LetStar l = (Ast.LetStar) e;
                Map<String, Scheme<Ty>> inner = scope(env, e.origin());
                for (Ast.Binding b : l.bindings()) {
                    hm.enter();
                    Ty t;
                    try {
                        t = infer(b.value(), inner);
                    } finally {
                        hm.leave();
                    }
                    Scheme<Ty> s = isValue(b.value()) ? generalize(t, b.origin()) : Scheme.mono(t);
                    letSchemes.put(b, s);
                    if (!b.name().equals("_")) inner.put(b.name(), s);
                }
                return infer(l.body(), inner);
            }
            case LAMBDA: {
                Ast.Lambda l = (Ast.Lambda) e;
                Map<String, Scheme<Ty>> inner = scope(env, e.origin());
                List<Ty> params = new ArrayList<>();
                for (String p : l.formals()) {
                    Ty pt = fresh();
                    params.add(pt);
                    inner.put(p, Scheme.mono(pt));
                }
                Ty.Var eff = effectVar();
                ctx.push(eff);
                try {
                    return new Ty.Fun(params, infer(l.body(), inner), eff);
                } finally {
                    ctx.pop();
                }
            }
            case APPLY: return apply((Ast.Apply) e, env);
            case DOT: return dot((Ast.Dot) e, env);
            case CASE: {
                Ast.Case c = (Ast.Case) e;
                Ty scrutinee = infer(c.scrutinee(), env);
                Ty result = fresh();
                for (Ast.Branch b : c.branches()) {
                    Map<String, Scheme<Ty>> inner = scope(env, e.origin());
                    pattern(b.pattern(), scrutinee, inner);
                    expect(result, infer(b.body(), inner), b.body().origin(), "this case branch (every branch has one type)");
                }
                return result;
            }
            case CONSTRUCT: {
                Ast.Construct c = (Ast.Construct) e;
                Decls.ConInfo con = decls.constructors.get(c.constructor());
                Decls.TypeInfo info = decls.types.get(con.datatype());
                List<Ty> args = freshArgs(info);
                Map<Ty.Var, Ty> map = Decls.instance(info, args);
                for (int i = 0; i < c.args().size(); i++) {
                    Decls.Field f = con.fields().get(i);
                    expect(substitute(f.type(), map, e.origin()), infer(c.args().get(i), env), c.args().get(i).origin(),
                            "field `" + f.name() + "` of `" + con.name() + "`");
                }
                return info.applied(args);
            }
            case RECORD_NEW: {
                Ast.RecordNew r = (Ast.RecordNew) e;
                Decls.TypeInfo info = decls.types.get(r.record());
                List<Ty> args = freshArgs(info);
                Map<Ty.Var, Ty> map = Decls.instance(info, args);
                Map<String, Decls.Field> byName = new HashMap<>();
                for (Decls.Field f : info.fields()) byName.put(f.name(), f);
                budget.charge(Phase.VERIFY, byName.size(), e.origin());
                for (Ast.Binding b : r.fields()) {
                    Decls.Field f = byName.get(b.name());
                    expect(substitute(f.type(), map, b.origin()), infer(b.value(), env), b.value().origin(), "field `" + f.name() + "` of `" + r.record() + "`");
                }
                return info.applied(args);
            }
            case LIST: {
                Ty elem = fresh();
                for (Exp x : ((Ast.ListExp) e).items()) expect(elem, infer(x, env), x.origin(), "a list element (a list holds one type)");
                return Ty.list(elem);
            }
            case CONS: {
                Ast.Cons c = (Ast.Cons) e;
                Ty h = infer(c.head(), env);
                Ty list = Ty.list(h);
                expect(list, infer(c.tail(), env), c.tail().origin(), "the tail of cons");
                return list;
            }
            case FAIL: {
                Ast.Fail f = (Ast.Fail) e;
                expect(failure(), infer(f.failure(), env), f.failure().origin(), "the argument of fail");
                mayFail(e.origin());
                return fresh();
            }
            case CATCH: {
                Ast.Catch c = (Ast.Catch) e;
                Ty.Var inner = effectVar();
                catchEffects.put(e, inner);
                ctx.push(inner);
                Ty body;
                try {
                    body = infer(c.body(), env);
                } finally {
                    ctx.pop();
                }
                Map<String, Scheme<Ty>> henv = scope(env, e.origin());
                henv.put(c.name(), Scheme.mono(failure()));
                expect(body, infer(c.handler(), henv), c.handler().origin(), "the handler of catch (it answers like the expression)");
                return body;
            }
            case ASK: {
                Ast.Ask a = (Ast.Ask) e;
                expect(Ty.MODEL, infer(a.model(), env), a.model().origin(), "the model of ask");
                expect(Ty.list(message()), infer(a.context(), env), a.context().origin(), "the context of ask");
                mayFail(e.origin());
                return decls.written(a.type(), hm.level());
            }
            case CALL: return callTool((Ast.CallTool) e, env);
            case BUDGET: {
                Ast.Budget b = (Ast.Budget) e;
                if (b.cost().isPresent()) expect(Ty.MONEY, infer(b.cost().get(), env), b.cost().get().origin(), "the cost of budget");
                if (b.time().isPresent()) expect(Ty.DURATION, infer(b.time().get(), env), b.time().get().origin(), "the time of budget");
                mayFail(e.origin());
                return infer(b.body(), env);
            }
            case WORKFLOW:
            default: {
                Ast.Workflow w = (Ast.Workflow) e;
                Map<String, Scheme<Ty>> inner = scope(env, e.origin());
                for (Ast.Binding b : w.steps()) inner.put(b.name(), Scheme.mono(infer(b.value(), inner)));
                return infer(w.body(), inner);
            }
        }
    }

    private Ty variable(Ast.Var v, Map<String, Scheme<Ty>> env) {
        Scheme<Ty> s = env.get(v.name());
        if (s != null) return instantiate(s, v.origin());
        s = globals.get(v.name());
        if (s != null) {
            varTargets.put(v, globalDefs.get(v.name()));
            return instantiate(s, v.origin());
        }
        s = primitives.get(v.name());
        if (s != null) return instantiate(s, v.origin());
        Ty val = sessionVals.get(v.name());
        if (val != null) return val;
        Ast.Grant g = grants.get(v.name());
        if (g != null && g.isMemory()) {
            throw new DiagnosticException(NormanCode.MEMORY_CALL.at(v.origin(), "`" + v.name() + "` is a memory grant, which is not a value: name it only "
                    + "as the capability of a call — (call " + v.name() + " get \"path\") — and pass paths to the functions that need it, or define "
                    + "functions that call it by name"));
        }
        if (g != null) {
            literalGrants.put(v, g);
            return g.isModel() ? Ty.MODEL : Ty.TOOL;
        }
        throw new DiagnosticException(NormanCode.UNBOUND.at(v.origin(), "`" + v.name() + "` is not bound here"
                + Names.hint(v.name(), env.keySet(), globals.keySet(), primitives.keySet(), sessionVals.keySet(), grants.keySet())));
    }

    private Ty apply(Ast.Apply a, Map<String, Scheme<Ty>> env) {
        if (a.fn() instanceof Ast.Var v && v.name().equals(TEXT_APPEND) && !env.containsKey(v.name()) && !globals.containsKey(v.name())
                && !globalDefs.containsKey(v.name())) {
            // The primitive text-append, not shadowed: applied, it takes as many texts as it is given.
            List<Ty> params = new ArrayList<>();
            for (int i = 0; i < a.args().size(); i++) {
                Exp x = a.args().get(i);
                expect(Ty.TEXT, infer(x, env), x.origin(), "argument " + (i + 1) + " of `" + TEXT_APPEND + "`");
                params.add(Ty.TEXT);
            }
            types.put(a.fn(), new Ty.Fun(params, Ty.TEXT, Ty.PURE_EFFECT));
            return Ty.TEXT;
        }
        Ty f = infer(a.fn(), env);
        List<Ty> args = new ArrayList<>();
        for (Exp x : a.args()) args.add(infer(x, env));
        Ty fr = f.prune();
        String what = a.fn() instanceof Ast.Var v ? "`" + v.name() + "`" : "the function";
        if (fr instanceof Ty.Fun fun) {
            if (fun.params.size() != args.size()) {
                throw new DiagnosticException(NormanCode.TYPE_MISMATCH.at(a.origin(), what + " takes " + fun.params.size() + " argument(s), given "
                        + args.size(), Ty.spelled(fr), args.size() + " argument(s)"));
            }
            for (int i = 0; i < args.size(); i++) {
                expect(fun.params.get(i), args.get(i), a.args().get(i).origin(), "argument " + (i + 1) + " of " + what);
            }
            implications.add(new Ty[] {fun.eff, ctx.peek()});
            return fun.ret;
        }
        Ty.Var eff = effectVar();
        Ty.Fun want = new Ty.Fun(args, fresh(), eff);
        expect(want, f, a.fn().origin(), what + " (it is applied)");
        implications.add(new Ty[] {eff, ctx.peek()});
        return want.ret;
    }

    private Ty dot(Ast.Dot d, Map<String, Scheme<Ty>> env) {
        Ty r = infer(d.record(), env).prune();
        if (r instanceof Ty.Var v) {
            budget.charge(Phase.VERIFY, decls.fieldCount(), d.origin());
            List<Decls.TypeInfo> candidates = recordsWith(d.field());
            if (candidates.isEmpty()) throw new DiagnosticException(NormanCode.AMBIGUOUS_FIELD.at(d.origin(), "no record has a field `" + d.field() + "`"));
            if (candidates.size() > 1) {
                // Several records have the field: the record's type is whatever the program's use of it says. Until it
                // is known the record and the field's type stay one type each, never generalized (level 0), so every
                // use of the enclosing definition speaks of the same record.
                Ty.Var result = new Ty.Var(decls.vars, 0, false);
                lower(v);
                selections.add(new Selection(d, v, result));
                return result;
            }
            return selectFrom(candidates.get(0), d, r);
        }
        return select(d, r);
    }

    /** Keeps {@code v} from being generalized: a selection waits for the one type it stands for. */
    private void lower(Ty.Var v) {
        hm.lower(v, 0);
    }

    /** {@code (. e field)} where e's type {@code r} is known (not a variable). */
    private Ty select(Ast.Dot d, Ty r) {
        Decls.TypeInfo info;
        if (r instanceof Ty.Con c) {
            info = decls.types.get(c.name);
            if (info == null || !info.isRecord()) {
                throw new DiagnosticException(NormanCode.TYPE_MISMATCH.at(d.origin(), "(. e " + d.field() + ") selects from a record, but e has type " + Ty.spelled(r),
                        "a record with field " + d.field(), Ty.spelled(r)));
            }
            return selectFrom(info, d, r);
        } else {
            throw new DiagnosticException(NormanCode.TYPE_MISMATCH.at(d.origin(), "(. e " + d.field() + ") selects from a record, but e is a function",
                    "a record", r.toString()));
        }
    }

    /** The type of field {@code d.field()} of record {@code info}, {@code r} being (or becoming) that record. */
    private Ty selectFrom(Decls.TypeInfo info, Ast.Dot d, Ty r) {
        List<Ty> args = freshArgs(info);
        expect(info.applied(args), r, d.record().origin(), "the record of (. e " + d.field() + ")");
        budget.charge(Phase.VERIFY, info.fields().size(), d.origin());
        Decls.Field f = info.fields().stream().filter(x -> x.name().equals(d.field())).findFirst().orElse(null);
        if (f == null) {
            throw new DiagnosticException(NormanCode.TYPE_MISMATCH.at(d.origin(), "record `" + info.name() + "` has no field `" + d.field() + "`",
                    info.fields().stream().map(Decls.Field::name).toList().toString(), d.field()));
        }
        return substitute(f.type(), Decls.instance(info, args), d.origin());
    }

    private Ty callTool(Ast.CallTool c, Map<String, Scheme<Ty>> env) {
        Optional<Ast.Grant> memory = memoryGrant(c.capability(), env);
        if (memory.isPresent()) return callMemory(c, memory.get(), env);
        Ty cap = infer(c.capability(), env).prune();
        for (Exp x : c.args()) expect(Ty.TEXT, infer(x, env), x.origin(), "an argument of call");
        mayFail(c.origin());
        if (cap instanceof Ty.Var) expect(Ty.TOOL, cap, c.capability().origin(), "the capability of call");
        else if (!(cap instanceof Ty.Con con) || !con.name.equals(Ty.TOOL.name)) {
            throw new DiagnosticException(NormanCode.NOT_A_CAPABILITY.at(c.capability().origin(),
                    "call needs a tool capability (a tool grant's name, or a value that holds one), but found " + Ty.spelled(cap), "Tool", Ty.spelled(cap)));
        }
        Ast.Grant literal = literalGrants.get(c.capability());
        if (literal != null) return answers(literal, c.op()).orElseGet(this::fresh);
        // Through a capability value the grant is known only at run time: what the call answers is what every tool
        // grant that declares the operation answers, so they must agree; an open grant answers that too (read like the
        // first declaration), or Text when no grant declares it; a closed grant that does not declare it is a checked
        // run-time error.
        Ty agreed = null;
        String agreedBy = null;
        for (Ast.Grant g : declaring(c.op())) {
            Ty t = answers(g, c.op()).orElseThrow();
            if (agreed == null) { agreed = t; agreedBy = g.name(); continue; }
            if (!unify(agreed, t, c.origin())) {
                throw new DiagnosticException(NormanCode.NOT_A_CAPABILITY.at(c.origin(), "this call's capability is not a grant's name, so its grant is known only "
                        + "when it runs, and the tool grants disagree on what `" + c.op() + "` answers (`" + agreedBy + "`: " + Ty.spelled(agreed) + ", `"
                        + g.name() + "`: " + Ty.spelled(t) + "); call the grant by its name", Ty.spelled(agreed), Ty.spelled(t)));
            }
        }
        if (agreed != null) return agreed;
        return grants.values().stream().anyMatch(g -> g.isTool() && g.entries().isEmpty()) ? Ty.TEXT : fresh();
    }

    /** The memory grant {@code cap} names where it is used (not shadowed by a local, a definition or a primitive), if any. */
    private Optional<Ast.Grant> memoryGrant(Exp cap, Map<String, Scheme<Ty>> env) {
        if (!(cap instanceof Ast.Var v) || env.containsKey(v.name()) || globals.containsKey(v.name()) || primitives.containsKey(v.name())
                || sessionVals.containsKey(v.name())) {
            return Optional.empty();
        }
        return Optional.ofNullable(grants.get(v.name())).filter(Ast.Grant::isMemory);
    }

    /** A memory grant's operations and what each takes after the capability: the path, and for put the value. */
    static final Map<String, Integer> MEMORY_OPS = Map.of("get", 1, "put", 2, "list", 1, "delete", 1);

    /**
     * {@code (call m op path [value])} on a memory grant {@code g}: {@code get} answers {@code (Option τ)} and may fail
     * ({@code Invalid}, for a stored value that is not a τ), {@code put} takes a τ, {@code list} answers the paths
     * (List Text), {@code put} and {@code delete} answer {@code #t}; τ is the grant's {@code [value τ]}, Text when
     * it declares none. The path (for list, the prefix) is Text.
     */
    private Ty callMemory(Ast.CallTool c, Ast.Grant g, Map<String, Scheme<Ty>> env) {
        literalGrants.put(c.capability(), g);
        Integer arity = MEMORY_OPS.get(c.op());
        if (arity == null) {
            throw new DiagnosticException(NormanCode.MEMORY_CALL.at(c.origin(), "`" + g.name() + "` is a memory grant, whose operations are get, put, "
                    + "list and delete, not `" + c.op() + "`"));
        }
        if (c.args().size() != arity) {
            String takes = c.op().equals("put") ? "a path and a value" : c.op().equals("list") ? "a path prefix (\"\" for the whole tree)" : "a path";
            throw new DiagnosticException(NormanCode.MEMORY_CALL.at(c.origin(), "(call " + g.name() + " " + c.op() + " …) takes " + takes
                    + ", given " + c.args().size() + " argument(s)"));
        }
        expect(Ty.TEXT, infer(c.args().get(0), env), c.args().get(0).origin(), "the path of (call " + g.name() + " " + c.op() + " …)");
        Ty value = g.valueType().map(t -> decls.written(t, hm.level())).orElse(Ty.TEXT);
        switch (c.op()) {
            case "get":
                mayFail(c.origin());
                return Ty.con("Option", value);
            case "put":
                expect(value, infer(c.args().get(1), env), c.args().get(1).origin(), "the value of (call " + g.name() + " put …), the grant's value type");
                return Ty.BOOL;
            case "list": return Ty.list(Ty.TEXT);
            default: return Ty.BOOL;
        }
    }

    /** The tool grants that declare {@code op} (a kernel declares fork), in declaration order. */
    List<Ast.Grant> declaring(String op) {
        List<Ast.Grant> out = new ArrayList<>();
        for (Ast.Grant g : grants.values()) {
            if (!g.isTool()) continue;
            if (g.host().equals("kernel") && op.equals("fork")) out.add(g);
            else if (g.entries().stream().anyMatch(h -> h.key().equals(op))) out.add(g);
        }
        return out;
    }

    /** What {@code op} of the tool grant {@code g} answers, or empty when {@code g} does not declare it (closed). */
    private Optional<Ty> answers(Ast.Grant g, String op) {
        if (g.host().equals("kernel") && op.equals("fork")) return Optional.of(Ty.TOOL);
        if (g.entries().isEmpty()) return Optional.of(Ty.TEXT);
        for (Ast.HostEntry h : g.entries()) if (h.key().equals(op)) return Optional.of(decls.written(h.type().orElseThrow(), hm.level()));
        // An operation a closed grant does not declare is a checked run-time error (the program is wrong, not the world).
        return Optional.empty();
    }

    /** Binds a pattern's variables against the scrutinee type. */
    private void pattern(Ast.Pattern p, Ty scrutinee, Map<String, Scheme<Ty>> env) {
        switch (p.kind()) {
            case WILD: return;
            case NIL: expect(scrutinee, Ty.list(fresh()), p.origin(), "the pattern '()"); return;
            case CONS: {
                Ast.PCons c = (Ast.PCons) p;
                Ty elem = fresh();
                expect(scrutinee, Ty.list(elem), p.origin(), "the pattern (cons h t)");
                c.head().ifPresent(h -> env.put(h, Scheme.mono(elem)));
                c.tail().ifPresent(t -> env.put(t, Scheme.mono(Ty.list(elem))));
                return;
            }
            case CON:
            default: {
                Ast.PCon c = (Ast.PCon) p;
                Decls.ConInfo con = decls.constructors.get(c.constructor());
                Decls.TypeInfo info = decls.types.get(con.datatype());
                List<Ty> args = freshArgs(info);
                expect(scrutinee, info.applied(args), p.origin(), "the pattern " + c.constructor());
                Map<Ty.Var, Ty> map = Decls.instance(info, args);
                for (int i = 0; i < c.vars().size(); i++) {
                    Ty ft = substitute(con.fields().get(i).type(), map, p.origin());
                    c.vars().get(i).ifPresent(v -> env.put(v, Scheme.mono(ft)));
                }
            }
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    Ty failure() { return new Ty.Con("Failure", List.of()); }

    private Ty message() { return new Ty.Con("Message", List.of()); }

    private List<Ty> freshArgs(Decls.TypeInfo info) {
        List<Ty> args = new ArrayList<>();
        for (int i = 0; i < info.params().size(); i++) args.add(fresh());
        return args;
    }

    private void mayFail(Origin at) { unifyOrThrow(ctx.peek(), Ty.FAIL_EFFECT, at, "effect"); }

    /** Syntactic values, the only let-bound expressions generalized. */
    static boolean isValue(Exp e) {
        switch (e.kind()) {
            case LAMBDA: case NUM: case TEXT: case BOOL: case SYM: case MONEY: case DURATION: case EMPTY_LIST: case VAR:
                return true;
            default:
                return false;
        }
    }

    private Ty.Var fresh() { return new Ty.Var(decls.vars, hm.level(), false); }

    private Ty.Var effectVar() {
        Ty.Var v = new Ty.Var(decls.vars, hm.level(), true);
        effectVars.add(v);
        return v;
    }

    /** A copy of {@code env} for an inner scope, charged by its size (a scope is copied at every binding form). */
    private Map<String, Scheme<Ty>> scope(Map<String, Scheme<Ty>> env, Origin at) {
        budget.charge(Phase.VERIFY, env.size() + 1, at);
        return new HashMap<>(env);
    }

    /** Generalizes {@code t} (a definition's or a let-bound value's type) over the variables above the current level. */
    private Scheme<Ty> generalize(Ty t, Origin at) {
        meterAt = at;
        return hm.generalize(t, v -> !((Ty.Var) v).effect);
    }

    /** A fresh instance of {@code s} at the current level (an effect variable stays one). */
    private Ty instantiate(Scheme<Ty> s, Origin at) {
        meterAt = at;
        return hm.instantiate(s, v -> new Ty.Var(decls.vars, hm.level(), ((Ty.Var) v).effect));
    }

    /** Replaces the variables of {@code map} inside {@code t}, charged per part and bounded in depth. */
    Ty substitute(Ty t, Map<Ty.Var, Ty> map, Origin at) {
        meterAt = at;
        return hm.substitute(t, map);
    }

    /**
     * Refuses {@code t} when, as a tree, it has more than {@code maxTypeSize} parts or nests deeper than
     * {@code maxNesting}; stops counting at the first part past either, so measuring costs at most the limit.
     */
    void measure(Ty t, Origin at) {
        meterAt = at;
        hm.measure(t);
    }

    /**
     * The meter of one of the kit's walks: unifying and copying charge each step and refuse a type nested past the
     * limit; binding (the occurs check) and collecting (generalizing, measuring) also count the type's parts, refused
     * past the size limit — so a type is never bound, generalized or kept when it is too large.
     */
    private Unifier.Meter meter(Unifier.Walk walk) {
        Origin at = meterAt;
        if (walk == Unifier.Walk.UNIFY || walk == Unifier.Walk.COPY) return depth -> step(depth, at);
        int[] size = {0};
        return depth -> {
            step(depth, at);
            budget.typeSize(Phase.VERIFY, ++size[0], at);
        };
    }

    /** One step of a walk over a type at {@code depth} (the root is 1): charged as work, refused past the nesting limit. */
    private void step(int depth, Origin at) {
        budget.charge(Phase.VERIFY, 1, at);
        if (depth > budget.limits().maxNesting()) throw Budgets.typeTooDeep(Phase.VERIFY, budget.limits().maxNesting(), at);
    }

    /** {@code found} must unify with {@code expected}; otherwise a type mismatch naming {@code what}. */
    private void expect(Ty expected, Ty found, Origin at, String what) {
        if (!unify(expected, found, at)) {
            String exp = Ty.spelled(expected);
            String fnd = Ty.spelled(found);
            throw new DiagnosticException(NormanCode.TYPE_MISMATCH.at(at, what + " has type " + fnd + " but " + exp + " is expected", exp, fnd));
        }
    }

    private void unifyOrThrow(Ty a, Ty b, Origin at, String what) { expect(a, b, at, what); }

    /**
     * Unifies {@code a} and {@code b} (the kit's occurs check measures each type a variable is bound to); false when they
     * differ, bindings made before the clash kept; a type that would contain itself is an error of its own.
     */
    private boolean unify(Ty a, Ty b, Origin at) {
        meterAt = at;
        try {
            hm.unify(a, b);
            return true;
        } catch (Mismatch m) {
            if (!m.infinite()) return false;
            Ty v = m.expected();
            Ty t = m.found();
            throw new DiagnosticException(NormanCode.INFINITE_TYPE.at(at, "this would need a type that contains itself: one equal to " + itself((Ty.Var) v, t)));
        }
    }

    /** {@code t} spelled with {@code v}, the type it would have to contain, as {@code itself} (any other open type is {@code Any}). */
    private static String itself(Ty.Var v, Ty t) { return Ty.show(t, w -> w == v ? "itself" : "Any"); }

    Optional<Ast.Grant> grant(String name) { return Optional.ofNullable(grants.get(name)); }
}
