package dev.finch.verifier;

import dev.finch.ir.diag.Suggestions;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.Target;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The dedicated rules of the special vocabulary words, whose type depends on an immediate or on the value below:
 * one method per {@link dev.finch.ir.vocab.Typing} ({@code execute}, {@code step-spawn}, {@code defer-cpu}, {@code variant},
 * {@code variant-get}, {@code empty-list}, {@code empty-map}, {@code record-get}, {@code record-set}), chosen by an
 * exhaustive switch, so a new typing rule does not compile until it is written here.
 * Each records the signature it used at the site as the call's instantiated type.
 */
final class SpecialWords {
    private final BodyChecker body;

    SpecialWords(BodyChecker body) { this.body = body; }

    Checked.Node call(Instr.Call c, WordSpec spec, StackState st) {
        Target.Builtin target = new Target.Builtin(spec.name(), spec.overloads().get(0).id());
        return switch (spec.typing()) {
            case ORDINARY -> throw new IllegalArgumentException("`" + spec.name() + "` is typed by its overloads");
            case EXECUTE -> execute(c, st, target);
            case STEP_SPAWN -> stepSpawn(c, st, target);
            case FIBER_NEW -> fiberNew(c, st, target);
            case DEFER_CPU -> deferCpu(c, st, target);
            case VARIANT -> variant(c, st, target);
            case VARIANT_GET -> variantGet(c, st, target);
            case EMPTY_LIST -> emptyList(c, st, target);
            case EMPTY_MAP -> emptyMap(c, st, target);
            case RECORD_GET -> recordGet(c, st, target);
            case RECORD_SET -> recordSet(c, st, target);
        };
    }

