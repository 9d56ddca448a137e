package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.checked.Row;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.LimitCode;
import dev.finch.ir.type.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies a module: its words on demand and memoized (so they may refer to each other in any order), then the
 * program, then effects. A word with a declared signature is checked against it; a word without one is first
 * inferred (its stack open at the bottom, inputs appearing as it consumes them, the leftover meta-variables
 * generalized into type variables) and then checked against the inferred signature like a declared one, so
 * every checked body is produced the same way. A word still being verified can be called only through its
 * declared signature: recursion without one is an error.
 */
final class ModuleChecker {
    private enum Status { NEW, IN_PROGRESS, DONE, FAILED }

    private static final class WordInfo {
        final WordDef def;
        Status status = Status.NEW;
        Type.Fn sig;
        CheckedWord checked;

        WordInfo(WordDef def) { this.def = def; }
    }

    final Module module;
    final Environment env;
    /** The submission's compile budget: every instruction checked and every unification step is charged to it. */
    final CompileBudget budget;
    final Substitution subst;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final Map<String, WordInfo> words = new LinkedHashMap<>();
    private final Deque<String> inProgress = new ArrayDeque<>(4);
    private final Map<String, Type> constants = new LinkedHashMap<>();
    /** Names the program's main defines as constants at its top level, found before any body is checked. */
    private final Set<String> mainConstants = new java.util.HashSet<>();
    /** Words that read a constant of main, directly or through other words of this module: checked in main's order. */
    private final Set<String> deferred = new java.util.HashSet<>();
    /** Constants of main that some word has read, with the first such word: a redefinition must keep their type. */
    private final Map<String, String> readBy = new HashMap<>();

    ModuleChecker(Module module, Environment env) {
        this.module = module;
        this.env = env;
        this.budget = env.budget();
        this.subst = new Substitution(budget);
    }

    /**
     * True when {@code e} is a compile limit (or the deadline, or a cancellation): it ends the whole verification,
     * not only the body that crossed it, so the caller rethrows it instead of recording it and going on.
     */
    static boolean isLimit(DiagnosticException e) {
        for (Diagnostic d : e.diagnostics()) {
            for (LimitCode c : LimitCode.values()) if (c.code().equals(d.code())) return true;
        }
        return false;
    }

    Verification run() {
        if (module.words() == null || module.main() == null) {
            return Verification.failed(List.of(VerifyCode.MALFORMED_IR.at(origin(null), "the module has no word list or no main block")));
        }
        // Bounds every recursive pass below (and the VM's compiler) by the nesting limit; see Blocks.
        Blocks.checkNesting(module, budget);
        for (WordDef def : module.words()) {
            if (def == null || def.name() == null || def.body() == null || def.declared() == null) {
                diagnostics.add(VerifyCode.MALFORMED_IR.at(def == null ? origin(null) : origin(def.origin()), "a word definition is missing its name, body or signature option"));
            } else if (words.containsKey(def.name())) {
                diagnostics.add(VerifyCode.DUPLICATE_WORD.at(origin(def.origin()), "word `" + def.name() + "` is defined twice in this submission; "
                        + "rename one (the first is at " + origin(words.get(def.name()).def.origin()) + ")"));
            } else {
                words.put(def.name(), new WordInfo(def));
            }
        }
        findDeferred();
        for (WordInfo info : words.values()) if (info.status == Status.NEW && !deferred.contains(info.def.name())) verify(info);
        CheckedWord main = null;
        try {
            main = checkMain();
        } catch (DiagnosticException e) {
            if (isLimit(e)) throw e;
            diagnostics.addAll(e.diagnostics());
        }
        // Words main never reached can run only in later submissions, after this program completed and committed
        // every constant it defines; they are checked against the final constants. After a failed main the
        // constants are incomplete, and main's own diagnostic is the one to fix first.
        if (main != null) for (WordInfo info : words.values()) if (info.status == Status.NEW) verify(info);
        if (!diagnostics.isEmpty() || main == null) return Verification.failed(diagnostics);

        Map<String, EffectInference.Unit> units = new LinkedHashMap<>();
        for (WordInfo info : words.values()) units.put(info.def.name(), new EffectInference.Unit(info.checked, info.def.declared().orElse(null)));
        EffectInference.Result effects = EffectInference.run(units, main, env);
        if (!effects.diagnostics().isEmpty()) return Verification.failed(effects.diagnostics());

        Map<String, Type> newConstants = new LinkedHashMap<>();
        for (var e : constants.entrySet()) newConstants.put(e.getKey(), Types.defaultMetas(subst.resolve(e.getValue())));
        Checked.CheckedModule checked = new Checked.CheckedModule(module, List.copyOf(effects.words().values()), effects.main(),
                effects.capabilities(), newConstants);
        return new Verification(Optional.of(checked), List.of());
    }

