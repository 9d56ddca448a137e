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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
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
    /** Host calls whose path argument is known: their instantiated requirement (see {@link PathTemplates}). */
    private java.util.IdentityHashMap<Checked.CallNode, Capability> sites = new java.util.IdentityHashMap<>();
    private final Map<String, TreeSet<Capability>> eff = new LinkedHashMap<>();
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    private final dev.finch.ir.vocab.Vocabulary vocabulary;

    private EffectInference(Map<String, Unit> units, dev.finch.ir.vocab.Vocabulary vocabulary) {
        this.units = units;
        this.vocabulary = vocabulary;
    }

    /** The effects a just-verified body has so far: its declared set plus what its calls' signatures say. */
    static SortedSet<Capability> current(Checked.CheckedBlock body, Type.Fn declared) {
        TreeSet<Capability> out = new TreeSet<>();
        if (declared != null) out.addAll(declared.effects());
        CheckedRewriter.forEach(body, n -> { if (n instanceof Checked.CallNode c) out.addAll(c.instantiated().effects()); });
        return out;
    }

    static Result run(Map<String, Unit> units, CheckedWord main, dev.finch.ir.vocab.Vocabulary vocabulary) {
        return new EffectInference(units, vocabulary).go(main);
    }

    private Result go(CheckedWord main) {
        List<Checked.CheckedBlock> bodies = new ArrayList<>();
        bodies.add(main.body());
        for (Unit u : units.values()) bodies.add(u.word().body());
        sites = PathTemplates.instantiate(bodies, diagnostics, vocabulary);
        // A word's effects are what its body needs (a fixpoint over the call graph); a declaration is checked to
        // cover them but does not widen them, so the dictionary and the permission preview stay precise.
        for (var e : units.entrySet()) eff.put(e.getKey(), new TreeSet<>(e.getValue().declared() == null
                ? e.getValue().word().signature().effects() : java.util.Set.of()));
        boolean changed = true;
        while (changed) {
            changed = false;
            for (var e : units.entrySet()) {
                TreeSet<Capability> mine = eff.get(e.getKey());
                for (Capability c : callEffects(e.getValue().word().body())) changed |= mine.add(c);
            }
        }
        Map<String, CheckedWord> words = new LinkedHashMap<>();
        for (var e : units.entrySet()) {
            Unit u = e.getValue();
            if (u.declared() != null) checkDeclared(u.declared().effects(), u.word().origin(), "word `" + e.getKey() + "`");
            if (u.declared() != null) checkCovered(u.word().body(), u.declared().effects(), "word `" + e.getKey() + "`");
            words.put(e.getKey(), finish(u.word(), eff.get(e.getKey())));
        }
        TreeSet<Capability> mainEff = new TreeSet<>(callEffects(main.body()));
        CheckedWord checkedMain = finish(main, mainEff);
        return new Result(words, checkedMain, reached(checkedMain, words), diagnostics);
    }

    /** The effects of the calls directly in a body (closure bodies excluded). */
    private Set<Capability> callEffects(Checked.CheckedBlock body) {
        Set<Capability> out = new TreeSet<>();
        CheckedRewriter.forEach(body, n -> { if (n instanceof Checked.CallNode c) out.addAll(calleeEffects(c)); });
        return out;
    }

    private Set<Capability> calleeEffects(Checked.CallNode c) {
        if (c.target() instanceof Checked.Target.Word w && units.containsKey(w.name())) return eff.get(w.name());
        return PathTemplates.effects(c, c.instantiated().effects(), sites);
    }

    /** A declaration may only name capabilities Finch knows, so it can never be a typo that covers nothing. */
    private void checkDeclared(Set<Capability> declared, dev.finch.ir.diag.Origin at, String owner) {
        for (Capability c : declared) {
            var spec = dev.finch.capabilities.CapabilitySpec.of(c);
            if (!spec.isOk()) {
                diagnostics.add(VerifyCode.MALFORMED_CAPABILITY.at(at, owner + " declares " + c + ", which is not a capability: "
                        + spec.refusal().map(dev.finch.ir.diag.Diagnostic::message).orElse("malformed"), "a capability such as fs.read(${workspace}/**)", c.toString()));
            }
        }
    }

    private void checkCovered(Checked.CheckedBlock body, Set<Capability> declared, String owner) {
        Set<Capability> reported = new HashSet<>();
        CheckedRewriter.forEach(body, n -> {
            if (!(n instanceof Checked.CallNode c)) return;
            for (Capability cap : calleeEffects(c)) {
                if (cap.equals(Capability.SESSION_EMIT) || EffectCoverage.covers(declared, cap) || !reported.add(cap)) continue;
                diagnostics.add(VerifyCode.UNDECLARED_EFFECT.at(c.origin(), owner + " declares " + spell(declared) + " but `" + c.instr().word()
                        + "` here needs " + cap + "; add it to the declaration (a declaration cannot hide a capability-bearing call)",
                        spell(declared), cap.toString()));
            }
        });
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
        CheckedWord rewritten = rewriter().word(w);
        return new CheckedWord(rewritten.name(), rewritten.signature().withEffects(effects), rewritten.locals(), rewritten.captures(),
                rewritten.body(), suspends(rewritten.body()), rewritten.origin());
    }

    private CheckedRewriter rewriter() {
        return new CheckedRewriter() {
            @Override Node call(Checked.CallNode n) {
                Type.Fn inst = n.instantiated();
                boolean suspends;
                if (n.target() instanceof Checked.Target.Word w && units.containsKey(w.name())) {
                    inst = inst.withEffects(eff.get(w.name()));
                    Type.Fn callee = units.get(w.name()).word().signature().withEffects(eff.get(w.name()));
                    suspends = WordSpec.maySuspend(callee);
                } else {
                    inst = inst.withEffects(PathTemplates.effects(n, inst.effects(), sites));
                    suspends = WordSpec.maySuspend(inst);
                }
                return new Checked.CallNode(n.instr(), n.target(), inst, suspends, n.before(), n.after());
            }

            @Override CheckedWord closureBody(CheckedWord w) {
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
        boolean[] any = {false};
        CheckedRewriter.forEach(body, n -> { if (n instanceof Checked.CallNode c && c.suspends()) any[0] = true; });
        return any[0];
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
            if (!closed) out.addAll(w.signature().effects());
            CheckedRewriter.forEach(w.body(), n -> {
                String target = null;
                if (n instanceof Checked.CallNode c) {
                    if (c.target() instanceof Checked.Target.Word t) target = t.name();
                    boolean moduleWord = target != null && words.containsKey(target);
                    boolean throughType = c.target() instanceof Checked.Target.Builtin b && vocabulary.word(b.name())
                            .map(spec -> spec.typing() == dev.finch.ir.vocab.Typing.EXECUTE || spec.typing() == dev.finch.ir.vocab.Typing.STEP_SPAWN).orElse(false);
                    if (closed && !moduleWord && !throughType) out.addAll(calleeEffects(c));
                }
                if (n instanceof Checked.QuoteNode q) {
                    if (q.target() instanceof Checked.Target.Word t) target = t.name();
                    if (!closed || target == null || !words.containsKey(target)) out.addAll(q.type().effects());
                }
                if (n instanceof Checked.ClosureNode c) work.push(c.body());
                if (target != null && words.containsKey(target) && seen.add(target)) work.push(words.get(target));
            });
        }
        return out;
    }

    /** True when every function value the module's bodies can hold was made in the module (see {@link #reached}). */
    private static boolean closed(CheckedWord main, Map<String, CheckedWord> words) {
        for (Type t : main.signature().ins()) if (holdsFunction(t)) return false;
        List<CheckedWord> bodies = new ArrayList<>(words.values());
        bodies.add(main);
        boolean[] open = {false};
        Deque<CheckedWord> work = new ArrayDeque<>(bodies);
        while (!work.isEmpty()) {
            CheckedWord w = work.pop();
            CheckedRewriter.forEach(w.body(), n -> {
                if (n instanceof Checked.CallNode c && c.target() instanceof Checked.Target.ConstantRef) {
                    for (Type t : c.instantiated().outs()) if (holdsFunction(t)) open[0] = true;
                }
                if (n instanceof Checked.CallNode c && c.target() instanceof Checked.Target.Word t && !words.containsKey(t.name())) {
                    for (Type o : c.instantiated().outs()) if (holdsFunction(o)) open[0] = true;
                }
                if (n instanceof Checked.ClosureNode c) work.push(c.body());
            });
        }
        return !open[0];
    }

    private static boolean holdsFunction(Type t) {
        switch (t.kind()) {
            case FN: return true;
            case OPTION: return holdsFunction(((Type.OptionT) t).value());
            case RESULT: return holdsFunction(((Type.ResultT) t).ok()) || holdsFunction(((Type.ResultT) t).err());
            case LIST: return holdsFunction(((Type.ListT) t).element());
            case MAP: return holdsFunction(((Type.MapT) t).key()) || holdsFunction(((Type.MapT) t).value());
            case RECORD: return ((Type.RecordT) t).fields().values().stream().anyMatch(EffectInference::holdsFunction);
            case VARIANT: return ((Type.VariantT) t).tags().values().stream().anyMatch(p -> p.isPresent() && holdsFunction(p.get()));
            case TASK: return holdsFunction(((Type.TaskT) t).value());
            case FIBER: return holdsFunction(((Type.FiberT) t).yielded()) || holdsFunction(((Type.FiberT) t).result());
            case STREAM: return holdsFunction(((Type.StreamT) t).element());
            case RESOURCE: return holdsFunction(((Type.ResourceT) t).of());
            case VAR: return true; // unknown: could be a function
            default: return false;
        }
    }
}