    private Checked.Node execute(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "execute", "");
        List<Type> before = st.row();
        body.require(st, 1, c.origin(), "`execute`", null);
        Type top = body.subst.resolve(st.top(1).get(0));
        if (Substitution.isMeta(top)) {
            throw Fail.at(VerifyCode.NEEDS_KNOWN_TYPE, c.origin(), "`execute` needs to know the type of the function on top of the stack, "
                    + "but it is not determined yet here; give the function (or the word that takes it) a signature", "a function", "_");
        }
        if (!(top instanceof Type.Fn)) {
            throw Fail.at(VerifyCode.NOT_A_FUNCTION, c.origin(), "`execute` needs a function (a closure or an ['] token) on top of the stack but found "
                    + Types.show(body.subst, top), "a function", Types.show(body.subst, top));
        }
        Type.Fn fn = (Type.Fn) top;
        st.pop();
        body.popExpect(st, fn.ins(), c.origin(), "`execute` of " + Types.show(body.subst, fn));
        st.pushAll(fn.outs());
        if (fn.yields().isPresent()) body.onYield(fn.yields().get(), c.origin(), "`execute` of " + Types.show(body.subst, fn));
        List<Type> ins = new ArrayList<>(fn.ins());
        ins.add(fn);
        Type.Fn used = new Type.Fn(ins, fn.outs(), fn.effects(), fn.yields());
        return new Checked.CallNode(c, target, used, false, before, st.row());
    }

    /**
     * The closure a word that starts one (a step, a fiber, a CPU task) takes from the top of the stack: its type must be
     * known here, and a function of no inputs that {@code fits} (else a type mismatch against {@code shape}, told as
     * {@code what}). It stays on the stack; {@link #started} replaces it with the word's handle.
     */
    private Type.Fn closureOnTop(Instr.Call c, StackState st, String word, String shape, String what, java.util.function.Predicate<Type.Fn> fits) {
        immediates(c, word, "");
        body.require(st, 1, c.origin(), "`" + word + "`", null);
        Type top = body.subst.resolve(st.top(1).get(0));
        if (Substitution.isMeta(top)) {
            throw Fail.at(VerifyCode.NEEDS_KNOWN_TYPE, c.origin(), "`" + word + "` needs to know the type of the closure on top of the stack, "
                    + "but it is not determined yet here", shape, "_");
        }
        if (!(top instanceof Type.Fn fn) || !fn.ins().isEmpty() || !fits.test(fn)) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), "`" + word + "` " + what + ", but found " + Types.show(body.subst, top),
                    shape, Types.show(body.subst, top));
        }
        return fn;
    }

    /** The call that replaces closure {@code fn} on top with {@code handle}; the closure's effects are the call's. */
    private Checked.Node started(Instr.Call c, StackState st, Target.Builtin target, List<Type> before, Type.Fn fn, Type handle) {
        st.pop();
        st.push(handle);
        Type.Fn used = new Type.Fn(List.of(fn), List.of(handle), fn.effects(), Optional.empty());
        return new Checked.CallNode(c, target, used, false, before, st.row());
    }

    /**
     * {@code step-spawn}: a closure of no inputs and one output, without yields (only the run itself publishes; a
     * step's requests may still pause the run for approval or a deferred answer), whatever its effects; they are the
     * spawn's, since the step performs them within the run.
     */
    private Checked.Node stepSpawn(Instr.Call c, StackState st, Target.Builtin target) {
        List<Type> before = st.row();
        Type.Fn fn = closureOnTop(c, st, "step-spawn", "( -> a)", "starts a closure of no inputs and one output that does not yield",
                f -> f.outs().size() == 1 && f.yields().isEmpty());
        return started(c, st, target, before, fn, new Type.TaskT(fn.outs().get(0)));
    }

    /**
     * {@code fiber-new}: a closure of no inputs and at most one output whose type yields with resume type unit; the
     * fiber's type is {@code fiber<Y,R>} (R unit for no output). The closure's effects are the call's, as for a step.
     */
    private Checked.Node fiberNew(Instr.Call c, StackState st, Target.Builtin target) {
        List<Type> before = st.row();
        Type.Fn fn = closureOnTop(c, st, "fiber-new", "( -> r yields<y,unit>)",
                "makes a fiber of a closure of no inputs and at most one output that yields (its type says yields<Y,unit>)",
                f -> f.outs().size() <= 1 && f.yields().isPresent() && Unifier.unify(body.subst, f.yields().get().resumed(), Type.UNIT));
        return started(c, st, target, before, fn, new Type.FiberT(fn.yields().get().yielded(), fn.outs().isEmpty() ? Type.UNIT : fn.outs().get(0)));
    }

    /**
     * {@code defer-cpu}: a closure of no inputs and one output that is pure — no capability, not even
     * {@code session.emit}, and no yields — since it runs on a worker thread beside the run; answers {@code task<a>}.
     */
    private Checked.Node deferCpu(Instr.Call c, StackState st, Target.Builtin target) {
        List<Type> before = st.row();
        Type.Fn fn = closureOnTop(c, st, "defer-cpu", "( -> a)", "runs a closure of no inputs and one output", f -> f.outs().size() == 1);
        if (!fn.effects().isEmpty() || fn.yields().isPresent()) {
            throw Fail.at(VerifyCode.IMPURE_TASK, c.origin(), "`defer-cpu` runs only a pure closure (no capability, no say, no yield) on the "
                    + "worker pool, but found " + Types.show(body.subst, fn) + "; do the effects in the run, before or after the task",
                    "( -> " + Types.show(body.subst, fn.outs().get(0)) + ")", Types.show(body.subst, fn));
        }
        return started(c, st, target, before, fn, new Type.TaskT(fn.outs().get(0)));
    }

    private Checked.Node variant(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "variant", "<T,tag>", Immediate.Kind.TYPE, Immediate.Kind.NAME);
        Type t = Types.instantiate(((Immediate.TypeArg) c.immediates().get(0)).type(), body.subst, c.origin(), body.scope.rigid);
        String tag = ((Immediate.NameArg) c.immediates().get(1)).name();
        // A recursive type builds a value of its unfolding, and the value has the recursive type.
        Type folded = t;
        while (t instanceof Type.Named n && n.isRecursive()) t = n.unfold();
        if (!(t instanceof Type.VariantT)) {
            throw Fail.at(VerifyCode.BAD_IMMEDIATE, c.origin(), "variant<T,tag> needs a closed variant type variant{…} as T, but T is " + t,
                    "variant{…}", t.toString());
        }
        Type.VariantT v = (Type.VariantT) t;
        Optional<Type> payload = tag(v, tag, c);
        List<Type> before = st.row();
        List<Type> ins = payload.map(List::of).orElse(List.of());
        body.popExpect(st, ins, c.origin(), "variant<" + v + "," + tag + ">");
        st.push(folded);
        return new Checked.CallNode(c, target, Type.Fn.of(ins, List.of(folded)), false, before, st.row());
    }

    private Checked.Node variantGet(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "variant-get", "<tag>", Immediate.Kind.NAME);
        String tag = ((Immediate.NameArg) c.immediates().get(0)).name();
        List<Type> before = st.row();
        Type.VariantT v = (Type.VariantT) known(st, 1, c, "variant-get<" + tag + ">", Type.Kind.VARIANT, "a variant{…} value");
        Type result = Type.option(tag(v, tag, c).orElse(Type.Prim.UNIT));
        st.pop();
        st.push(result);
        return new Checked.CallNode(c, target, Type.Fn.of(List.of(v), List.of(result)), false, before, st.row());
    }

    private Checked.Node emptyList(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "empty-list", "<T>", Immediate.Kind.TYPE);
        Type element = Types.instantiate(((Immediate.TypeArg) c.immediates().get(0)).type(), body.subst, c.origin(), body.scope.rigid);
        List<Type> before = st.row();
        Type list = Type.list(element);
        st.push(list);
        return new Checked.CallNode(c, target, Type.Fn.of(List.of(), List.of(list)), false, before, st.row());
    }

    private Checked.Node emptyMap(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "empty-map", "<K,V>", Immediate.Kind.TYPE, Immediate.Kind.TYPE);
        Type key = Types.instantiate(((Immediate.TypeArg) c.immediates().get(0)).type(), body.subst, c.origin(), body.scope.rigid);
        Type value = Types.instantiate(((Immediate.TypeArg) c.immediates().get(1)).type(), body.subst, c.origin(), body.scope.rigid);
        List<Type> before = st.row();
        Type map = Type.map(key, value);
        st.push(map);
        return new Checked.CallNode(c, target, Type.Fn.of(List.of(), List.of(map)), false, before, st.row());
    }

    private Checked.Node recordGet(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "record-get", " with a literal field name (\"field\" record-get)", Immediate.Kind.NAME);
        String field = ((Immediate.NameArg) c.immediates().get(0)).name();
        List<Type> before = st.row();
        Type.RecordT r = (Type.RecordT) known(st, 1, c, "\"" + field + "\" record-get", Type.Kind.RECORD, "a record{…} value");
        Type result = Type.option(field(r, field, c));
        st.pop();
        st.push(result);
        return new Checked.CallNode(c, target, Type.Fn.of(List.of(r), List.of(result)), false, before, st.row());
    }

    private Checked.Node recordSet(Instr.Call c, StackState st, Target.Builtin target) {
        immediates(c, "record-set", " with a literal field name (record value \"field\" record-set)", Immediate.Kind.NAME);
        String field = ((Immediate.NameArg) c.immediates().get(0)).name();
        String what = "\"" + field + "\" record-set";
        List<Type> before = st.row();
        Type.RecordT r = (Type.RecordT) known(st, 2, c, what, Type.Kind.RECORD, "a record{…} value below the new field value");
        Type ft = field(r, field, c);
        Type value = st.top(1).get(0);
        if (!Unifier.unify(body.subst, ft, value)) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), what + ": field `" + field + "` holds " + Types.show(body.subst, ft)
                    + " but the new value is " + Types.show(body.subst, value), Types.show(body.subst, ft), Types.show(body.subst, value));
        }
        st.pop();
        st.pop();
        st.push(r);
        return new Checked.CallNode(c, target, Type.Fn.of(List.of(r, ft), List.of(r)), false, before, st.row());
    }

    /**
     * The resolved type {@code depth} values down, which must already be known to be of {@code kind}: these rules
     * read a tag or field list from it, which unification cannot invent.
     */
    private Type known(StackState st, int depth, Instr.Call c, String what, Type.Kind kind, String expected) {
        body.require(st, depth, c.origin(), what, null);
        Type t = body.subst.resolve(st.top(depth).get(0));
        // A value of a recursive type is inspected as its unfolding (one level of its structure).
        while (t instanceof Type.Named n && n.isRecursive()) t = n.unfold();
        if (Substitution.isMeta(t)) {
            throw Fail.at(VerifyCode.NEEDS_KNOWN_TYPE, c.origin(), what + " needs to know the type of the value it inspects, but it is not "
                    + "determined yet here; annotate it (a signature or a typed literal)", expected, "_");
        }
        if (t.kind() != kind) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), what + " needs " + expected + " but found " + Types.show(body.subst, t),
                    expected, Types.show(body.subst, t));
        }
        return t;
    }

    private Optional<Type> tag(Type.VariantT v, String tag, Instr.Call c) {
        if (!v.tags().containsKey(tag)) {
            throw Fail.at(VerifyCode.UNKNOWN_TAG, c.origin(), "tag `" + tag + "` is not a tag of " + v + Suggestions.didYouMean(tag, v.tags().keySet()),
                    String.join("|", v.tags().keySet()), tag);
        }
        return v.tags().get(tag);
    }

    private Type field(Type.RecordT r, String field, Instr.Call c) {
        if (!r.fields().containsKey(field)) {
            throw Fail.at(VerifyCode.UNKNOWN_FIELD, c.origin(), "field `" + field + "` is not a field of " + Types.show(body.subst, r)
                    + Suggestions.didYouMean(field, r.fields().keySet()), String.join(",", r.fields().keySet()), field);
        }
        return r.fields().get(field);
    }

    /** Checks that the call carries exactly immediates of the given kinds. */
    private static void immediates(Instr.Call c, String word, String form, Immediate.Kind... kinds) {
        List<Immediate> got = c.immediates() == null ? List.of() : c.immediates();
        boolean ok = got.size() == kinds.length;
        for (int i = 0; ok && i < kinds.length; i++) ok = got.get(i) != null && got.get(i).kind() == kinds[i] && valid(got.get(i));
        if (!ok) {
            String shape = kinds.length == 0 ? "no immediates" : word + form;
            throw Fail.at(VerifyCode.BAD_IMMEDIATE, c.origin(), "`" + word + "` must be written " + shape + "; got "
                    + (got.isEmpty() ? "no immediates" : "<" + got.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("") + ">"),
                    shape, got.toString());
        }
    }

    private static boolean valid(Immediate i) {
        return switch (i.kind()) {
            case TYPE -> ((Immediate.TypeArg) i).type() != null;
            case NAME -> ((Immediate.NameArg) i).name() != null && !((Immediate.NameArg) i).name().isEmpty();
        };
    }
}