    // ---- resolution (used by the body checkers) --------------------------------------------------------------

    boolean hasWord(String name) { return words.containsKey(name); }

    /** The signature callers of module word {@code name} use, verifying it first when needed. */
    Type.Fn signatureForCall(String name, Origin at) {
        WordInfo info = words.get(name);
        switch (info.status) {
            case DONE:
                return info.sig;
            case FAILED:
                if (info.def.declared().isPresent()) return info.def.declared().get();
                throw Fail.poisoned();
            case IN_PROGRESS:
                if (info.def.declared().isPresent()) return info.def.declared().get();
                throw Fail.at(VerifyCode.RECURSION_NEEDS_SIGNATURE, at, "word `" + name + "` is used recursively (" + cycle(name)
                        + ") but has no declared signature, so its type cannot be inferred; declare it, e.g. `: " + name + " ( ins -- outs ) … ;`");
            case NEW:
            default:
                verify(info);
                return signatureForCall(name, at);
        }
    }

    private String cycle(String name) {
        List<String> path = new ArrayList<>();
        boolean on = false;
        var it = inProgress.descendingIterator();
        while (it.hasNext()) {
            String w = it.next();
            if (w.equals(name)) on = true;
            if (on) path.add(w);
        }
        path.add(name);
        return path.size() <= 2 ? "it calls itself" : String.join(" → ", path);
    }

    /**
     * A constant visible from {@code scope}: this program's constants defined so far, then the session's. A word
     * that reads one of main's constants is checked only when main first uses it (see {@link #findDeferred}), so
     * "defined so far" is exactly what is defined whenever the word can run: main defines constants only at its
     * top level, in order, and the VM commits them with the words. A word reading a constant whose type main has
     * not determined yet would generalize the unknown part, so that is refused.
     */
    Optional<Type> constantFor(String name, Scope scope, Origin at) {
        if (constants.containsKey(name)) {
            Type t = constants.get(name);
            if (scope.root().kind != Scope.Kind.MAIN) {
                Type resolved = subst.resolve(t);
                if (Types.firstMeta(resolved).isPresent()) {
                    throw Fail.at(VerifyCode.AMBIGUOUS_TYPE, at, "word `" + scope.root().name + "` reads constant `" + name + "`, whose type "
                            + Types.show(subst, resolved) + " is not fully known where the program defines it; declare it (constant<T>)",
                            "a fully known type", Types.show(subst, resolved));
                }
                readBy.putIfAbsent(name, scope.root().name);
                return Optional.of(resolved);
            }
            return Optional.of(t);
        }
        Optional<Type> session = env.constant(name);
        if (session.isPresent() && scope.root().kind != Scope.Kind.MAIN && mainConstants.contains(name)) readBy.putIfAbsent(name, scope.root().name);
        if (session.isEmpty() && scope.root().kind != Scope.Kind.MAIN && mainConstants.contains(name) && env.vocabulary().word(name).isEmpty()) {
            throw Fail.at(VerifyCode.CONSTANT_NOT_YET_DEFINED, at, "word `" + scope.root().name + "` reads constant `" + name
                    + "`, which the program defines only after it first uses this word; define the constant before that use");
        }
        return session;
    }

