package dev.finch.norman;

import dev.finch.frontend.types.Scheme;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.type.Type;
import dev.finch.norman.Ast.Exp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Lowers a typed µNorman program to the shared IR (design in {@code docs/norman.md}): Num→float,
 * Text→string, Bool→bool, Sym→symbol, (List t)→list&lt;t&gt;, a datatype→variant{Con(record{fields})|Nullary},
 * a record→record{…}; a top-level function is a word with a declared signature, a lambda a closure; a function
 * that may fail answers result&lt;T,Failure&gt; and its body propagates failures with {@code ?} (left to right; a
 * lambda or catch body that may fail is a closure declaring that result, which the verifier accepts as a target of
 * {@code ?}). A val whose initializer may fail is a constant of main holding that result (an err: the val bound
 * nothing, and reading it is the checked run-time error {@code program-error}); functions read it like any constant.
 * Only shared vocabulary words are emitted ({@code show}, {@code list-prepend}, {@code program-error},
 * {@code expect-ok}, {@code money-from-micros}, …); program names that are also vocabulary words are renamed
 * ({@link #userName}) so that they cannot shadow what the lowering calls.
 *
 * <p>A datatype or record that refers to itself lowers to the recursive type {@code rec<Name,T>}. A generic definition
 * that shows a value of its type variables is specialized per closed instance ({@link #target}), so {@code show}
 * always writes by a concrete type. A model or tool grant's name is a value ({@code model-capability},
 * {@code tool-capability}); an ask or call through any other expression of that type chooses, when it runs, the key
 * of the grant the value names among the program's grants ({@link #ask}, {@link #callTool}).
 *
 * <p>Lowering is bounded by the submission's {@link CompileBudget} (the one inference used): each expression lowered
 * is charged as work — a polymorphic local rebuilt at each use makes let-doubling exponential here even when its types
 * stay small, so the work limit is what stops it ({@code E-LIMIT-015}) — and so is each scope copied; the IR it
 * builds nests at most {@code maxNesting} deep (a case's branches nest, as do rebuilt locals: {@code E-LIMIT-012}),
 * and an IR type has at most {@code maxTypeSize} parts ({@code E-LIMIT-014}: records of records expand structurally).
 * A crossed limit ends the lowering.
 */
final class Lowerer {
    /**
     * The work charged for lowering one expression, in the units of {@link CompileBudget#charge}: lowering an
     * expression allocates instructions and copies scopes, several times what one unification step costs, and the
     * weight keeps what an exponential rebuild can allocate before the work limit stops it to a few tens of megabytes.
     */
    static final int EXPRESSION_WORK = 32;

    private final Infer inf;
    private final CompileBudget budget;
    /** How deeply the IR being built nests here; see {@link #exp}. */
    private int depth;
    /** The expression being lowered, where a limit crossed while lowering a type is reported. */
    private Origin here = Origin.UNKNOWN;
    private final Set<Ast.Def> basis;
    private final String language;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final Map<String, WordDef> words = new LinkedHashMap<>();
    private final Deque<Ast.Def> pending = new ArrayDeque<>();
    private final Set<Ast.Def> requested = Collections.newSetFromMap(new IdentityHashMap<>());
    private Type failureType;

    private final dev.finch.ir.vocab.Vocabulary vocabulary;

    Lowerer(Infer inf, Set<Ast.Def> basis, String language, dev.finch.ir.vocab.Vocabulary vocabulary) {
        this(inf, basis, language, vocabulary, Map.of());
    }

    /** A lowering where {@code session} holds the earlier turns' words (their effects may be reached from here). */
    Lowerer(Infer inf, Set<Ast.Def> basis, String language, dev.finch.ir.vocab.Vocabulary vocabulary, Map<String, Type.Fn> session) {
        this.inf = inf;
        this.budget = inf.budget;
        this.basis = basis;
        this.language = language;
        this.vocabulary = vocabulary;
        java.util.TreeSet<dev.finch.ir.cap.Capability> effects = new java.util.TreeSet<>(AGENTIC);
        for (dev.finch.ir.vocab.WordSpec w : vocabulary.words()) {
            if (w.origin() != dev.finch.ir.vocab.WordSpec.Provenance.HOST) continue;
            for (var o : w.overloads()) effects.addAll(o.signature().effects());
        }
        // A session word's template over its parameters is, in a function type, its bound.
        for (Type.Fn f : session.values()) effects.addAll(dev.finch.ir.vocab.RequirementTemplate.bounded(f.effects()));
        effects.remove(dev.finch.ir.cap.Capability.SESSION_EMIT);
        this.hostEffects = java.util.Collections.unmodifiableSortedSet(effects);
    }

    List<Diagnostic> diagnostics() { return diagnostics; }

    /**
     * When set, every top-level expression leaves its {@code result<T,Failure>} on the stack — {@code ok} of its value,
     * or the failure it ended with — and a failure does not stop the rest of the file: what a run that reports each
     * top-level form needs ({@code finch run FILE.nm --script NAME}). Unset, a value stays on the stack and an
     * uncaught failure stops the run ({@code expect-ok}).
     */
    private boolean topLevelResults;

    /** The vals and top-level expressions, in file order (the expressions' values, or results, are left in this order). */
    private final List<NormanTests.TopLevel> topLevel = new ArrayList<>();

    Lowerer reportingTopLevel() {
        topLevelResults = true;
        return this;
    }

    List<NormanTests.TopLevel> topLevel() { return List.copyOf(topLevel); }

    // ---- modules ------------------------------------------------------------------------------------------------

    /** The program's module: its definitions as words, its top-level expressions and failing vals in main. */
    Module program(List<Ast.Def> defs, String source) {
        List<Instr> main = main(defs);
        drain();
        return new Module(source, language, List.copyOf(words.values()), new Block(main));
    }

    /**
     * The names of the vals whose initializer may fail, in order: each is a constant of main holding a
     * {@code result<T,Failure>} (an err when the val failed, which binds nothing: reading it is a checked run-time
     * error).
     */
    List<Ast.Val> failingVals(List<Ast.Def> defs) {
        List<Ast.Val> out = new ArrayList<>();
        for (Ast.Def d : defs) if (d instanceof Ast.Val v && fallible(d)) out.add(v);
        return out;
    }

    /**
     * Main: first every failing val's constant bound to "not bound yet" (so that a function may read it whenever
     * main first uses that function: the verifier requires the constant to exist by then), then the definitions in
     * order — a failing val's initializer result replaces its constant and an err is reported with {@code say} —
     * and the top-level expressions, whose values stay on the stack.
     */
    private List<Instr> main(List<Ast.Def> defs) {
        programDefs = List.copyOf(defs);
        List<Instr> main = new ArrayList<>();
        for (Ast.Val v : failingVals(defs)) {
            Origin at = v.origin();
            Type slot = valSlot(v);
            main.add(new Instr.RecordLit(List.of(new Instr.RecordLit.Field("reason", Block.of(new Instr.Push(new Literal.SymbolLit("unbound"), at)), at)), at));
            main.add(Word.VARIANT.call(List.of(new Immediate.TypeArg(failure()), new Immediate.NameArg("Raised")), at));
            main.add(Word.ERR.call(at));
            main.add(new Instr.Constant(constName(v), Optional.of(slot), at));
        }
        int top = 0;
        for (Ast.Def d : defs) {
            try {
                switch (d.kind()) {
                    case DEFINE:
                    case VAL:
                        if (d instanceof Ast.Val v) {
                            topLevel.add(new NormanTests.TopLevel(v.origin(), Optional.of(v.name()), fallible(d) ? Optional.of(constName(v)) : Optional.empty()));
                        }
                        request(d);
                        if (d instanceof Ast.Val v && fallible(d)) {
                            Origin at = v.origin();
                            main.add(new Instr.Call(initName(v), at));
                            main.add(new Instr.Constant(constName(v), Optional.of(valSlot(v)), at));
                            main.add(new Instr.Call(constName(v), at));
                            List<Instr> report = new ArrayList<>();
                            report.add(Word.SHOW.call(at));
                            report.add(new Instr.Push(new Literal.StringLit(at + ": val " + v.name() + " failed, so it is not bound: "), at));
                            report.add(Word.SWAP.call(at));
                            report.add(Word.STRING_APPEND.call(at));
                            report.add(new Instr.Push(new Literal.StringLit("\n"), at));
                            report.add(Word.STRING_APPEND.call(at));
                            report.add(Word.SAY.call(at));
                            main.add(new Instr.IfOk(Block.of(Word.DROP.call(at)), new Block(report), at));
                        }
                        break;
                    case EXP: {
                        Ast.TopExp t = (Ast.TopExp) d;
                        topLevel.add(new NormanTests.TopLevel(t.origin(), Optional.empty(), Optional.empty()));
                        if (fallible(d)) {
                            String name = "nm.top." + (++top);
                            words.put(name, wrapper(name, t.exp(), inf.defEffects.get(d), t.origin(), true));
                            main.add(new Instr.Call(name, t.origin()));
                            if (!topLevelResults) main.add(Word.EXPECT_OK.call(t.origin()));
                        } else {
                            Fn f = new Fn(false, new Names(Map.of()), true);
                            exp(t.exp(), f, new Scope(), main);
                            if (topLevelResults) {
                                Type value = type(inf.defTypes.get(d), new Names(Map.of()), Map.of());
                                main.add(Word.OK.call(List.of(new Immediate.TypeArg(Type.result(value, failure()))), t.origin()));
                            }
                        }
                        break;
                    }
                    case GRANT:
                        break; // a grant is a declaration the ask and call sites name; the host grants its authority
                    case SCRIPT:
                        break; // scripts are data for the test harness's scripted model host
                    default:
                        break;
                }
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
        }
        return main;
    }

    /** The type of a failing val's constant: the result of its initializer. */
    private Type valSlot(Ast.Val v) {
        Ty t = inf.types.get(v.value());
        return Type.result(type(t, new Names(Map.of()), Map.of()), failure());
    }

    /**
     * A module for the test harness: the program (its words and main, so that loading it binds the vals) plus one
     * word per test expression (see {@link NormanTests}).
     */
    Module tests(List<Ast.Def> defs, List<Ast.Test> tests, Map<Ast.Test, List<String>> wordNames, Map<Ast.Test, String> matchers,
                 Map<Ast.Test, List<Optional<String>>> handlerNames, Map<Exp, String> limitWords, String source) {
        List<Instr> main = main(defs);
        for (var lim : limitWords.entrySet()) {
            try {
                words.put(lim.getValue(), wrapper(lim.getValue(), lim.getKey(), Ty.FAIL_EFFECT, lim.getKey().origin(), true));
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
        }
        int n = 0;
        for (Ast.Test t : tests) {
            n++;
            List<String> names = new ArrayList<>();
            List<Optional<String>> handlers = new ArrayList<>();
            try {
                Diagnostic staticError = inf.staticErrors.get(t);
                if (staticError != null) {
                    String name = "nm.test." + n + ".1";
                    List<Instr> body = List.of(new Instr.Push(new Literal.StringLit(staticError.message()), t.origin()),
                            Word.PROGRAM_ERROR.call(t.origin()));
                    words.put(name, new WordDef(name, Optional.of(fnType(List.of(), List.of(Type.result(Type.UNIT, failure())))), new Block(body), t.origin()));
                    names.add(name);
                } else {
                    for (int i = 0; i < t.exps().size(); i++) {
                        String name = "nm.test." + n + "." + (i + 1);
                        Exp e = t.exps().get(i);
                        if (inf.testCatches.contains(e)) {
                            // The caught expression, and its handler as a word of the failure (see Infer.side).
                            Ast.Catch c = (Ast.Catch) e;
                            words.put(name, wrapper(name, c.body(), Ty.FAIL_EFFECT, e.origin(), true));
                            words.put(name + ".handler", handler(name + ".handler", c));
                            handlers.add(Optional.of(name + ".handler"));
                        } else {
                            words.put(name, wrapper(name, e, Ty.FAIL_EFFECT, e.origin(), true));
                            handlers.add(Optional.empty());
                        }
                        names.add(name);
                    }
                }
                if (t.pattern().isPresent()) {
                    String name = "nm.test." + n + ".match";
                    words.put(name, matcher(name, t.pattern().get()));
                    matchers.put(t, name);
                }
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
            wordNames.put(t, names);
            handlerNames.put(t, handlers);
        }
        drain();
        return new Module(source, language, List.copyOf(words.values()), new Block(main));
    }

    private void request(Ast.Def d) {
        if (requested.add(d)) pending.add(d);
    }

    private void drain() {
        while (!pending.isEmpty() || !pendingInstances.isEmpty()) {
            if (pending.isEmpty()) {
                Instance in = pendingInstances.poll();
                try {
                    words.put(in.name(), instance(in));
                } catch (DiagnosticException e) {
                    Budgets.rethrowCrossed(e);
                    diagnostics.addAll(e.diagnostics());
                }
                continue;
            }
            Ast.Def d = pending.poll();
            try {
                if (d instanceof Ast.Define f) words.put(wordName(d), define(f));
                else {
                    Ast.Val v = (Ast.Val) d;
                    String name = fallible(d) ? initName(v) : wordName(d);
                    words.put(name, wrapper(name, v.value(), inf.defEffects.get(d), v.origin()));
                }
            } catch (DiagnosticException e) {
                Budgets.rethrowCrossed(e);
                diagnostics.addAll(e.diagnostics());
            }
        }
    }

    private String wordName(Ast.Def d) {
        String name = d instanceof Ast.Define f ? f.name() : ((Ast.Val) d).name();
        return basis.contains(d) ? dev.finch.ir.instr.WordDef.INTERNAL_PREFIX + name : userName(name);
    }

    private static String initName(Ast.Val v) { return "nm.init." + v.name(); }

    /** The constant holding a failing val's result. */
    String constName(Ast.Val v) { return userName(v.name()); }

    /**
     * A program's own name as an IR name. Module words and constants shadow the shared vocabulary, which the
     * lowering itself calls ({@code ok}, {@code drop}, {@code show}…), so a name that is also a vocabulary word
     * gets a prefix: {@code (define ok …)} becomes the word {@code nm.user.ok}.
     */
    String userName(String name) { return vocabulary.word(name).isPresent() ? Infer.USER_PREFIX + name : name; }

    private boolean fallible(Ast.Def d) { return inf.defEffects.get(d).isFail(); }

    // ---- words --------------------------------------------------------------------------------------------------

    private WordDef define(Ast.Define f) {
        Ty.Fun fun = (Ty.Fun) inf.defTypes.get(f).prune();
        inf.measure(fun, f.origin());
        return define(f, wordName(f), Names.of(fun), Map.of());
    }

    /** The word of {@code f} named {@code name}, its type variables spelled by {@code names} or fixed by {@code subst}. */
    private WordDef define(Ast.Define f, String name, Names names, Map<Ty.Var, Ty> subst) {
        Ty.Fun fun = (Ty.Fun) inf.defTypes.get(f).prune();
        Type.Fn sig = (Type.Fn) type(fun, names, subst);
        Fn fn = new Fn(fun.eff.isFail(), names, false, subst, new HashMap<>());
        List<Instr> body = new ArrayList<>();
        Scope scope = new Scope();
        params(f.formals(), fn, scope, body, f.origin());
        exp(f.body(), fn, scope, body);
        if (fn.fallible) body.add(Word.OK.call(f.origin()));
        return new WordDef(name, Optional.of(sig), new Block(body), f.origin());
    }

    // ---- specializations ----------------------------------------------------------------------------------------

    /**
     * One instance of a type-dependent generic definition ({@link #typeDependent}): the word {@code name} computes
     * {@code def} with each of its type variables fixed by {@code subst} to a closed type.
     */
    private record Instance(Ast.Def def, String name, Map<Ty.Var, Ty> subst) { }

    private final Map<String, String> instanceNames = new HashMap<>();
    private final Deque<Instance> pendingInstances = new ArrayDeque<>();
    private Set<Ast.Def> typeDependent;

    private WordDef instance(Instance in) {
        if (in.def() instanceof Ast.Define f) return define(f, in.name(), new Names(Map.of()), in.subst());
        Ast.Val v = (Ast.Val) in.def();
        Ty t = inf.types.get(v.value());
        Type out = type(t, new Names(Map.of()), in.subst());
        Type.Fn sig = fnType(List.of(), List.of(out));
        Fn fn = new Fn(false, new Names(Map.of()), false, in.subst(), new HashMap<>());
        List<Instr> body = new ArrayList<>();
        exp(v.value(), fn, new Scope(), body);
        return new WordDef(in.name(), Optional.of(sig), new Block(body), v.origin());
    }

    /**
     * The word a use of the definition {@code target} at type {@code used} (as the expression being lowered in
     * {@code fn} sees it) calls. A generic definition whose code depends on its type variables — it shows a value of
     * such a type, directly or through another such definition — is specialized: each closed instance is a word of
     * its own ({@code nm.inst.NAME.DIGEST}), lowered with the variables fixed, so {@code show} inside writes by the
     * concrete type exactly as it would at that type anywhere. Every other use calls the definition's one word.
     * Hindley–Milner has no polymorphic recursion, so a program has finitely many instances; each is lowered once
     * and charged like any word.
     */
    private String target(Ast.Def target, Ty used, Fn fn) {
        request(target);
        if (!typeDependent().contains(target)) return wordName(target);
        Ty generic = inf.defTypes.get(target);
        Names own = Names.of(generic);
        if (own.vars.isEmpty()) return wordName(target);
        Map<Ty.Var, Ty> found = new HashMap<>();
        match(generic, used, List.copyOf(own.vars.keySet()), found, 1);
        Map<Ty.Var, Ty> subst = new HashMap<>();
        StringBuilder key = new StringBuilder(wordName(target));
        for (Ty.Var v : own.vars.keySet()) {
            Ty closed = close(found.get(v), fn, 1);
            if (closed == null || mentions(closed, fn.names)) return wordName(target); // a generic caller: the generic word
            subst.put(v, closed);
            key.append(' ').append(type(closed, new Names(Map.of()), Map.of()));
        }
        String name = instanceNames.get(key.toString());
        if (name == null) {
            // Named by a digest of the instance (the definition and its closed types), so one name is one signature in
            // every turn of a session: a closure an earlier turn left on the stack never reaches another instance.
            name = WordDef.INTERNAL_PREFIX + "inst." + (target instanceof Ast.Define f ? f.name() : ((Ast.Val) target).name()) + "." + digest(key.toString());
            instanceNames.put(key.toString(), name);
            pendingInstances.add(new Instance(target, name, subst));
        }
        return name;
    }

    /** The first 12 hex digits of the SHA-256 of {@code text}. */
    private static String digest(String text) {
        return dev.finch.ir.Sha256.hex(text).substring(0, 12);
    }

    /** {@code t} with {@code fn}'s fixed type variables replaced, recursively (bounded in depth, charged). */
    private Ty close(Ty t, Fn fn, int depth) {
        if (t == null) return null;
        budget.charge(Phase.LOWER, 1, here);
        if (depth > budget.limits().maxNesting()) throw Budgets.typeTooDeep(Phase.LOWER, budget.limits().maxNesting(), here);
        t = t.prune();
        if (t instanceof Ty.Var v) return fn.subst.containsKey(v) ? close(fn.subst.get(v), fn, depth + 1) : v;
        if (t instanceof Ty.Con c) {
            if (c.args.isEmpty()) return c;
            List<Ty> args = new ArrayList<>();
            for (Ty a : c.args) args.add(close(a, fn, depth + 1));
            return new Ty.Con(c.name, args);
        }
        Ty.Fun f = (Ty.Fun) t;
        List<Ty> params = new ArrayList<>();
        for (Ty p : f.params) params.add(close(p, fn, depth + 1));
        return new Ty.Fun(params, close(f.ret, fn, depth + 1), f.eff);
    }

    /** True when {@code t} mentions one of the type parameters {@code names} spells (it is open in this word). */
    private static boolean mentions(Ty t, Names names) {
        t = t.prune();
        if (t instanceof Ty.Var v) return names.vars.containsKey(v);
        if (t instanceof Ty.Con c) {
            for (Ty a : c.args) if (mentions(a, names)) return true;
            return false;
        }
        Ty.Fun f = (Ty.Fun) t;
        for (Ty p : f.params) if (mentions(p, names)) return true;
        return mentions(f.ret, names);
    }

    /**
     * The generic definitions whose code depends on their type variables: those that use {@code show} (the primitive)
     * or a type-dependent definition, found by a fixpoint over the definitions' free names (each walk charged).
     */
    private Set<Ast.Def> typeDependent() {
        if (typeDependent != null) return typeDependent;
        Map<Ast.Def, Set<String>> free = new IdentityHashMap<>();
        for (Ast.Def d : inf.globalDefs.values()) {
            if (d instanceof Ast.Val v && fallible(d)) continue; // computed once: its value has one type
            if (Names.of(inf.defTypes.get(d)).vars.isEmpty()) continue;
            long[] walked = {0};
            Exp body = d instanceof Ast.Define f ? new Ast.Lambda(f.formals(), f.body(), f.origin()) : ((Ast.Val) d).value();
            free.put(d, FreeVars.of(body, walked));
            budget.charge(Phase.LOWER, walked[0], d.origin());
        }
        Set<Ast.Def> out = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean changed = true;
        while (changed) {
            changed = false;
            for (var e : free.entrySet()) {
                if (out.contains(e.getKey())) continue;
                budget.charge(Phase.LOWER, e.getValue().size() + 1, e.getKey().origin());
                for (String n : e.getValue()) {
                    Ast.Def d = inf.globalDefs.get(n);
                    if (d == null ? n.equals("show") && inf.isPrimitive(n) : out.contains(d)) {
                        out.add(e.getKey());
                        changed = true;
                        break;
                    }
                }
            }
        }
        typeDependent = out;
        return out;
    }

    /** A word with no inputs that computes {@code e}; it answers a result when {@code eff} may fail. */
    private WordDef wrapper(String name, Exp e, Ty eff, Origin at) { return wrapper(name, e, eff, at, false); }

    /**
     * As above; {@code closed} spells the expression's free type variables as unit rather than type parameters, for
     * words main or the harness calls once (a test, a top-level expression), whose value must have a known type.
     */
    private WordDef wrapper(String name, Exp e, Ty eff, Origin at, boolean closed) {
        Ty t = inf.types.get(e);
        inf.measure(t, at);
        Names names = closed ? new Names(Map.of()) : Names.of(t);
        boolean fails = eff.isFail();
        Type out = type(t, names, Map.of());
        Type.Fn sig = fnType(List.of(), List.of(fails ? Type.result(out, failure()) : out));
        Fn fn = new Fn(fails, names, false);
        List<Instr> body = new ArrayList<>();
        exp(e, fn, new Scope(), body);
        if (fails) body.add(Word.OK.call(at));
        return new WordDef(name, Optional.of(sig), new Block(body), at);
    }

    /** {@code Failure -> result<T,Failure>}: a test side's catch handler, run by the harness on the caught failure. */
    private WordDef handler(String name, Ast.Catch c) {
        Names names = new Names(Map.of());
        Type out = type(inf.types.get(c.handler()), names, Map.of());
        Fn fn = new Fn(true, names, false);
        List<Instr> body = new ArrayList<>();
        Scope scope = new Scope();
        params(List.of(c.name()), fn, scope, body, c.origin());
        exp(c.handler(), fn, scope, body);
        body.add(Word.OK.call(c.origin()));
        return new WordDef(name, Optional.of(fnType(List.of(failure()), List.of(Type.result(out, failure())))), new Block(body), c.origin());
    }

    /** {@code Failure -> bool}: whether a failure matches check-fail's pattern. */
    private WordDef matcher(String name, Ast.Pattern p) {
        List<Instr> body = new ArrayList<>();
        Origin at = p.origin();
        if (p instanceof Ast.PCon c) {
            body.add(variantGet(c.constructor(), at));
            body.add(Word.IS_SOME.call(at));
        } else {
            body.add(Word.DROP.call(at));
            body.add(new Instr.Push(new Literal.BoolLit(p.kind() == Ast.Pattern.Kind.WILD), at));
        }
        return new WordDef(name, Optional.of(Type.Fn.of(List.of(failure()), List.of(Type.BOOL))), new Block(body), at);
    }

    private void params(List<String> formals, Fn fn, Scope scope, List<Instr> out, Origin at) {
        List<String> locals = new ArrayList<>();
        for (String p : formals) locals.add(scope.bind(p, fn));
        for (int i = locals.size() - 1; i >= 0; i--) out.add(new Instr.LocalStore(locals.get(i), at));
    }

    // ---- expressions --------------------------------------------------------------------------------------------

    /**
     * Lowers {@code e} into {@code out}, charged as {@link #EXPRESSION_WORK}. Every expression but a literal or a plain
     * variable nests one level deeper than the expression around it — so the depth here never passes the reader's
     * bound on the source's nesting, except where lowering itself nests (a case's later branches, a rebuilt local),
     * which the same limit bounds.
     */
    private void exp(Exp e, Fn fn, Scope scope, List<Instr> out) {
        budget.charge(Phase.LOWER, EXPRESSION_WORK, e.origin());
        Origin around = here;
        here = e.origin();
        if (leaf(e, scope)) {
            lower(e, fn, scope, out);
            here = around;
            return;
        }
        deeper(e.origin());
        try {
            lower(e, fn, scope, out);
        } finally {
            depth--;
            here = around;
        }
    }

    /** One level deeper in the IR being built, refused past the nesting limit. */
    private void deeper(Origin at) {
        depth++;
        budget.nesting(Phase.LOWER, depth, at);
    }

    /** A literal, or a variable that is not a polymorphic local to rebuild: it lowers to instructions, never to a block. */
    private static boolean leaf(Exp e, Scope scope) {
        return switch (e.kind()) {
            case NUM, TEXT, BOOL, SYM, MONEY, DURATION, INFINITY, EMPTY_LIST -> true;
            case VAR -> !(scope.lookup(((Ast.Var) e).name()) instanceof Inline);
            default -> false;
        };
    }

    private void lower(Exp e, Fn fn, Scope scope, List<Instr> out) {
        Origin at = e.origin();
        switch (e.kind()) {
            case NUM: out.add(new Instr.Push(new Literal.FloatLit(((Ast.Num) e).value()), at)); return;
            case TEXT: out.add(new Instr.Push(new Literal.StringLit(((Ast.Text) e).value()), at)); return;
            case BOOL: out.add(new Instr.Push(new Literal.BoolLit(((Ast.Bool) e).value()), at)); return;
            case SYM: out.add(new Instr.Push(new Literal.SymbolLit(((Ast.Sym) e).name()), at)); return;
            case MONEY:
                out.add(new Instr.Push(new Literal.IntLit(((Ast.Money) e).micros()), at));
                out.add(Word.MONEY_FROM_MICROS.call(at));
                return;
            case DURATION:
                out.add(new Instr.Push(new Literal.IntLit(((Ast.Duration) e).millis()), at));
                out.add(Word.DURATION_FROM_MILLIS.call(at));
                return;
            case INFINITY: {
                Ty t = inf.types.get(e).prune();
                out.add((t instanceof Ty.Con c && c.name.equals("Duration") ? Word.DURATION_UNLIMITED : Word.MONEY_UNLIMITED).call(at));
                return;
            }
            case EMPTY_LIST: {
                Type list = typeOf(e, fn, scope);
                out.add(Word.EMPTY_LIST.call(List.of(new Immediate.TypeArg(((Type.ListT) list).element())), at));
                return;
            }
            case VAR: variable((Ast.Var) e, fn, scope, out); return;
            case IF: {
                Ast.If i = (Ast.If) e;
                exp(i.test(), fn, scope, out);
                out.add(new Instr.If(block(i.then(), fn, scope), block(i.otherwise(), fn, scope), at));
                return;
            }
            case LET_STAR: {
                Ast.LetStar l = (Ast.LetStar) e;
                Scope inner = copy(scope);
                for (Ast.Binding b : l.bindings()) {
                    Scheme<Ty> s = inf.letSchemes.get(b);
                    if (!b.name().equals("_") && s != null && !s.vars().isEmpty()) {
                        // A polymorphic local is a value (the value restriction): rebuild it at each use, at that use's type.
                        inner.inline(b.name(), new Inline(b.value(), s, copy(inner), fn.subst));
                        continue;
                    }
                    exp(b.value(), fn, inner, out);
                    if (b.name().equals("_")) out.add(Word.DROP.call(b.origin()));
                    else out.add(new Instr.LocalStore(inner.bind(b.name(), fn), b.origin()));
                }
                exp(l.body(), fn, inner, out);
                return;
            }
            case LAMBDA: {
                Ast.Lambda l = (Ast.Lambda) e;
                Ty.Fun fun = (Ty.Fun) inf.types.get(e).prune();
                Type.Fn type = (Type.Fn) type(fun, fn.names, fn.subst);
                Fn inner = fn.closure(fun.eff.isFail());
                Scope s = copy(scope);
                List<Instr> body = new ArrayList<>();
                params(l.formals(), inner, s, body, at);
                exp(l.body(), inner, s, body);
                if (inner.fallible) body.add(Word.OK.call(at));
                out.add(new Instr.Closure(type, new Block(body), at));
                return;
            }
            case APPLY: apply((Ast.Apply) e, fn, scope, out); return;
            case DOT: {
                Ast.Dot d = (Ast.Dot) e;
                exp(d.record(), fn, scope, out);
                out.add(Word.RECORD_GET.call(List.of(new Immediate.NameArg(d.field())), at));
                out.add(Word.UNWRAP.call(at));
                return;
            }
            case CASE: caseOf((Ast.Case) e, fn, scope, out); return;
            case CONSTRUCT: {
                Ast.Construct c = (Ast.Construct) e;
                Type t = typeOf(e, fn, scope);
                Decls.ConInfo con = inf.decls.constructors.get(c.constructor());
                if (!c.args().isEmpty()) {
                    List<String> names = con.fields().stream().map(Decls.Field::name).toList();
                    record(names, c.args(), fn, scope, out, at);
                }
                out.add(Word.VARIANT.call(List.of(new Immediate.TypeArg(t), new Immediate.NameArg(c.constructor())), at));
                return;
            }
            case RECORD_NEW: {
                Ast.RecordNew r = (Ast.RecordNew) e;
                record(r.fields().stream().map(Ast.Binding::name).toList(), r.fields().stream().map(Ast.Binding::value).toList(), fn, scope, out, at);
                return;
            }
            case LIST: {
                Ast.ListExp l = (Ast.ListExp) e;
                if (l.items().isEmpty()) {
                    Type list = typeOf(e, fn, scope);
                    out.add(Word.EMPTY_LIST.call(List.of(new Immediate.TypeArg(((Type.ListT) list).element())), at));
                    return;
                }
                List<Instr> items = new ArrayList<>();
                if (l.items().stream().anyMatch(this::mayFail)) {
                    // Left to right: evaluate into locals first, so a failure leaves no half-built literal.
                    List<String> temps = new ArrayList<>();
                    for (Exp x : l.items()) {
                        exp(x, fn, scope, out);
                        String tmp = fn.fresh("item");
                        out.add(new Instr.LocalStore(tmp, x.origin()));
                        temps.add(tmp);
                    }
                    for (String tmp : temps) items.add(new Instr.LocalLoad(tmp, at));
                } else {
                    for (Exp x : l.items()) exp(x, fn, scope, items);
                }
                out.add(new Instr.ListLit(new Block(items), at));
                return;
            }
            case CONS: {
                Ast.Cons c = (Ast.Cons) e;
                exp(c.head(), fn, scope, out);
                exp(c.tail(), fn, scope, out);
                out.add(Word.LIST_PREPEND.call(at));
                return;
            }
            case FAIL: {
                // err<result<T,Failure>>: the type µNorman inferred where the fail stands, so that what the verifier
                // sees after ? is that type and not a variable — an overloaded word applied to two fails ((+ (fail 'l)
                // (fail 'r)), a Num) must choose the overload µNorman chose.
                exp(((Ast.Fail) e).failure(), fn, scope, out);
                out.add(Word.ERR.call(List.of(new Immediate.TypeArg(Type.result(typeOf(e, fn, scope), failure()))), at));
                out.add(new Instr.Propagate(at));
                return;
            }
            case CATCH: {
                Ast.Catch c = (Ast.Catch) e;
                if (!inf.catchEffects.get(e).isFail()) {
                    exp(c.body(), fn, scope, out); // nothing inside can fail: the handler is unreachable
                    return;
                }
                Type t = typeOf(c.body(), fn, scope);
                Fn inner = fn.closure(true);
                List<Instr> body = new ArrayList<>();
                exp(c.body(), inner, copy(scope), body);
                body.add(Word.OK.call(at));
                out.add(new Instr.Closure(fnType(List.of(), List.of(Type.result(t, failure()))), new Block(body), at));
                out.add(Word.EXECUTE.call(at));
                Scope hs = copy(scope);
                List<Instr> handler = new ArrayList<>();
                handler.add(new Instr.LocalStore(hs.bind(c.name(), fn), at));
                exp(c.handler(), fn, hs, handler);
                out.add(new Instr.IfOk(Block.EMPTY, new Block(handler), at));
                return;
            }
            case WORKFLOW: {
                // Every step is a closure started with step-spawn, in the order the syntactic check gave them (each
                // after the steps it reads), and first joins the steps it reads: so it runs as soon as its inputs are
                // ready, concurrently with the others, on the run's deterministic scheduler. The body runs once every
                // step has ended; the first step in that order that failed is the workflow's failure. A step that may
                // fail hands its result to step-fail-siblings: the first to fail stops the others (each ends, at its next
                // check, with that failure: what it already asked for is charged, nothing new is sent), so the workflow
                // fails with it and spends nothing after its outcome is decided.
                Ast.Workflow w = (Ast.Workflow) e;
                List<String> names = w.steps().stream().map(Ast.Binding::name).toList();
                Optional<String> shared = sharedStatefulTool(w, scope);
                if (shared.isPresent()) {
                    out.add(new Instr.Push(new Literal.StringLit(at + ": " + shared.get()), at));
                    out.add(Word.PROGRAM_ERROR.call(at));
                    return;
                }
                boolean fails = fn.fallible;
                Map<String, String> tasks = new HashMap<>();
                for (Ast.Binding b : w.steps()) {
                    Type st = typeOf(b.value(), fn, scope);
                    Fn inner = fn.closure(fails);
                    Scope ss = copy(scope);
                    List<Instr> step = new ArrayList<>();
                    Set<String> deps = FreeVars.of(b.value());
                    for (String n : names) if (deps.contains(n) && tasks.containsKey(n)) join(tasks.get(n), n, fails, inner, ss, b.origin(), step);
                    exp(b.value(), inner, ss, step);
                    if (fails) {
                        step.add(Word.OK.call(b.origin()));
                        // [: ( -- result<T,F> ) [: ( -- result<T,F> ) step ;] execute step-fail-siblings ;]: ? inside returns
                        // from the inner closure, so every way the step ends passes the word.
                        Type.Fn answers = fnType(List.of(), List.of(Type.result(st, failure())));
                        List<Instr> outer = List.of(new Instr.Closure(answers, new Block(step), b.origin()), Word.EXECUTE.call(b.origin()),
                                Word.STEP_FAIL_SIBLINGS.call(b.origin()));
                        out.add(new Instr.Closure(answers, new Block(outer), b.origin()));
                    } else {
                        out.add(new Instr.Closure(fnType(List.of(), List.of(st)), new Block(step), b.origin()));
                    }
                    out.add(Word.STEP_SPAWN.call(b.origin()));
                    String task = fn.fresh("step-" + b.name().trim());
                    out.add(new Instr.LocalStore(task, b.origin()));
                    tasks.put(b.name(), task);
                }
                Type t = typeOf(w.body(), fn, scope);
                Scope ws = copy(scope);
                if (!fails) {
                    for (Ast.Binding b : w.steps()) join(tasks.get(b.name()), b.name(), false, fn, ws, at, out);
                    exp(w.body(), fn, ws, out);
                    return;
                }
                // A step may fail: the body is a closure answering a result, so that every step has ended before the
                // workflow does (none outlives it, and its spending lands inside the enclosing budget scope).
                Fn inner = fn.closure(true);
                List<Instr> body = new ArrayList<>();
                for (Ast.Binding b : w.steps()) join(tasks.get(b.name()), b.name(), true, inner, ws, at, body);
                exp(w.body(), inner, ws, body);
                body.add(Word.OK.call(at));
                out.add(new Instr.Closure(fnType(List.of(), List.of(Type.result(t, failure()))), new Block(body), at));
                out.add(Word.EXECUTE.call(at));
                for (Ast.Binding b : w.steps()) {
                    out.add(new Instr.LocalLoad(tasks.get(b.name()), at));
                    out.add(Word.STEP_JOIN.call(at));
                    out.add(Word.DROP.call(at));
                }
                out.add(new Instr.Propagate(at));
                return;
            }
            case ASK: ask((Ast.Ask) e, fn, scope, out); return;
            case CALL: callTool((Ast.CallTool) e, fn, scope, out); return;
            case BUDGET: {
                // The limits, then the body as a closure answering a result, so the scope closes whether it failed
                // or not; the result then propagates. Spending inside is the pool's, so it is charged outside too.
                Ast.Budget b = (Ast.Budget) e;
                if (b.cost().isPresent()) exp(b.cost().get(), fn, scope, out); else out.add(Word.MONEY_UNLIMITED.call(at));
                if (b.time().isPresent()) exp(b.time().get(), fn, scope, out); else out.add(Word.DURATION_UNLIMITED.call(at));
                out.add(Word.BUDGET_OPEN.call(at));
                Type t = typeOf(b.body(), fn, scope);
                Fn inner = fn.closure(true);
                List<Instr> body = new ArrayList<>();
                exp(b.body(), inner, copy(scope), body);
                body.add(Word.OK.call(at));
                out.add(new Instr.Closure(fnType(List.of(), List.of(Type.result(t, failure()))), new Block(body), at));
                out.add(Word.EXECUTE.call(at));
                out.add(Word.BUDGET_CLOSE.call(at));
                out.add(new Instr.Propagate(at));
                return;
            }
            default: throw agentic(at, "budget");
        }
    }

    /**
     * {@code (ask model τ context 'site)}: the context, then the grant's name, the site's {@link SiteKey} (τ and the grant's terms) and the
     * site, and the vocabulary word {@code model-ask}, whose result propagates like any failure. A type that is not
     * askable is the checked run-time error the ask would raise (askability is checked when the ask runs).
     */
    private void ask(Ast.Ask a, Fn fn, Scope scope, List<Instr> out) {
        Origin at = a.origin();
        Optional<Askable> type = askable(a.type());
        if (type.isEmpty()) {
            out.add(new Instr.Push(new Literal.StringLit("the type of the ask at " + at + " is not askable (it must be built from Text, Num, Bool, "
                    + "Sym, List and datatypes or records whose fields are all askable)"), at));
            out.add(Word.PROGRAM_ERROR.call(at));
            return;
        }
        Type answer = Type.result(typeOf(a, fn, scope), failure());
        Ast.Grant literal = inf.literalGrants.get(a.model());
        if (literal != null) {
            exp(a.context(), fn, scope, out);
            modelAsk(literal, type.get(), a.site(), answer, at, out);
            out.add(new Instr.Propagate(at));
            return;
        }
        // A model value (a parameter, a local, a field): left to right, the model, then the context; then the ask of
        // the grant the value names, chosen at run time among the program's model grants, each branch asking with
        // that grant's literal name and terms — so the preview is the union of those grants, and the host boundary
        // checks the one asked.
        exp(a.model(), fn, scope, out);
        out.add(Word.MODEL_GRANT.call(at));
        String grant = fn.fresh("model");
        out.add(new Instr.LocalStore(grant, at));
        exp(a.context(), fn, scope, out);
        String context = fn.fresh("context");
        out.add(new Instr.LocalStore(context, at));
        List<Ast.Grant> models = inf.grants.values().stream().filter(Ast.Grant::isModel).toList();
        List<Instr> chain = unknownGrant("model", grant, at);
        for (int i = models.size() - 1; i >= 0; i--) {
            Ast.Grant g = models.get(i);
            List<Instr> then = new ArrayList<>();
            then.add(new Instr.LocalLoad(context, at));
            modelAsk(g, type.get(), a.site(), answer, at, then);
            chain = List.of(new Instr.LocalLoad(grant, at), new Instr.Push(new Literal.StringLit(g.name()), at), Word.EQUALS.call(at),
                    new Instr.If(new Block(then), new Block(chain), at));
        }
        out.addAll(chain);
        out.add(new Instr.Propagate(at));
    }

    /** The ask of grant {@code g}, its context on the stack: the grant's name, its {@link SiteKey}, the site, {@code model-ask}. */
    private void modelAsk(Ast.Grant g, Askable type, String site, Type answer, Origin at, List<Instr> out) {
        String key = SiteKey.ask(type, SiteKey.Model.of(g)).spell();
        out.add(new Instr.Push(new Literal.StringLit(g.name()), at));
        out.add(new Instr.Push(new Literal.StringLit(key), at));
        out.add(new Instr.Push(new Literal.StringLit(site), at));
        // model-ask answers result<b,e> for any b: the ascription <result<τ,Failure>> fixes b here, so what follows
        // (a field read, say) knows the answer's type whatever the surrounding function declares.
        out.add(Word.MODEL_ASK.call(List.of(new Immediate.TypeArg(answer)), at));
    }

    /**
     * The checked run-time error of a capability value naming a grant this program does not declare (one from an
     * earlier turn of a session, say): the program is wrong, and nothing is asked or called.
     */
    private static List<Instr> unknownGrant(String kind, String local, Origin at) {
        return List.of(new Instr.Push(new Literal.StringLit(at + ": the " + kind + " `"), at), new Instr.LocalLoad(local, at),
                Word.STRING_APPEND.call(at),
                new Instr.Push(new Literal.StringLit("` is not a " + kind + " grant of this program"), at), Word.STRING_APPEND.call(at),
                Word.PROGRAM_ERROR.call(at));
    }

    /**
     * {@code (call cap op arg…)}: the capability, the operation, the (Text) arguments as a list, the key of the
     * operation's declared result type as a {@link SiteKey} ({@code fork} for a kernel's fork), and the vocabulary word
     * {@code tool-call}, whose result propagates like any failure. An operation a closed grant does not declare, or a
     * declared type that is not askable, is the checked run-time error the call would raise.
     */
    private void callTool(Ast.CallTool c, Fn fn, Scope scope, List<Instr> out) {
        Origin at = c.origin();
        Ast.Grant literal = inf.literalGrants.get(c.capability());
        if (literal != null && literal.isMemory()) {
            memoryCall(c, literal, fn, scope, out);
            return;
        }
        if (literal != null) {
            CallKey k = callKey(literal, c.op());
            if (k.key() == null) {
                out.add(new Instr.Push(new Literal.StringLit(at + ": " + k.refused()), at));
                out.add(Word.PROGRAM_ERROR.call(at));
                return;
            }
        }
        exp(c.capability(), fn, scope, out);
        String cap = null;
        if (literal == null) {
            cap = fn.fresh("capability");
            out.add(new Instr.LocalStore(cap, at));
            out.add(new Instr.LocalLoad(cap, at));
        }
        out.add(new Instr.Push(new Literal.StringLit(c.op()), at));
        List<Instr> items = new ArrayList<>();
        List<String> temps = new ArrayList<>();
        for (Exp x : c.args()) {
            exp(x, fn, scope, out);
            String tmp = fn.fresh("arg");
            out.add(new Instr.LocalStore(tmp, x.origin()));
            temps.add(tmp);
        }
        for (String tmp : temps) items.add(new Instr.LocalLoad(tmp, at));
        if (items.isEmpty()) out.add(Word.EMPTY_LIST.call(List.of(new Immediate.TypeArg(Type.STRING)), at));
        else out.add(new Instr.ListLit(new Block(items), at));
        if (literal != null) out.add(new Instr.Push(new Literal.StringLit(callKey(literal, c.op()).key()), at));
        else {
            // A capability value: the key of the grant it names, chosen at run time among the program's tool grants
            // (they agree on the result's type: Infer.callTool); a grant that does not declare the operation is the
            // checked run-time error a call of it by name would be. The host boundary checks tool.call(grant,op).
            String grant = fn.fresh("tool");
            List<Instr> chain = unknownGrant("tool", grant, at);
            List<Ast.Grant> tools = inf.grants.values().stream().filter(Ast.Grant::isTool).toList();
            for (int i = tools.size() - 1; i >= 0; i--) {
                Ast.Grant g = tools.get(i);
                CallKey k = callKey(g, c.op());
                List<Ast.Grant> declaring = inf.declaring(c.op());
                if (g.entries().isEmpty() && !(g.host().equals("kernel") && c.op().equals("fork")) && !declaring.isEmpty()) {
                    // An open grant through a value answers what the declaring grants agree on, read like the first one.
                    k = c.op().equals("fork") ? new CallKey(null, "`" + g.name() + "` is not a kernel, so it cannot fork") : callKey(declaring.get(0), c.op());
                }
                Block then = k.key() != null ? Block.of(new Instr.Push(new Literal.StringLit(k.key()), at))
                        : Block.of(new Instr.Push(new Literal.StringLit(at + ": " + k.refused()), at), Word.PROGRAM_ERROR.call(at));
                chain = List.of(new Instr.LocalLoad(grant, at), new Instr.Push(new Literal.StringLit(g.name()), at), Word.EQUALS.call(at),
                        new Instr.If(then, new Block(chain), at));
            }
            out.add(new Instr.LocalLoad(cap, at));
            out.add(Word.CAPABILITY_GRANT.call(at));
            out.add(new Instr.LocalStore(grant, at));
            out.addAll(chain);
        }
        // tool-call answers result<b,e> for any b: the ascription fixes b to the grant's declared type here.
        Type result = Type.result(type(inf.types.get(c), fn.names, fn.subst), failure());
        out.add(Word.TOOL_CALL.call(List.of(new Immediate.TypeArg(result)), at));
        out.add(new Instr.Propagate(at));
    }

    /**
     * {@code (call m op path [value])} on the memory grant {@code g} (always by its name: Infer refuses a memory grant
     * as a value): the grant's tree and the path, each a literal where the program wrote one, then Finch's memory word
     * ({@link MemoryLowering}). A value type that is not askable has no JSON to store or read: the call is the checked
     * run-time error it would raise.
     */
    private void memoryCall(Ast.CallTool c, Ast.Grant g, Fn fn, Scope scope, List<Instr> out) {
        Origin at = c.origin();
        boolean typed = c.op().equals("get") || c.op().equals("put");
        if (typed && g.valueType().isPresent() && askable(g.valueType().get()).isEmpty()) {
            out.add(new Instr.Push(new Literal.StringLit(at + ": the value type of the memory grant `" + g.name() + "` is not askable (it must be built "
                    + "from Text, Num, Bool, Sym, List and datatypes or records whose fields are all askable): its values are kept as the JSON show writes"), at));
            out.add(Word.PROGRAM_ERROR.call(at));
            return;
        }
        String tree = g.tree().orElseThrow();
        if (c.op().equals("put")) {
            // Left to right: the path, then the value; the tree and path reach memory-put after the value's json is made.
            String path = fn.fresh("memory-path");
            exp(c.args().get(0), fn, scope, out);
            out.add(new Instr.LocalStore(path, at));
            exp(c.args().get(1), fn, scope, out);
            MemoryLowering.put(tree, path, fn.fresh("memory-json"), at, out);
            return;
        }
        out.add(new Instr.Push(new Literal.StringLit(tree), at));
        exp(c.args().get(0), fn, scope, out);
        switch (c.op()) {
            case "get":
                MemoryLowering.get(typeOf(c, fn, scope), failure(), fn.fresh("memory-json"), fn.fresh("memory-value"), fn.fresh("memory-raw"), at, out);
                out.add(new Instr.Propagate(at));
                return;
            case "list": MemoryLowering.list(at, out); return;
            default: MemoryLowering.delete(at, out);
        }
    }

    /** The key of {@code op} of grant {@code g} ({@link SiteKey}), or why the call is refused (key null). */
    private record CallKey(String key, String refused) { }

    private CallKey callKey(Ast.Grant g, String op) {
        if (g.host().equals("kernel") && op.equals("fork")) return new CallKey(SiteKey.FORK, null);
        if (g.entries().isEmpty()) return new CallKey(SiteKey.call(Askable.text()).spell(), null);
        Ast.HostEntry h = g.entries().stream().filter(x -> x.key().equals(op)).findFirst().orElse(null);
        if (h == null) {
            return new CallKey(null, "grant `" + g.name() + "` does not declare operation `" + op + "` (it declares "
                    + g.entries().stream().map(Ast.HostEntry::key).toList() + ")");
        }
        Optional<Askable> type = askable(h.type().orElseThrow());
        if (type.isEmpty()) return new CallKey(null, "the result type of `" + g.name() + "` " + op + " is not askable (it must be built from Text, Num, "
                + "Bool, Sym, List and datatypes or records whose fields are all askable)");
        return new CallKey(SiteKey.call(type.get()).spell(), null);
    }

    /**
     * The askable type a written type denotes, or empty when it is not askable (Any, a type parameter, a cycle). Its
     * declarations expand like {@link #type(Ty, Names, Map)}'s, under the same bounds on parts and depth.
     */
    private Optional<Askable> askable(Ast.TypeExpr t) {
        int[] saved = parts;
        int savedDepth = typeDepth;
        parts = new int[] {0};
        typeDepth = 0;
        try {
            return askable(t, new HashSet<>());
        } finally {
            parts = saved;
            typeDepth = savedDepth;
        }
    }

    private Optional<Askable> askable(Ast.TypeExpr t, Set<String> visiting) {
        budget.charge(Phase.LOWER, 1, t.origin());
        budget.typeSize(Phase.LOWER, ++parts[0], t.origin());
        if (++typeDepth > budget.limits().maxNesting()) throw Budgets.typeTooDeep(Phase.LOWER, budget.limits().maxNesting(), t.origin());
        try {
            return askableHere(t, visiting);
        } finally {
            typeDepth--;
        }
    }

    private Optional<Askable> askableHere(Ast.TypeExpr t, Set<String> visiting) {
        switch (t.kind()) {
            case TEXT: return Optional.of(new Askable.Text(bound(((Ast.TText) t).bound())));
            case NUM: return Optional.of(new Askable.Num());
            case BOOL: return Optional.of(new Askable.Bool());
            case SYM: return Optional.of(new Askable.Sym());
            case LIST: {
                Ast.TList l = (Ast.TList) t;
                return askable(l.element(), visiting).map(x -> new Askable.ListOf(x, bound(l.bound())));
            }
            case NAMED: {
                String name = ((Ast.TNamed) t).name();
                Ast.Def d = typeDefs().get(name);
                if (d == null) return Optional.empty();
                // Met again inside itself: a recursive datatype or record refers to itself.
                if (!visiting.add(name)) return Optional.of(new Askable.Ref(name));
                try {
                    if (d instanceof Ast.RecordDecl r) {
                        Map<String, Askable> fields = fields(r.fields(), visiting);
                        return fields == null ? Optional.empty() : Optional.of(new Askable.Record(name, fields));
                    }
                    Map<String, Map<String, Askable>> cons = new LinkedHashMap<>();
                    for (Ast.ConDecl c : ((Ast.Datatype) d).constructors()) {
                        Map<String, Askable> fields = fields(c.fields(), visiting);
                        if (fields == null) return Optional.empty();
                        cons.put(c.name(), fields);
                    }
                    return Optional.of(new Askable.Datatype(name, cons));
                } finally {
                    visiting.remove(name);
                }
            }
            case ANY:
            default: return Optional.empty();
        }
    }

    private Map<String, Askable> fields(List<Ast.FieldDecl> decls, Set<String> visiting) {
        Map<String, Askable> out = new LinkedHashMap<>();
        for (Ast.FieldDecl f : decls) {
            Optional<Askable> a = askable(f.type(), visiting);
            if (a.isEmpty()) return null;
            out.put(f.name(), a.get());
        }
        return out;
    }

    private static java.util.OptionalLong bound(Optional<Long> b) { return b.map(java.util.OptionalLong::of).orElse(java.util.OptionalLong.empty()); }

    private Map<String, Ast.Def> typeDefs;

    /** Every datatype and record declaration, the basis's included, by name. */
    private Map<String, Ast.Def> typeDefs() {
        if (typeDefs == null) {
            typeDefs = new HashMap<>();
            List<Ast.Def> all = new ArrayList<>(basis);
            all.addAll(programDefs);
            for (Ast.Def d : all) {
                if (d instanceof Ast.Datatype dt) typeDefs.put(dt.name(), d);
                else if (d instanceof Ast.RecordDecl r) typeDefs.put(r.name(), d);
            }
        }
        return typeDefs;
    }

    private List<Ast.Def> programDefs = List.of();

    private Block block(Exp e, Fn fn, Scope scope) {
        List<Instr> out = new ArrayList<>();
        exp(e, fn, copy(scope), out);
        return new Block(out);
    }

    /** A record literal of named values (a record, or a constructor's payload); evaluation stays left to right. */
    private void record(List<String> names, List<Exp> values, Fn fn, Scope scope, List<Instr> out, Origin at) {
        Map<String, Block> fields = new TreeMap<>();
        boolean temps = values.stream().anyMatch(this::mayFail);
        for (int i = 0; i < names.size(); i++) {
            Exp v = values.get(i);
            if (temps) {
                exp(v, fn, scope, out);
                String tmp = fn.fresh(names.get(i));
                out.add(new Instr.LocalStore(tmp, v.origin()));
                fields.put(names.get(i), Block.of(new Instr.LocalLoad(tmp, v.origin())));
            } else {
                fields.put(names.get(i), block(v, fn, scope));
            }
        }
        List<Instr.RecordLit.Field> lit = new ArrayList<>();
        for (var f : fields.entrySet()) lit.add(new Instr.RecordLit.Field(f.getKey(), f.getValue(), at));
        out.add(new Instr.RecordLit(lit, at));
    }

    private void variable(Ast.Var v, Fn fn, Scope scope, List<Instr> out) {
        Origin at = v.origin();
        Object local = scope.lookup(v.name());
        if (local instanceof String name) { out.add(new Instr.LocalLoad(name, at)); return; }
        if (local instanceof Inline in) {
            Ty generic = inf.types.get(in.value);
            Map<Ty.Var, Ty> map = new HashMap<>(in.subst);
            match(generic, inf.types.get(v), in.scheme.vars(), map, 1);
            exp(in.value, fn.withSubst(map), in.scope, out);
            return;
        }
        Ast.Def target = inf.varTargets.get(v);
        if (target != null) {
            String word = target(target, inf.types.get(v), fn);
            if (target instanceof Ast.Define) {
                // As a value, a closure that calls the word: its type declares the host effects like every function
                // value's, whatever the word itself is inferred to do.
                Type.Fn type = (Type.Fn) type(inf.types.get(v).prune(), fn.names, fn.subst);
                Fn inner = fn.closure(false);
                Scope s = copy(scope);
                List<Instr> body = new ArrayList<>();
                List<String> params = new ArrayList<>();
                for (int i = 0; i < type.ins().size(); i++) params.add(fn.fresh("arg"));
                for (int i = params.size() - 1; i >= 0; i--) body.add(new Instr.LocalStore(params.get(i), at));
                for (String p : params) body.add(new Instr.LocalLoad(p, at));
                body.add(new Instr.Call(word, at));
                out.add(new Instr.Closure(type, new Block(body), at));
                return;
            }
            Ast.Val val = (Ast.Val) target;
            if (!fallible(target)) { out.add(new Instr.Call(word, at)); return; }
            // A failing val's constant holds its initializer's result; an err means the val bound nothing.
            out.add(new Instr.Call(constName(val), at));
            out.add(new Instr.IfOk(Block.EMPTY, Block.of(Word.DROP.call(at),
                    new Instr.Push(new Literal.StringLit("`" + val.name() + "` is not bound: its val (" + val.origin() + ") failed or has not run yet"), at),
                    Word.PROGRAM_ERROR.call(at)), at));
            return;
        }
        if (inf.isSessionVal(v.name())) {
            // An earlier turn's val: the word that computes it.
            out.add(new Instr.Call(inf.sessionWord(v.name()).orElseThrow(), at));
            return;
        }
        if (inf.isPrimitive(v.name())) {
            // A primitive as a value: a closure that applies it.
            Ty.Fun fun = (Ty.Fun) inf.types.get(v).prune();
            Type.Fn type = (Type.Fn) type(fun, fn.names, fn.subst);
            List<Instr> body = new ArrayList<>();
            primitive(v.name(), fun, fn, at, body);
            out.add(new Instr.Closure(type, new Block(body), at));
            return;
        }
        Ast.Grant g = inf.literalGrants.get(v);
        if (g != null && g.isTool()) {
            // A tool grant's own capability value; it confers nothing by itself (each call is checked by the host).
            out.add(new Instr.Push(new Literal.StringLit(v.name()), at));
            out.add(new Instr.Push(new Literal.BoolLit(g.host().equals("kernel") || g.host().equals("filesystem")), at));
            out.add(Word.TOOL_CAPABILITY.call(at));
            return;
        }
        if (g != null && g.isModel()) {
            // A model grant's value: it names the grant and confers nothing by itself (each ask is checked by the host).
            out.add(new Instr.Push(new Literal.StringLit(v.name()), at));
            out.add(Word.MODEL_CAPABILITY.call(at));
            return;
        }
        throw agentic(at, "a grant's capability");
    }

    private void apply(Ast.Apply a, Fn fn, Scope scope, List<Instr> out) {
        Origin at = a.origin();
        Ty.Fun fun = (Ty.Fun) inf.types.get(a.fn()).prune();
        for (Exp x : a.args()) exp(x, fn, scope, out);
        boolean called = false;
        if (a.fn() instanceof Ast.Var v && scope.lookup(v.name()) == null) {
            Ast.Def target = inf.varTargets.get(v);
            if (target instanceof Ast.Define) {
                out.add(new Instr.Call(target(target, inf.types.get(a.fn()), fn), at));
                called = true;
            } else if (target == null && inf.isPrimitive(v.name())) {
                primitive(v.name(), fun, fn, at, out);
                called = true;
            }
        }
        if (!called) {
            exp(a.fn(), fn, scope, out);
            out.add(Word.EXECUTE.call(at));
        }
        if (fun.eff.isFail()) out.add(new Instr.Propagate(at));
    }

    /** The instructions of a primitive, its arguments already pushed. */
    private void primitive(String name, Ty.Fun fun, Fn fn, Origin at, List<Instr> out) {
        // show is typed by its call site (the value's IR type), and + - * / < > = are shared vocabulary words with
        // a float overload: each primitive is one vocabulary word, except Finch's text functions, which are the
        // string words (text-append folds any number of texts, text-length converts the int count to a Num).
        switch (name) {
            case "remaining" -> out.add(Word.BUDGET_REMAINING.call(at));
            case Infer.TEXT_APPEND -> {
                // (text-append) is "", one text is itself, n texts are n-1 appends.
                int n = fun.params.size();
                if (n == 0) out.add(new Instr.Push(new Literal.StringLit(""), at));
                for (int i = 1; i < n; i++) out.add(Word.STRING_APPEND.call(at));
            }
            case "text-join" -> out.add(Word.STRING_JOIN.call(at));
            case "text-split" -> out.add(Word.STRING_SPLIT.call(at));
            case "text-contains" -> out.add(Word.STRING_CONTAINS.call(at));
            case "text-length" -> {
                // µNorman numbers are floats.
                out.add(Word.STRING_LENGTH.call(at));
                out.add(Word.INT_TO_FLOAT.call(at));
            }
            default -> out.add(new Instr.Call(inf.sessionWord(name).orElse(name), at));
        }
    }

    // ---- case ---------------------------------------------------------------------------------------------------

    private void caseOf(Ast.Case c, Fn fn, Scope scope, List<Instr> out) {
        exp(c.scrutinee(), fn, scope, out);
        String s = fn.fresh("scrutinee");
        out.add(new Instr.LocalStore(s, c.origin()));
        Ty st = inf.types.get(c.scrutinee()).prune();
        Set<String> all = new HashSet<>();
        if (st instanceof Ty.Con con && inf.decls.types.containsKey(con.name)) {
            for (Decls.ConInfo ci : inf.decls.types.get(con.name).constructors()) all.add(ci.name());
        } else {
            all.add("'()");
            all.add("cons");
        }
        out.addAll(branches(c, 0, s, new HashSet<>(), all, fn, scope));
    }

    private List<Instr> branches(Ast.Case c, int i, String s, Set<String> covered, Set<String> all, Fn fn, Scope scope) {
        List<Instr> out = new ArrayList<>();
        if (i == c.branches().size()) {
            out.add(new Instr.Push(new Literal.StringLit("no branch of the case at " + c.origin() + " matches"), c.origin()));
            out.add(Word.PROGRAM_ERROR.call(c.origin()));
            return out;
        }
        Ast.Branch b = c.branches().get(i);
        Origin at = b.origin();
        Scope inner = copy(scope);
        Ast.Pattern p = b.pattern();
        Set<String> now = new HashSet<>(covered);
        switch (p.kind()) {
            case WILD:
                exp(b.body(), fn, inner, out);
                return out;
            case NIL: {
                now.add("'()");
                if (now.containsAll(all)) { exp(b.body(), fn, inner, out); return out; }
                out.add(new Instr.LocalLoad(s, at));
                out.add(Word.LIST_LENGTH.call(at));
                out.add(new Instr.Push(new Literal.IntLit(0), at));
                out.add(Word.EQUALS.call(at));
                out.add(new Instr.If(new Block(bodyOf(b, fn, inner)), new Block(laterBranches(c, i + 1, s, now, all, fn, scope)), at));
                return out;
            }
            case CONS: {
                Ast.PCons pc = (Ast.PCons) p;
                now.add("cons");
                List<Instr> some = new ArrayList<>();
                bindFields(List.of("head", "tail"), List.of(pc.head(), pc.tail()), fn, inner, some, at);
                some.addAll(bodyOf(b, fn, inner));
                out.add(new Instr.LocalLoad(s, at));
                out.add(Word.LIST_UNCONS.call(at));
                finishTest(c, i, s, now, all, fn, scope, out, some, at);
                return out;
            }
            case CON:
            default: {
                Ast.PCon pc = (Ast.PCon) p;
                now.add(pc.constructor());
                Decls.ConInfo con = inf.decls.constructors.get(pc.constructor());
                List<Instr> some = new ArrayList<>();
                if (con.fields().isEmpty()) some.add(Word.DROP.call(at));
                else bindFields(con.fields().stream().map(Decls.Field::name).toList(), pc.vars(), fn, inner, some, at);
                some.addAll(bodyOf(b, fn, inner));
                out.add(new Instr.LocalLoad(s, at));
                out.add(variantGet(pc.constructor(), at));
                finishTest(c, i, s, now, all, fn, scope, out, some, at);
                return out;
            }
        }
    }

    /** The branches from {@code i} on, in the else block of branch {@code i - 1}: one level deeper. */
    private List<Instr> laterBranches(Ast.Case c, int i, String s, Set<String> covered, Set<String> all, Fn fn, Scope scope) {
        deeper(c.branches().get(Math.min(i, c.branches().size() - 1)).origin());
        try {
            return branches(c, i, s, covered, all, fn, scope);
        } finally {
            depth--;
        }
    }

    /** An option is on the stack: branch on it, or, when this branch completes the coverage, take it as certain. */
    private void finishTest(Ast.Case c, int i, String s, Set<String> now, Set<String> all, Fn fn, Scope scope, List<Instr> out,
                            List<Instr> some, Origin at) {
        if (now.containsAll(all)) {
            out.add(Word.UNWRAP.call(at));
            out.addAll(some);
        } else {
            out.add(new Instr.IfSome(new Block(some), new Block(laterBranches(c, i + 1, s, now, all, fn, scope)), at));
        }
    }

    private List<Instr> bodyOf(Ast.Branch b, Fn fn, Scope scope) {
        List<Instr> out = new ArrayList<>();
        exp(b.body(), fn, scope, out);
        return out;
    }

    /** The payload record is on the stack: bind the named fields to locals and drop it. */
    private void bindFields(List<String> fields, List<Optional<String>> vars, Fn fn, Scope scope, List<Instr> out, Origin at) {
        for (int k = 0; k < fields.size(); k++) {
            if (vars.get(k).isEmpty()) continue;
            out.add(Word.DUP.call(at));
            out.add(Word.RECORD_GET.call(List.of(new Immediate.NameArg(fields.get(k))), at));
            out.add(Word.UNWRAP.call(at));
            out.add(new Instr.LocalStore(scope.bind(vars.get(k).get(), fn), at));
        }
        out.add(Word.DROP.call(at));
    }

    private static Instr variantGet(String tag, Origin at) {
        return Word.VARIANT_GET.call(List.of(new Immediate.NameArg(tag)), at);
    }

    // ---- effects and types --------------------------------------------------------------------------------------

    /** Conservatively: may evaluating {@code e} fail (so its order relative to its siblings is observable)? */
    private boolean mayFail(Exp e) {
        switch (e.kind()) {
            case FAIL: case ASK: case CALL: case BUDGET: return true;
            case LAMBDA: return false;
            case APPLY: {
                Ast.Apply a = (Ast.Apply) e;
                if (((Ty.Fun) inf.types.get(a.fn()).prune()).eff.isFail()) return true;
                return mayFail(a.fn()) || a.args().stream().anyMatch(this::mayFail);
            }
            default: {
                // Every other form fails only through a sub-expression; find one.
                boolean[] found = {false};
                children(e).forEach(x -> found[0] |= mayFail(x));
                return found[0];
            }
        }
    }

    private static List<Exp> children(Exp e) {
        List<Exp> out = new ArrayList<>();
        switch (e.kind()) {
            case IF: { Ast.If i = (Ast.If) e; out.add(i.test()); out.add(i.then()); out.add(i.otherwise()); break; }
            case LET_STAR: { Ast.LetStar l = (Ast.LetStar) e; l.bindings().forEach(b -> out.add(b.value())); out.add(l.body()); break; }
            case DOT: out.add(((Ast.Dot) e).record()); break;
            case CASE: { Ast.Case c = (Ast.Case) e; out.add(c.scrutinee()); c.branches().forEach(b -> out.add(b.body())); break; }
            case CONSTRUCT: out.addAll(((Ast.Construct) e).args()); break;
            case RECORD_NEW: ((Ast.RecordNew) e).fields().forEach(b -> out.add(b.value())); break;
            case LIST: out.addAll(((Ast.ListExp) e).items()); break;
            case CONS: out.add(((Ast.Cons) e).head()); out.add(((Ast.Cons) e).tail()); break;
            case CATCH: out.add(((Ast.Catch) e).handler()); break;
            case WORKFLOW: { Ast.Workflow w = (Ast.Workflow) e; w.steps().forEach(b -> out.add(b.value())); out.add(w.body()); break; }
            default: break;
        }
        return out;
    }

    private Type typeOf(Exp e, Fn fn, Scope scope) { return type(inf.types.get(e), fn.names, fn.subst); }

    private Type failure() {
        if (failureType == null) failureType = type(inf.failure(), new Names(Map.of()), Map.of());
        return failureType;
    }

    /**
     * The IR type of a µNorman type; {@code names} spells the word's type parameters, other free variables are unit.
     * Records and datatypes expand structurally, so a small µNorman type can stand for a large IR type: each part built
     * is charged, and one of more than {@code maxTypeSize} parts, or nested deeper than {@code maxNesting}, is refused.
     */
    Type type(Ty t, Names names, Map<Ty.Var, Ty> subst) {
        int[] saved = parts;
        int savedDepth = typeDepth;
        parts = new int[] {0};
        typeDepth = 0;
        try {
            return type(t, names, subst, new java.util.LinkedHashSet<>(), Map.of());
        } finally {
            openArgs.clear();
            referenced.clear();
            parts = saved;
            typeDepth = savedDepth;
        }
    }

    /** The instance arguments of each declaration being expanded, and those met again inside themselves. */
    private final Map<String, List<Type>> openArgs = new HashMap<>();
    private final Set<String> referenced = new HashSet<>();

    /** The parts of the IR type being built by the outermost {@link #type(Ty, Names, Map)} call, and how deep it is. */
    private int[] parts = {0};
    private int typeDepth;

    /**
     * {@code open} holds the declarations being expanded (one met again inside itself is recursive); {@code bound}
     * the type parameters of those declarations, already lowered where they were instantiated — an argument is not
     * inside the declaration, so {@code (Pair [fst 1] [snd (Pair …)])} is nested, not recursive.
     */
    private Type type(Ty t, Names names, Map<Ty.Var, Ty> subst, Set<String> open, Map<Ty.Var, Type> bound) {
        budget.charge(Phase.LOWER, 1, here);
        budget.typeSize(Phase.LOWER, ++parts[0], here);
        if (++typeDepth > budget.limits().maxNesting()) throw Budgets.typeTooDeep(Phase.LOWER, budget.limits().maxNesting(), here);
        try {
            return typeHere(t, names, subst, open, bound);
        } finally {
            typeDepth--;
        }
    }

    private Type typeHere(Ty t, Names names, Map<Ty.Var, Ty> subst, Set<String> open, Map<Ty.Var, Type> bound) {
        t = t.prune();
        if (t instanceof Ty.Var v) {
            if (bound.containsKey(v)) return bound.get(v);
            if (subst.containsKey(v)) return type(subst.get(v), names, subst, open, bound);
            String n = names.vars.get(v);
            return n == null ? Type.UNIT : Type.var(n);
        }
        if (t instanceof Ty.Fun f) {
            List<Type> ins = new ArrayList<>();
            for (Ty p : f.params) ins.add(type(p, names, subst, open, bound));
            Type ret = type(f.ret, names, subst, open, bound);
            return fnType(ins, List.of(f.eff.isFail() ? Type.result(ret, failure()) : ret));
        }
        Ty.Con c = (Ty.Con) t;
        switch (c.name) {
            case "Text": return Type.STRING;
            case "Num": return Type.FLOAT;
            case "Bool": return Type.BOOL;
            case "Sym": return Type.SYMBOL;
            case "List": return Type.list(type(c.args.get(0), names, subst, open, bound));
            case "Money": return new Type.Named("money");
            case "Duration": return new Type.Named("duration");
            case "Model": return new Type.Named("model");
            case "Tool": return new Type.Named("capability");
            default: break;
        }
        Decls.TypeInfo info = inf.decls.types.get(c.name);
        if (c.args.size() != info.params().size()) {
            // A reference made while its declaration was still being declared, before all of its Any fields were seen:
            // only generic declarations that refer to each other have one.
            throw new DiagnosticException(NormanCode.RECURSIVE_TYPE.at(info.origin(), "`" + c.name + "` and the declarations it contains refer "
                    + "to each other, and one of them has an Any field; mutually recursive declarations cannot be generic yet"));
        }
        Map<Ty.Var, Type> inner = new HashMap<>(bound);
        List<Type> args = new ArrayList<>();
        for (var arg : Decls.instance(info, c.args).entrySet()) {
            Type a = type(arg.getValue(), names, subst, open, bound);
            inner.put(arg.getKey(), a);
            args.add(a);
        }
        if (open.contains(c.name)) {
            // Met again inside itself (directly, or through declarations it contains that refer back to it): a
            // reference to the recursive type being expanded, which binds it (rec<Name,…>). A recursive type refers to
            // itself at its own parameters (regular recursion); anything else has no finite type.
            if (!args.equals(openArgs.get(c.name))) {
                throw new DiagnosticException(NormanCode.RECURSIVE_TYPE.at(info.origin(), "`" + c.name + "` refers to itself at other type "
                        + "parameters than its own, which has no finite type"));
            }
            // Declarations that refer to each other are recursive together; when one of them is generic (has an Any
            // field), its parameters are not shared with the others, so that is refused rather than guessed.
            boolean after = false, generic = !info.params().isEmpty();
            for (String o : open) {
                if (o.equals(c.name)) after = true;
                else if (after) generic |= !inf.decls.types.get(o).params().isEmpty();
            }
            if (generic && !open.stream().reduce((x, y) -> y).orElse("").equals(c.name)) {
                throw new DiagnosticException(NormanCode.RECURSIVE_TYPE.at(info.origin(), "`" + c.name + "` and the declarations it contains refer "
                        + "to each other, and one of them has an Any field; mutually recursive declarations cannot be generic yet"));
            }
            referenced.add(c.name);
            return new Type.Named(c.name);
        }
        open.add(c.name);
        openArgs.put(c.name, args);
        Type out;
        if (info.isRecord()) {
            Map<String, Type> fields = new LinkedHashMap<>();
            for (Decls.Field f : info.fields()) fields.put(f.name(), type(f.type(), names, subst, open, inner));
            out = new Type.RecordT(fields);
        } else {
            Map<String, Optional<Type>> tags = new LinkedHashMap<>();
            for (Decls.ConInfo con : info.constructors()) {
                if (con.fields().isEmpty()) { tags.put(con.name(), Optional.empty()); continue; }
                Map<String, Type> fields = new LinkedHashMap<>();
                for (Decls.Field f : con.fields()) fields.put(f.name(), type(f.type(), names, subst, open, inner));
                tags.put(con.name(), Optional.of(new Type.RecordT(fields)));
            }
            out = new Type.VariantT(tags);
        }
        open.remove(c.name);
        openArgs.remove(c.name);
        if (referenced.remove(c.name)) out = new Type.Named(c.name, Optional.of(out));
        return out;
    }

    /** Matches a generic type against an instance, recording what each of {@code vars} stands for. */
    private void match(Ty generic, Ty instance, List<Ty> vars, Map<Ty.Var, Ty> out, int depth) {
        budget.charge(Phase.LOWER, 1, here);
        if (depth > budget.limits().maxNesting()) throw Budgets.typeTooDeep(Phase.LOWER, budget.limits().maxNesting(), here);
        generic = generic.prune();
        if (generic instanceof Ty.Var v) {
            if (vars.contains(v)) out.putIfAbsent(v, instance);
            return;
        }
        instance = instance.prune();
        if (generic instanceof Ty.Con g && instance instanceof Ty.Con i) {
            for (int k = 0; k < Math.min(g.args.size(), i.args.size()); k++) match(g.args.get(k), i.args.get(k), vars, out, depth + 1);
        } else if (generic instanceof Ty.Fun g && instance instanceof Ty.Fun i) {
            for (int k = 0; k < Math.min(g.params.size(), i.params.size()); k++) match(g.params.get(k), i.params.get(k), vars, out, depth + 1);
            match(g.ret, i.ret, vars, out, depth + 1);
        }
    }

    /**
     * What any µNorman function may do at the host boundary: ask a model, call a tool, read and write memory — and call
     * the host's own words
     * ({@link #hostEffects}). Every function type the lowering writes — words, lambdas, the closures of catch, budget
     * and workflow steps, global functions passed as values — declares that set, so a call through any of them is a
     * point where the run can pause (for approval or a deferred host) and resume; a word's effects are still only
     * what its body is inferred to do.
     */
    static final java.util.SortedSet<dev.finch.ir.cap.Capability> AGENTIC = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(List.of(
            dev.finch.ir.cap.Capability.of("model.ask", "*"), dev.finch.ir.cap.Capability.of("tool.call", "*", "*"),
            dev.finch.ir.cap.Capability.of("memory.read", "tree=*", "path=**"), dev.finch.ir.cap.Capability.of("memory.write", "tree=*", "path=**"))));

    /** {@link #AGENTIC} and the requirements of the host's own words, which µNorman calls as functions. */
    private final java.util.SortedSet<dev.finch.ir.cap.Capability> hostEffects;

    /** A function type of the lowering: {@code ins -> outs} with the {@link #hostEffects}. */
    Type.Fn fnType(List<Type> ins, List<Type> outs) { return new Type.Fn(ins, outs, hostEffects, Optional.empty()); }

    /** Binds {@code name} to the value of the step {@code task} (waiting for it), propagating its failure if it may fail. */
    private static void join(String task, String name, boolean fails, Fn fn, Scope scope, Origin at, List<Instr> out) {
        out.add(new Instr.LocalLoad(task, at));
        out.add(Word.STEP_JOIN.call(at));
        if (fails) out.add(new Instr.Propagate(at));
        out.add(new Instr.LocalStore(scope.bind(name, fn), at));
    }

    /**
     * Why the workflow's steps may not run concurrently, if they may not: two steps that use one stateful tool (a
     * kernel or filesystem grant), directly or through the functions they call — forking a kernel does not count.
     */
    private Optional<String> sharedStatefulTool(Ast.Workflow w, Scope scope) {
        Map<String, List<String>> users = new java.util.TreeMap<>();
        for (Ast.Binding b : w.steps()) {
            if (b.name().startsWith(" ")) continue; // par's steps are named by the parser; report them as par
            for (String g : statefulTools(b.value(), scope)) users.computeIfAbsent(g, k -> new ArrayList<>()).add(b.name());
        }
        List<String> parSteps = w.steps().stream().map(Ast.Binding::name).filter(n -> n.startsWith(" ")).toList();
        if (!parSteps.isEmpty()) {
            users.clear();
            for (Ast.Binding b : w.steps()) for (String g : statefulTools(b.value(), scope)) users.computeIfAbsent(g, k -> new ArrayList<>()).add(
                    b.name().endsWith("a") ? "the first branch of par" : "the second branch of par");
        }
        for (var u : users.entrySet()) {
            if (u.getValue().size() > 1) {
                return Optional.of("the steps " + String.join(" and ", u.getValue()) + " share the stateful tool `" + u.getKey()
                        + "` (" + inf.grant(u.getKey()).map(Ast.Grant::host).orElse("?") + "), so they cannot run concurrently: "
                        + "fork a kernel for each step, or make them one step");
            }
        }
        return Optional.empty();
    }

    /** The stateful tools (kernel and filesystem grants) {@code e} uses, through the top-level functions it names too. */
    private Set<String> statefulTools(Ast.Exp e, Scope scope) {
        Set<String> tools = new java.util.TreeSet<>();
        Set<String> seen = new HashSet<>();
        java.util.ArrayDeque<Ast.Exp> todo = new java.util.ArrayDeque<>(List.of(e));
        boolean top = true;
        long[] walked = {0};
        while (!todo.isEmpty()) {
            Ast.Exp x = todo.pop();
            Set<String> free = FreeVars.ofIgnoringForks(x, walked);
            budget.charge(Phase.LOWER, walked[0], x.origin());
            walked[0] = 0;
            for (String n : free) {
                if (top && scope.lookup(n) != null) continue;
                Optional<Ast.Grant> g = inf.grant(n);
                if (g.isPresent()) {
                    if (g.get().host().equals("kernel") || g.get().host().equals("filesystem")) tools.add(n);
                    continue;
                }
                if (seen.add(n)) todo.addAll(definitionBodies().getOrDefault(n, List.of()));
            }
            top = false;
        }
        return tools;
    }

    private Map<String, List<Ast.Exp>> definitionBodies;

    /** The bodies of the program's defines and vals by name (each name's, in program order). */
    private Map<String, List<Ast.Exp>> definitionBodies() {
        if (definitionBodies == null) {
            definitionBodies = new HashMap<>();
            for (Ast.Def d : programDefs) {
                if (d instanceof Ast.Define f) definitionBodies.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(f.body());
                else if (d instanceof Ast.Val v) definitionBodies.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v.value());
            }
        }
        return definitionBodies;
    }

    private static DiagnosticException agentic(Origin at, String what) {
        return new DiagnosticException(NormanCode.AGENTIC_NOT_LOWERED.at(at, what + " is not lowered yet: it needs the agentic vocabulary "
                + "(models, tools, budgets, scripts) that the next issue adds"));
    }

    // ---- lowering state -----------------------------------------------------------------------------------------

    /** Spells a word's type parameters {@code a b c …} in order of appearance in its type. */
    static final class Names {
        final Map<Ty.Var, String> vars;

        Names(Map<Ty.Var, String> vars) { this.vars = vars; }

        static Names of(Ty t) {
            Map<Ty.Var, String> m = new LinkedHashMap<>();
            collect(t, m);
            return new Names(m);
        }

        private static void collect(Ty t, Map<Ty.Var, String> m) {
            t = t.prune();
            if (t instanceof Ty.Var v) {
                if (!v.effect && !m.containsKey(v)) m.put(v, m.size() < 26 ? String.valueOf((char) ('a' + m.size())) : "a" + m.size());
            } else if (t instanceof Ty.Con c) {
                for (Ty a : c.args) collect(a, m);
            } else {
                Ty.Fun f = (Ty.Fun) t;
                for (Ty p : f.params) collect(p, m);
                collect(f.ret, m);
            }
        }
    }

    /** The function being lowered: whether it answers a result, its type names, its flat local namespace. */
    private static final class Fn {
        final boolean fallible;
        final Names names;
        final boolean main;
        final Map<Ty.Var, Ty> subst;
        final Map<String, Integer> counters;

        Fn(boolean fallible, Names names, boolean main) { this(fallible, names, main, Map.of(), new HashMap<>()); }

        private Fn(boolean fallible, Names names, boolean main, Map<Ty.Var, Ty> subst, Map<String, Integer> counters) {
            this.fallible = fallible;
            this.names = names;
            this.main = main;
            this.subst = subst;
            this.counters = counters;
        }

        Fn closure(boolean fails) { return new Fn(fails, names, false, subst, counters); }

        Fn withSubst(Map<Ty.Var, Ty> s) { return new Fn(fallible, names, main, s, counters); }

        /** A local name unique within the word (closures share the word's namespace). */
        String fresh(String base) {
            String clean = base.trim().isEmpty() ? "t" : base.trim();
            int n = counters.merge(clean, 1, Integer::sum);
            return n == 1 ? clean : clean + "-" + n;
        }
    }

    /** A polymorphic let-bound value, rebuilt where it is used. */
    private record Inline(Exp value, Scheme<Ty> scheme, Scope scope, Map<Ty.Var, Ty> subst) { }

    /** A copy of {@code s} for an inner scope, charged by its size (a scope is copied at every binding form). */
    private Scope copy(Scope s) {
        budget.charge(Phase.LOWER, s.size() + 1, here);
        return s.copy();
    }

    /** Lexical scope: a µNorman name → its IR local name, or an {@link Inline}. */
    private static final class Scope {
        private final Map<String, Object> names;

        Scope() { this(new HashMap<>()); }

        private Scope(Map<String, Object> names) { this.names = names; }

        Scope copy() { return new Scope(new HashMap<>(names)); }

        int size() { return names.size(); }

        Object lookup(String name) { return names.get(name); }

        String bind(String name, Fn fn) {
            String local = fn.fresh(name);
            names.put(name, local);
            return local;
        }

        void inline(String name, Inline in) { names.put(name, in); }
    }
}
