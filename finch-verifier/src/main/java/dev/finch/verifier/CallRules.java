package dev.finch.verifier;

import dev.finch.ir.diag.Suggestions;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.Target;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Calls and execution tokens. A name resolves, in order, to a word of this module, a word of the session
 * dictionary, a constant, or a vocabulary word. Each call site instantiates the callee's type variables afresh;
 * an overloaded word takes the first overload whose inputs unify with the stack top.
 */
final class CallRules {
    private final BodyChecker body;
    private final SpecialWords specials;

    CallRules(BodyChecker body) {
        this.body = body;
        this.specials = new SpecialWords(body);
    }

    Checked.Node call(Instr.Call c, StackState st) {
        String name = c.word();
        if (name == null) throw Fail.at(VerifyCode.MALFORMED_IR, c.origin(), "a call has no word name");
        ModuleChecker m = body.module;
        if (m.hasWord(name)) {
            noImmediates(c);
            return apply(c, st, new Target.Word(name), m.signatureForCall(name, c.origin()));
        }
        Optional<Type.Fn> env = m.env.word(name);
        if (env.isPresent()) {
            noImmediates(c);
            return apply(c, st, new Target.Word(name), env.get());
        }
        Optional<Type> constant = m.constantFor(name, body.scope, c.origin());
        if (constant.isPresent()) {
            noImmediates(c);
            List<Type> before = st.row();
            st.push(constant.get());
            return new Checked.CallNode(c, new Target.ConstantRef(name), Type.Fn.of(List.of(), List.of(constant.get())), false, before, st.row());
        }
        Optional<WordSpec> spec = m.env.vocabulary().word(name);
        if (spec.isEmpty()) throw unknown(c.origin(), name);
        if (spec.get().special()) return specials.call(c, spec.get(), st);
        Optional<Type> ascribed = ascription(c);
        Checked.Node n = overloaded(c, spec.get(), st);
        if (ascribed.isPresent()) {
            // word<T>: its output is T — what a frontend writes where the word's type leaves the output open
            // (a model's answer, a tool's result), so that what follows knows it.
            Type t = Types.instantiate(ascribed.get(), body.subst, c.origin(), body.scope.rigid);
            Type top = st.top(1).get(0);
            if (!Unifier.unify(body.subst, t, top)) {
                throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), "`" + c.word() + "<" + ascribed.get() + ">` answers "
                        + Types.show(body.subst, top) + ", which is not " + ascribed.get(), ascribed.get().toString(), Types.show(body.subst, top));
            }
        }
        return n;
    }

    /** A vocabulary word's optional output ascription {@code <T>}: one type immediate and nothing else. */
    private static Optional<Type> ascription(Instr.Call c) {
        if (c.immediates() == null || c.immediates().isEmpty()) return Optional.empty();
        if (c.immediates().size() == 1 && c.immediates().get(0) instanceof dev.finch.ir.instr.Immediate.TypeArg t) return Optional.of(t.type());
        throw Fail.at(VerifyCode.BAD_IMMEDIATE, c.origin(), "`" + c.word() + "` takes at most one immediate, the type of its output (<T>), but got <"
                + c.immediates().get(0) + ">");
    }

    Checked.Node quote(Instr.Quote q, StackState st) {
        String name = q.word();
        if (name == null) throw Fail.at(VerifyCode.MALFORMED_IR, q.origin(), "a quote has no word name");
        ModuleChecker m = body.module;
        Target target;
        Type.Fn sig;
        if (m.hasWord(name)) {
            target = new Target.Word(name);
            sig = m.signatureForCall(name, q.origin());
        } else if (m.env.word(name).isPresent()) {
            target = new Target.Word(name);
            sig = m.env.word(name).get();
        } else if (m.constantFor(name, body.scope, q.origin()).isPresent()) {
            throw Fail.at(VerifyCode.BAD_QUOTE, q.origin(), "['] " + name + ": `" + name + "` is a constant, not a word; push it directly instead");
        } else if (m.env.vocabulary().word(name).isPresent()) {
            WordSpec spec = m.env.vocabulary().word(name).get();
            if (spec.special()) {
                throw Fail.at(VerifyCode.BAD_QUOTE, q.origin(), "['] " + name + ": `" + name + "` is typed by a dedicated rule and has no execution token; "
                        + "wrap it in a closure with a signature, e.g. [: ( … -- … ) " + name + " ;]");
            }
            // An overloaded word quotes as its first overload, the same choice a call makes on an unknown stack.
            target = new Target.Builtin(name, spec.overloads().get(0).id());
            sig = spec.overloads().get(0).signature();
        } else {
            throw unknown(q.origin(), name);
        }
        List<Type> before = st.row();
        // As a value the word is called where nothing knows which word it is: a template over its parameters is its bound.
        Type.Fn type = Types.instantiate(dev.finch.ir.vocab.RequirementTemplate.bounded(sig), body.subst, q.origin());
        st.push(type);
        return new Checked.QuoteNode(q, target, type, before, st.row());
    }

    /** Applies one (already chosen) signature: pops its inputs, pushes its outputs, records its yields. */
    Checked.Node apply(Instr.Call c, StackState st, Target target, Type.Fn sig) {
        List<Type> before = st.row();
        Type.Fn inst = st.ensure(sig.ins().size(), c.origin()) == StackState.Shortage.NONE ? Types.matched(sig, st, body.subst) : null;
        if (inst == null) inst = Types.instantiate(sig, body.subst, c.origin());
        if (target instanceof Target.Builtin) refuseAgentTask(c, st, sig);
        body.popExpectCall(st, inst.ins(), c.origin(), c.word());
        st.pushAll(inst.outs());
        if (inst.yields().isPresent()) body.onYield(inst.yields().get(), c.origin(), "`" + c.word() + "`");
        return new Checked.CallNode(c, target, inst, false, before, st.row());
    }

    private Checked.Node overloaded(Instr.Call c, WordSpec spec, StackState st) {
        if (spec.overloads().size() == 1) return apply(c, st, new Target.Builtin(spec.name(), spec.overloads().get(0).id()), spec.overloads().get(0).signature());
        List<Type.Fn> overloads = spec.signatures();
        List<Type> before = st.row();
        int arity = 0;
        for (int k = 0; k < overloads.size(); k++) {
            Type.Fn inst = Types.instantiate(overloads.get(k), body.subst, c.origin());
            int n = inst.ins().size();
            arity = Math.max(arity, n);
            if (st.ensure(n, c.origin()) != StackState.Shortage.NONE) continue;
            // Unifier.unifyRows commits only on success, so a failed attempt leaves no binding behind.
            if (!Unifier.unifyRows(body.subst, inst.ins(), st.top(n))) continue;
            for (int i = 0; i < n; i++) st.pop();
            st.pushAll(inst.outs());
            if (inst.yields().isPresent()) body.onYield(inst.yields().get(), c.origin(), "`" + c.word() + "`");
            return new Checked.CallNode(c, new Target.Builtin(spec.name(), spec.overloads().get(k).id()), inst, false, before, st.row());
        }
        body.require(st, arity, c.origin(), "`" + c.word() + "`", overloads.get(0).ins());
        List<String> alternatives = new ArrayList<>();
        for (Type.Fn f : overloads) alternatives.add(Types.row(body.subst, f.ins()));
        String expected = String.join(" | ", alternatives);
        String found = Types.row(body.subst, st.top(arity));
        throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), "`" + c.word() + "` works on " + expected + " but the stack top is " + found,
                expected, found);
    }

    /**
     * A vocabulary word's generic {@code task<a>} input is a CPU task or a step, never an agent task: agent handles
     * ({@code task<agent-result>}) are coordinated by the agent-* words, a separate protocol (the contract).
     */
    private void refuseAgentTask(Instr.Call c, StackState st, Type.Fn sig) {
        int n = sig.ins().size();
        if (n == 0 || st.ensure(n, c.origin()) != StackState.Shortage.NONE) return;
        List<Type> actual = st.top(n);
        for (int i = 0; i < n; i++) {
            if (!(sig.ins().get(i) instanceof Type.TaskT declared) || declared.value().kind() != Type.Kind.VAR) continue;
            Type found = body.subst.resolve(actual.get(i));
            if (found instanceof Type.TaskT t && body.subst.resolve(t.value()) instanceof Type.Named named && named.name().equals("agent-result")) {
                throw Fail.at(VerifyCode.AGENT_TASK, c.origin(), "`" + c.word() + "` works on CPU tasks (defer-cpu) and steps (step-spawn), "
                        + "not on an agent task; use the agent-* words for task<agent-result>", "task<a> (a CPU task or step)", "task<agent-result>");
            }
        }
    }

    private static void noImmediates(Instr.Call c) {
        if (c.immediates() != null && !c.immediates().isEmpty()) {
            throw Fail.at(VerifyCode.BAD_IMMEDIATE, c.origin(), "`" + c.word() + "` takes no immediates, but got <" + c.immediates().get(0) + ">");
        }
    }

    /**
     * Unknown word: what Finch calls it when another language's name was meant ({@code display} is {@code say}), the
     * names spelled nearly alike, and where to look the right one up — with the tools, or on the command line.
     */
    private RuntimeException unknown(dev.finch.ir.diag.Origin at, String name) {
        ModuleChecker m = body.module;
        String meaning = dev.finch.ir.vocab.Meanings.hint(name, m.module.language(), m.env.vocabulary());
        String spelling = Suggestions.didYouMean(name, m.knownNames(body.scope));
        return Fail.at(VerifyCode.UNKNOWN_WORD, at, "unknown word `" + name + "`" + meaning + spelling
                + (meaning.isEmpty() && spelling.isEmpty() ? "; define it first, or look it up (search_word; on the command line finch inspect NAME)" : ""));
    }
}