    void defineConstant(String name, Type t, Origin at) {
        Type old = constants.containsKey(name) ? constants.get(name) : env.constant(name).orElse(null);
        if (old != null && readBy.containsKey(name) && !Unifier.unify(subst, old, t)) {
            throw Fail.at(VerifyCode.CONSTANT_NOT_YET_DEFINED, at, "constant `" + name + "` is redefined as " + Types.show(subst, t) + ", but word `"
                    + readBy.get(name) + "` reads it as " + Types.show(subst, old) + "; use another name", Types.show(subst, old), Types.show(subst, t));
        }
        constants.remove(name);
        constants.put(name, t);
    }

    /**
     * Finds the words that read a constant main defines (a call that resolves to no word of this module or the
     * session), and every word that calls or quotes one of them: they wait for main, which checks each at its
     * first use, when the constants defined before that point are known.
     */
    private void findDeferred() {
        for (Instr i : module.main().instrs()) if (i instanceof Instr.Constant c && c.name() != null) mainConstants.add(c.name());
        if (mainConstants.isEmpty()) return;
        Map<String, Set<String>> callers = new HashMap<>();
        java.util.Deque<String> work = new ArrayDeque<>();
        for (WordInfo info : words.values()) {
            String w = info.def.name();
            java.util.function.Consumer<String> named = n -> {
                if (words.containsKey(n)) callers.computeIfAbsent(n, k -> new java.util.HashSet<>()).add(w);
                else if (mainConstants.contains(n) && env.word(n).isEmpty() && deferred.add(w)) work.add(w);
            };
            names(info.def.body(), named);
        }
        while (!work.isEmpty()) {
            for (String caller : callers.getOrDefault(work.poll(), Set.of())) if (deferred.add(caller)) work.add(caller);
        }
    }

    /** Every word name called or quoted anywhere in {@code b}, nested blocks and closure bodies included. */
    private static void names(dev.finch.ir.instr.Block b, java.util.function.Consumer<String> out) {
        Blocks.forEachInstr(b, i -> {
            boolean handled = switch (i.kind()) {
                case CALL -> { out.accept(((Instr.Call) i).word()); yield true; }
                case QUOTE -> { out.accept(((Instr.Quote) i).word()); yield true; }
                case PUSH, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, CLOSURE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true;
            };
        });
    }

    /** Every name a call could have meant, for suggestions. */
    Set<String> knownNames(Scope scope) {
        Set<String> out = new LinkedHashSet<>(env.vocabulary().names());
        out.addAll(words.keySet());
        out.addAll(env.words().keySet());
        out.addAll(env.constants().keySet());
        out.addAll(constants.keySet());
        for (Scope s = scope; s != null; s = s.parent) out.addAll(s.locals.keySet());
        return out;
    }

    // ---- bodies ----------------------------------------------------------------------------------------------

    private void verify(WordInfo info) {
        WordDef def = info.def;
        info.status = Status.IN_PROGRESS;
        inProgress.push(def.name());
        try {
            Type.Fn sig = def.declared().isPresent() ? def.declared().get() : infer(def);
            CheckedWord w = check(def, sig, def.declared().isPresent());
            Type.Fn withEffects = sig.withEffects(EffectInference.current(w.body(), sig));
            info.checked = new CheckedWord(w.name(), withEffects, w.locals(), w.captures(), w.body(), w.suspends(), w.origin());
            info.sig = withEffects;
            info.status = Status.DONE;
        } catch (DiagnosticException e) {
            if (isLimit(e)) throw e;
            diagnostics.addAll(e.diagnostics());
            info.status = Status.FAILED;
        } finally {
            inProgress.pop();
        }
    }

