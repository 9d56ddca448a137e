package dev.finch.verifier;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Capability requirements and suspension, inferred after types. A body's effects are the union over its calls
 * (a vocabulary or dictionary word's declared effects, {@code execute}'s function type, a module word's inferred
 * effects) computed as a fixpoint over the module's call graph, so mutual recursion converges. Declared effects
 * must cover the inferred ones except {@code session.emit}. A call suspends when its callee yields or needs a
 * capability other than {@code session.emit} ({@link WordSpec#maySuspend}); a body suspends when any call in it
 * does. Closure bodies are separate: making a closure has no effect, executing it has its type's.
 */
final class EffectInference {
    /** A verified module word with what its author declared (absent for an inferred signature). */
    record Unit(CheckedWord word, Type.Fn declared) { }

    /** The words and main with effects and suspension filled in, the module's requirement set, and any diagnostics. */
    record Result(Map<String, CheckedWord> words, CheckedWord main, SortedSet<Capability> capabilities, List<Diagnostic> diagnostics) { }

    private final Map<String, Unit> units;
    /** What is known of the arguments of calls whose callee's requirement depends on them (see {@link PathTemplates}). */
    private PathTemplates templates = PathTemplates.NONE;
    /**
     * The call each rewritten call replaced ({@link #finish}): what is known of a call's arguments was recorded on the
     * call as verified, and its rewritten copy already holds its instantiated effects.
     */
    private final java.util.IdentityHashMap<Checked.CallNode, Checked.CallNode> originals = new java.util.IdentityHashMap<>(4);
    private final Map<String, TreeSet<Capability>> eff = new LinkedHashMap<>();
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    private final dev.finch.ir.vocab.Vocabulary vocabulary;
    private final dev.finch.ir.checked.Environment env;
    /**
     * Module words that may pause although their signatures show no yield or capability: they call a word that waits
     * on other work ({@link WordSpec#pauses}), a dictionary word that does, or a module word that does (a fixpoint).
     */
    private final Set<String> pausing = new HashSet<>();

    private EffectInference(Map<String, Unit> units, dev.finch.ir.checked.Environment env) {
        this.units = units;
        this.vocabulary = env.vocabulary();
        this.env = env;
    }

    /**
     * The effects a just-verified body has so far: its declared set plus what its calls' signatures say, a callee's
     * template over its own parameters as its bound (the inference below instantiates it where it is called).
     */
    static SortedSet<Capability> current(Checked.CheckedBlock body, Type.Fn declared) {
        TreeSet<Capability> out = new TreeSet<>();
        if (declared != null) out.addAll(declared.effects());
        for (Checked.CallNode c : CheckedRewriter.calls(body)) out.addAll(dev.finch.ir.vocab.RequirementTemplate.bounded(c.instantiated().effects()));
        return out;
    }

    static Result run(Map<String, Unit> units, CheckedWord main, dev.finch.ir.checked.Environment env) {
        return new EffectInference(units, env).go(main);
    }

    /** Whether a call pauses the run beyond its signature: a waiting builtin, or a pausing dictionary or module word. */
    private boolean pausesBeyondSignature(Checked.CallNode c) {
        String d = definition(c.target());
        if (d != null) return units.containsKey(d) ? pausing.contains(d) : env.pauses(d);
        if (c.target().kind() != Checked.Target.Kind.BUILTIN) return false;
        Optional<WordSpec> spec = vocabulary.word(c.target().name());
        return spec.isPresent() && spec.get().pauses();
    }

    private Result go(CheckedWord main) {
        if (units.isEmpty() && plainlyPure(main.body())) {
            // Nothing to infer or rewrite: main's effects, its suspension and the module's requirements are all empty.
            CheckedWord checked = new CheckedWord(main.name(), main.signature().withEffects(java.util.Set.of()), main.locals(),
                    main.captures(), main.body(), false, main.origin());
            return new Result(Map.of(), checked, new TreeSet<>(), diagnostics);
        }
        List<PathTemplates.Body> bodies = new ArrayList<>();
        bodies.add(new PathTemplates.Body(main.body(), null));
        for (Unit u : units.values()) bodies.add(new PathTemplates.Body(u.word().body(), u.word().signature().ins()));
        templates = PathTemplates.of(bodies, diagnostics, vocabulary);
        // A word's effects are what its body needs (a fixpoint over the call graph): its calls' requirements, each
        // instantiated with what is known of its arguments — so a word that passes its parameter to a file word needs
        // a template over that parameter, fs.read(${workspace}/$0), which its own callers instantiate in turn. A
        // declaration is checked to cover them but does not widen them, so the dictionary and the permission preview
        // stay precise.
        for (var e : units.entrySet()) eff.put(e.getKey(), new TreeSet<>());
        // Each body is read once: the effects of its calls outside the module, and which module words it calls. The
        // fixpoint then runs over the reverse call graph with a worklist, so a chain of n words costs n, not n².
        if (!units.isEmpty()) fixpoint();
        Map<String, CheckedWord> words = new LinkedHashMap<>();
        for (var e : units.entrySet()) {
            Unit u = e.getValue();
            if (u.declared() != null) checkDeclared(u.declared(), u.word().origin(), "word `" + e.getKey() + "`");
            if (u.declared() != null) checkCovered(u.word().body(), u.declared().effects(), "word `" + e.getKey() + "`");
            words.put(e.getKey(), finish(u.word(), eff.get(e.getKey())));
        }
        TreeSet<Capability> mainEff = new TreeSet<>(callEffects(main.body()));
        CheckedWord checkedMain = finish(main, mainEff);
        return new Result(words, checkedMain, reached(checkedMain, words), diagnostics);
    }

    /** One call of a module word: who calls it, and where (its arguments instantiate the callee's templates). */
    private record Edge(String caller, Checked.CallNode call) { }

    /** The module words' effects and pausing: a worklist fixpoint over the reverse call graph. */
    private void fixpoint() {
        Map<String, List<Edge>> callers = new HashMap<>();
        for (var e : units.entrySet()) {
            TreeSet<Capability> mine = eff.get(e.getKey());
            for (Checked.CallNode c : CheckedRewriter.calls(e.getValue().word().body())) {
                String d = definition(c.target());
                if (d != null && units.containsKey(d)) {
                    callers.computeIfAbsent(d, k -> new ArrayList<>()).add(new Edge(e.getKey(), c));
                } else {
                    mine.addAll(templates.at(c, c.instantiated().effects()));
                    if (pausesBeyondSignature(c)) pausing.add(e.getKey());
                }
            }
        }
        Deque<String> work = new ArrayDeque<>(units.keySet());
        Set<String> queued = new HashSet<>(units.keySet());
        while (!work.isEmpty()) {
            String callee = work.poll();
            queued.remove(callee);
            for (Edge edge : callers.getOrDefault(callee, List.of())) {
                boolean grew = eff.get(edge.caller()).addAll(templates.at(edge.call(), eff.get(callee)));
                if (pausing.contains(callee)) grew |= pausing.add(edge.caller());
                if (grew && queued.add(edge.caller())) work.add(edge.caller());
            }
        }
    }

    /**
     * Whether {@code b} (a program with no definitions of its own) calls only vocabulary words that need nothing, never
     * pause, take no function value and refine no path, and makes no closure or execution token — the common one-line
     * program. Its effects, suspension and requirement set are then empty, what the full inference would find.
     */
    private boolean plainlyPure(Checked.CheckedBlock b) {
        for (Node n : b.nodes()) {
            switch (n.kind()) {
                case CLOSURE, QUOTE -> { return false; }
                case CALL -> {
                    Checked.CallNode c = (Checked.CallNode) n;
                    if (c.target().kind() == Checked.Target.Kind.WORD) return false;
                    if (c.target().kind() == Checked.Target.Kind.BUILTIN) {
                        if (c.suspends() || !c.instantiated().effects().isEmpty() || c.instantiated().yields().isPresent()) return false;
                        WordSpec spec = vocabulary.word(c.target().name()).orElse(null);
                        if (spec == null || spec.pauses() || !dataOnly(spec.typing())) return false;
                        var o = vocabulary.overload(((Checked.Target.Builtin) c.target()).overload()).orElse(null);
                        if (o == null || o.refines() || o.requires().isPresent()) return false;
                    }
                }
                case PUSH, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> { }
            }
            for (Checked.CheckedBlock child : Checked.children(n)) if (!plainlyPure(child)) return false;
        }
        return true;
    }

    /** Typings whose calls take no function value: their effects are their instantiated signature's. */
    private static boolean dataOnly(dev.finch.ir.vocab.Typing t) {
        return switch (t) {
            case ORDINARY, VARIANT, VARIANT_GET, EMPTY_LIST, EMPTY_MAP, RECORD_GET, RECORD_SET -> true;
            case EXECUTE, STEP_SPAWN, FIBER_NEW, DEFER_CPU -> false;
        };
    }

    /** The effects of the calls directly in a body (closure bodies excluded). */
    private Set<Capability> callEffects(Checked.CheckedBlock body) {
        Set<Capability> out = new TreeSet<>();
        for (Checked.CallNode c : CheckedRewriter.calls(body)) out.addAll(calleeEffects(c));
        return out;
    }

    /** What a call needs: its callee's effects (a module word's as inferred) instantiated with what is known of its arguments. */
    private Set<Capability> calleeEffects(Checked.CallNode c) {
        String d = definition(c.target());
        if (d != null && units.containsKey(d)) return templates.at(c, eff.get(d));
        return templates.at(c, c.instantiated().effects());
    }

    /** The definition a call or quote names (of this module or the session), or null for a vocabulary word or a constant. */
    private static String definition(Checked.Target t) {
        return switch (t.kind()) {
            case WORD -> t.name();
            case BUILTIN, CONSTANT_REF -> null;
        };
    }

    /**
     * A declaration may only name capabilities Finch knows, so it can never be a typo that covers nothing; a template
     * names its definition's own parameters, whole ({@code $N}, {@code key=$N}) or as a path under a root ({@code
     * ${workspace}/$N}, a string or a path of that root), and a function type inside the signature holds none.
     */
    private void checkDeclared(Type.Fn signature, dev.finch.ir.diag.Origin at, String owner) {
        for (Type t : signature.ins()) templateInValue(t, at, owner);
        for (Type t : signature.outs()) templateInValue(t, at, owner);
        for (Capability c : signature.effects()) {
            if (dev.finch.ir.vocab.RequirementTemplate.mentionsArgument(c)) {
                checkTemplate(c, signature, at, owner);
                continue;
            }
            var spec = dev.finch.capabilities.CapabilitySpec.of(c);
            if (!spec.isOk()) {
                diagnostics.add(VerifyCode.MALFORMED_CAPABILITY.at(at, owner + " declares " + c + ", which is not a capability: "
                        + spec.refusal().map(dev.finch.ir.diag.Diagnostic::message).orElse("malformed"), "a capability such as fs.read(${workspace}/**)", c.toString()));
            }
        }
    }

    private void checkTemplate(Capability c, Type.Fn signature, dev.finch.ir.diag.Origin at, String owner) {
        var t = dev.finch.ir.vocab.RequirementTemplate.of(c);
        String problem = null;
        if (t.isEmpty()) {
            problem = "a template names a parameter whole: $N, $N/**, key=$N or ${root}/$N (the text parameter N refined under that root)";
        } else if (t.get().maxArgument() >= signature.ins().size()) {
            problem = "it names parameter " + t.get().maxArgument() + ", but the word takes " + BodyChecker.values(signature.ins().size());
        } else {
            for (var slot : t.get().args()) {
                if (slot instanceof dev.finch.ir.vocab.RequirementTemplate.Slot.Arg && c.name().startsWith("fs.")) {
                    problem = "a path template names its root, e.g. " + c.name() + "(${workspace}/$0)";
                } else if (slot instanceof dev.finch.ir.vocab.RequirementTemplate.Slot.Under u) {
                    Type param = signature.ins().get(u.index());
                    if (dev.finch.capabilities.Root.bySpelling(u.root()).isEmpty()) problem = "${" + u.root() + "} is no root";
                    else if (!(param == Type.STRING || param instanceof Type.Var || param instanceof Type.PathT pt && pt.root().equals(u.root()))) {
                        problem = "parameter " + u.index() + " is " + param + ", which is no text and no path under ${" + u.root() + "}";
                    }
                }
            }
            if (problem == null && !dev.finch.capabilities.CapabilitySpec.of(t.get().bound()).isOk()) problem = "its bound " + t.get().bound() + " is no capability";
        }
        if (problem != null) {
            diagnostics.add(VerifyCode.MALFORMED_CAPABILITY.at(at, owner + " declares " + c + ", which is not a capability template: " + problem,
                    "a template over the word's parameters such as fs.read(${workspace}/$0)", c.toString()));
        }
    }

    /** A function type inside a signature (a parameter's or a result's) may not hold a template: nobody knows its arguments. */
    private void templateInValue(Type t, dev.finch.ir.diag.Origin at, String owner) {
        if (!(t instanceof Type.Fn f)) return;
        for (Capability c : f.effects()) {
            if (dev.finch.ir.vocab.RequirementTemplate.mentionsArgument(c)) {
                diagnostics.add(VerifyCode.MALFORMED_CAPABILITY.at(at, owner + " declares the function type " + f + ", whose " + c + " names a parameter: "
                        + "a template belongs to a definition's own effects; a function value's type states the bound, "
                        + dev.finch.ir.vocab.RequirementTemplate.boundOf(c), dev.finch.ir.vocab.RequirementTemplate.boundOf(c).toString(), c.toString()));
            }
        }
        for (Type x : f.ins()) templateInValue(x, at, owner);
        for (Type x : f.outs()) templateInValue(x, at, owner);
    }

    private void checkCovered(Checked.CheckedBlock body, Set<Capability> declared, String owner) {
        Set<Capability> reported = new HashSet<>();
        for (Checked.CallNode c : CheckedRewriter.calls(body)) {
            for (Capability cap : calleeEffects(c)) {
                if (cap.equals(Capability.SESSION_EMIT) || EffectCoverage.covers(declared, cap) || !reported.add(cap)) continue;
                // A requirement over the word's own parameter can be declared as that template, or as its bound.
                String how = dev.finch.ir.vocab.RequirementTemplate.mentionsArgument(cap)
                        ? "; declare that template (over the word's parameter: each caller's argument makes it concrete) or its bound "
                                + dev.finch.ir.vocab.RequirementTemplate.boundOf(cap)
                        : "; add it to the declaration";
                diagnostics.add(VerifyCode.UNDECLARED_EFFECT.at(c.origin(), owner + " declares " + spell(declared) + " but `" + c.instr().word()
                        + "` here needs " + cap + how + " (a declaration cannot hide a capability-bearing call)",
                        spell(declared), cap.toString()));
            }
        }
    }

    private static String spell(Set<Capability> caps) {
        if (caps.isEmpty()) return "no effects (pure)";
        StringBuilder b = new StringBuilder("! {");
        String sep = "";
        for (Capability c : caps) { b.append(sep).append(c); sep = ","; }
        return b.append('}').toString();
    }

    /** Rewrites a word with its final effects, per-call suspension and closure bodies. */
    private CheckedWord finish(CheckedWord w, Set<Capability> effects) {
        // A body the rewriter would rebuild node for node into an equal tree is kept as it is (most short programs).
        CheckedWord rewritten = templates == PathTemplates.NONE && settled(w.body()) ? w : rewriter().word(w);
        return new CheckedWord(rewritten.name(), rewritten.signature().withEffects(effects), rewritten.locals(), rewritten.captures(),
                rewritten.body(), suspends(rewritten.body()), rewritten.origin());
    }

    /**
     * Whether {@link #rewriter()} would leave every node of {@code b} as it is: no closure literal (its body's effects
     * are computed and checked there), no call of a definition of this module (its effects come from the fixpoint),
     * and every other call already flagged as the rewriter would flag it. Only asked when no call site has a concrete
     * requirement ({@code sites} is empty), so a call's effects stay its signature's.
     */
    private boolean settled(Checked.CheckedBlock b) {
        for (Node n : b.nodes()) {
            if (n instanceof Checked.ClosureNode) return false;
            if (n instanceof Checked.CallNode c) {
                String d = definition(c.target());
                if (d != null && units.containsKey(d)) return false;
                if (c.suspends() != (WordSpec.maySuspend(c.instantiated()) || pausesBeyondSignature(c))) return false;
            }
            for (Checked.CheckedBlock child : Checked.children(n)) if (!settled(child)) return false;
        }
        return true;
    }

    private CheckedRewriter rewriter() {
        return new CheckedRewriter() {
            @Override Node call(Checked.CallNode n) {
                Type.Fn inst = n.instantiated();
                boolean suspends;
                String d = definition(n.target());
                if (d != null && units.containsKey(d)) {
                    inst = inst.withEffects(templates.at(n, eff.get(d)));
                    Type.Fn callee = units.get(d).word().signature().withEffects(eff.get(d));
                    suspends = WordSpec.maySuspend(callee) || pausing.contains(d);
                } else {
                    inst = inst.withEffects(templates.at(n, inst.effects()));
                    suspends = WordSpec.maySuspend(inst) || pausesBeyondSignature(n);
                }
                Checked.CallNode rewritten = new Checked.CallNode(n.instr(), n.target(), inst, suspends, n.before(), n.after());
                originals.put(rewritten, originals.getOrDefault(n, n));
                return rewritten;
            }

            @Override CheckedWord closureBody(CheckedWord w) {
                templateInValue(w.signature(), w.origin(), "this closure");
                CheckedWord inner = word(w);
                TreeSet<Capability> effects = new TreeSet<>(w.signature().effects());
                effects.addAll(callEffects(inner.body()));
                checkCovered(inner.body(), w.signature().effects(), "this closure's type");
                return new CheckedWord(inner.name(), inner.signature().withEffects(effects), inner.locals(), inner.captures(), inner.body(),
                        suspends(inner.body()), inner.origin());
            }
        };
    }

    private static boolean suspends(Checked.CheckedBlock body) {
        for (Checked.CallNode c : CheckedRewriter.calls(body)) if (c.suspends()) return true;
        return false;
    }

    /**
     * The module's requirement set (the permission preview): main's effects plus, conservatively, those of every
     * module word, execution token and closure reachable from it. When no function value can come from outside the
     * module (none on main's input stack, in a session constant, or out of a session word), every function a body
     * executes was made in the module and its body is walked anyway, so the preview is the union of the concrete call
     * sites instead: what {@code execute} and {@code step-spawn} would add through function types (a declared bound
     * such as µNorman's {@code model.ask(*)}) says nothing more. A pure program's preview is then empty.
     */
    private SortedSet<Capability> reached(CheckedWord main, Map<String, CheckedWord> words) {
        boolean closed = closed(main, words);
        TreeSet<Capability> out = new TreeSet<>();
        if (!closed) out.addAll(main.signature().effects());
        Set<String> seen = new HashSet<>();
        Deque<CheckedWord> work = new ArrayDeque<>();
        work.push(main);
        while (!work.isEmpty()) {
            CheckedWord w = work.pop();
            // A word's template over its parameters is counted where it is called, instantiated there; unknown, its bound.
            if (!closed) out.addAll(dev.finch.ir.vocab.RequirementTemplate.bounded(w.signature().effects()));
            for (Checked.Node n : CheckedRewriter.nodes(w.body())) {
                // The module word a node leads to, if any; a call's or quote's effects on the way.
                String target = switch (n.kind()) {
                    case CALL -> {
                        Checked.CallNode c = originals.getOrDefault((Checked.CallNode) n, (Checked.CallNode) n);
                        String t = definition(c.target());
                        boolean moduleWord = t != null && words.containsKey(t);
                        boolean throughType = switch (c.target().kind()) {
                            case BUILTIN -> {
                                Optional<WordSpec> spec = vocabulary.word(c.target().name());
                                yield spec.isPresent() && (spec.get().typing() == dev.finch.ir.vocab.Typing.EXECUTE
                                        || spec.get().typing() == dev.finch.ir.vocab.Typing.STEP_SPAWN
                                        || spec.get().typing() == dev.finch.ir.vocab.Typing.FIBER_NEW);
                            }
                            case WORD, CONSTANT_REF -> false;
                        };
                        // Closed: what each call site needs, the callee's templates instantiated with its arguments there
                        // (a module word's body is walked for the rest). What still names a parameter of the word being
                        // walked is counted at that word's own call sites.
                        if (closed && !throughType) addConcrete(out, moduleWord ? templates.at(c, templatesOf(eff.get(t))) : calleeEffects(c));
                        yield t;
                    }
                    case QUOTE -> {
                        Checked.QuoteNode q = (Checked.QuoteNode) n;
                        String t = definition(q.target());
                        if (!closed || t == null || !words.containsKey(t)) out.addAll(q.type().effects());
                        // Called as a function value, a module word's template has no known arguments: its bound.
                        else out.addAll(dev.finch.ir.vocab.RequirementTemplate.bounded(templatesOf(eff.get(t))));
                        yield t;
                    }
                    case CLOSURE -> { work.push(((Checked.ClosureNode) n).body()); yield null; }
                    case PUSH, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> null;
                };
                if (target != null && words.containsKey(target) && seen.add(target)) work.push(words.get(target));
            }
        }
        return out;
    }

    /** The templates among {@code caps} (those naming a parameter of their definition). */
    private static Set<Capability> templatesOf(Set<Capability> caps) {
        Set<Capability> out = new TreeSet<>();
        if (caps != null) for (Capability c : caps) if (dev.finch.ir.vocab.RequirementTemplate.mentionsArgument(c)) out.add(c);
        return out;
    }

    /** Adds the requirements of {@code caps} that name no parameter: the concrete ones and the bounds. */
    private static void addConcrete(Set<Capability> out, Set<Capability> caps) {
        for (Capability c : caps) if (!dev.finch.ir.vocab.RequirementTemplate.mentionsArgument(c)) out.add(c);
    }

    /** True when every function value the module's bodies can hold was made in the module (see {@link #reached}). */
    private static boolean closed(CheckedWord main, Map<String, CheckedWord> words) {
        for (Type t : main.signature().ins()) if (holdsFunction(t)) return false;
        List<CheckedWord> bodies = new ArrayList<>(words.values());
        bodies.add(main);
        boolean open = false;
        Deque<CheckedWord> work = new ArrayDeque<>(bodies);
        while (!work.isEmpty()) {
            CheckedWord w = work.pop();
            for (Checked.Node n : CheckedRewriter.nodes(w.body())) {
                open |= switch (n.kind()) {
                    case CALL -> {
                        // A value out of the session (a constant, or a word not of this module) may hold a function made elsewhere.
                        Checked.CallNode c = (Checked.CallNode) n;
                        boolean fromSession = switch (c.target().kind()) {
                            case CONSTANT_REF -> true;
                            case WORD -> !words.containsKey(c.target().name());
                            case BUILTIN -> false;
                        };
                        yield fromSession && c.instantiated().outs().stream().anyMatch(EffectInference::holdsFunction);
                    }
                    case CLOSURE -> { work.push(((Checked.ClosureNode) n).body()); yield false; }
                    case PUSH, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> false;
                };
            }
        }
        return !open;
    }

    private static boolean holdsFunction(Type t) {
        return switch (t.kind()) {
            case FN -> true;
            case OPTION -> holdsFunction(((Type.OptionT) t).value());
            case RESULT -> holdsFunction(((Type.ResultT) t).ok()) || holdsFunction(((Type.ResultT) t).err());
            case LIST -> holdsFunction(((Type.ListT) t).element());
            case MAP -> holdsFunction(((Type.MapT) t).key()) || holdsFunction(((Type.MapT) t).value());
            case RECORD -> ((Type.RecordT) t).fields().values().stream().anyMatch(EffectInference::holdsFunction);
            case VARIANT -> ((Type.VariantT) t).tags().values().stream().anyMatch(p -> p.isPresent() && holdsFunction(p.get()));
            case TASK -> holdsFunction(((Type.TaskT) t).value());
            case FIBER -> holdsFunction(((Type.FiberT) t).yielded()) || holdsFunction(((Type.FiberT) t).result());
            case STREAM -> holdsFunction(((Type.StreamT) t).element());
            case RESOURCE -> holdsFunction(((Type.ResourceT) t).of());
            case VAR -> true; // unknown: could be a function
            case NAMED -> ((Type.Named) t).definition().map(EffectInference::holdsFunction).orElse(false);
            case PRIM, PATH -> false;
        };
    }
}