    /** Pass 1 for a word without a signature: infers one from an open stack. */
    private Type.Fn infer(WordDef def) {
        Origin at = origin(def.origin());
        Scope scope = Scope.inferring(def.name(), at);
        StackState st = new StackState(List.of(), new StackState.Inputs(subst), Set.of());
        new BodyChecker(this, subst, scope).block(def.body(), st);
        Type.Fn raw = new Type.Fn(st.consumedInputs(at), st.row(), new java.util.TreeSet<>(), Optional.ofNullable(scope.yields));
        Type.Fn resolved = subst.resolveFn(raw);
        Map<String, Type> names = new HashMap<>();
        return (Type.Fn) Types.mapVars(resolved, v -> Substitution.isMeta(v)
                ? names.computeIfAbsent(v.name(), n -> new Type.Var(Types.varName(names.size()))) : v);
    }

    /** Checks a word body against a signature (declared by its author, or inferred in pass 1). */
    private CheckedWord check(WordDef def, Type.Fn sig, boolean declaredByAuthor) {
        Origin at = origin(def.origin());
        Scope scope = Scope.word(def.name(), at, sig, declaredByAuthor);
        BodyChecker checker = new BodyChecker(this, subst, scope);
        StackState st = new StackState(sig.ins(), null, Set.of());
        Checked.CheckedBlock body = checker.block(def.body(), st);
        checker.requireOuts(st, sig.outs(), at, "word `" + def.name() + "`");
        CheckedWord w = new CheckedWord(def.name(), sig, scope.locals, List.of(), body, false, at);
        return subst.madeMetas() ? CheckedRewriter.zonk(subst).word(w) : w;
    }

    /** The program: starts on the session stack; what it leaves becomes the new stack, so it must be fully typed. */
    private CheckedWord checkMain() {
        Origin at = module.main().isEmpty() ? origin(null) : origin(module.main().instrs().get(0) == null ? null : module.main().instrs().get(0).origin());
        Scope scope = Scope.main(at);
        BodyChecker checker = new BodyChecker(this, subst, scope);
        Row start = Row.of(env.stack());
        StackState st = new StackState(start, null, Set.of());
        Checked.CheckedBlock body = checker.block(module.main(), st, true);
        List<Type> fin = leftOnTheStack(start, Row.of(st.row()));
        for (var e : constants.entrySet()) {
            Type t = subst.resolve(e.getValue());
            ambiguous(t, "constant `" + e.getKey() + "` would be stored");
        }
        Type.Fn sig = new Type.Fn(env.stack(), fin, new java.util.TreeSet<>(), Optional.ofNullable(scope.yields));
        CheckedWord w = new CheckedWord("main", sig, scope.locals, List.of(), body, false, at);
        return subst.madeMetas() ? CheckedRewriter.zonk(subst).word(w) : w;
    }

    /**
     * The stack the program leaves, fully resolved: {@code end} with every type the program put there resolved and
     * checked to be known. The bottom it shares with {@code start} (the very same type objects: what the program left
     * untouched) is the committed stack's, already known, and kept as it is — a deep session stack is not walked.
     */
    private List<Type> leftOnTheStack(Row start, Row end) {
        if (!subst.madeMetas()) return end;
        int same = Row.sharedPrefix(start, end);
        Row fin = end.drop(end.size() - same);
        for (int i = same; i < end.size(); i++) {
            Type t = subst.resolve(end.get(i));
            ambiguous(t, "this value stays on the session stack");
            fin = fin.push(t);
        }
        return fin;
    }

    /** Fails when part of {@code t} is never determined; {@code subject} says what has that type ("… as t"). */
    private void ambiguous(Type t, String subject) {
        if (!subst.madeMetas()) return;
        Optional<Type.Var> meta = Types.firstMeta(t);
        if (meta.isPresent()) {
            throw Fail.at(VerifyCode.AMBIGUOUS_TYPE, subst.originOf(meta.get()), subject + " as " + Types.show(subst, t) + ", but part of its type (`_`) is never determined; "
                    + "annotate it (for example none/ok/err where the type is known, empty-list<T>, or a declared signature)",
                    "a fully known type", Types.show(subst, t));
        }
    }

    private Origin origin(Origin o) { return o == null ? new Origin(module.source() == null ? "<unknown>" : module.source(), 0, 0) : o; }
}
