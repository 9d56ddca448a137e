package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks one body in one pass, instruction by instruction, over a {@link StackState}; structured control flow,
 * literals, calls and special words are delegated to one rule class each. Produces checked nodes whose types may
 * still hold meta-variables; the module checker applies the final substitution when the body is done.
 */
final class BodyChecker {
    final ModuleChecker module;
    final Substitution subst;
    final Scope scope;
    private final ControlRules control;
    private final LiteralRules literals;
    private final CallRules calls;

    BodyChecker(ModuleChecker module, Substitution subst, Scope scope) {
        this.module = module;
        this.subst = subst;
        this.scope = scope;
        this.control = new ControlRules(this);
        this.literals = new LiteralRules(this);
        this.calls = new CallRules(this);
    }

    /** Checks a nested block (never the program's top level). */
    CheckedBlock block(Block b, StackState st) { return block(b, st, false); }

    /** Checks {@code b} from {@code st}, leaving {@code st} at the block's exit. {@code topLevel} marks main's own block. */
    CheckedBlock block(Block b, StackState st, boolean topLevel) {
        if (b == null || b.instrs() == null) throw Fail.at(VerifyCode.MALFORMED_IR, scope.origin, "a block is missing");
        List<Type> in = st.row();
        List<Node> nodes = new ArrayList<>(b.instrs().size());
        for (Instr i : b.instrs()) nodes.add(instr(i, st, topLevel));
        return new CheckedBlock(nodes, in, st.row());
    }

    private Node instr(Instr i, StackState st, boolean topLevel) {
        if (i == null) throw Fail.at(VerifyCode.MALFORMED_IR, scope.origin, "an instruction is missing");
        subst.at(i.origin());
        return switch (i.kind()) {
            case PUSH -> push((Instr.Push) i, st);
            case CALL -> calls.call((Instr.Call) i, st);
            case QUOTE -> calls.quote((Instr.Quote) i, st);
            case IF -> control.ifElse((Instr.If) i, st);
            case IF_SOME -> control.ifSome((Instr.IfSome) i, st);
            case IF_OK -> control.ifOk((Instr.IfOk) i, st);
            case LOOP -> control.loop((Instr.Loop) i, st);
            case UNTIL -> control.until((Instr.Until) i, st);
            case CASE -> control.caseOf((Instr.Case) i, st);
            case LIST -> literals.list((Instr.ListLit) i, st);
            case MAP -> literals.map((Instr.MapLit) i, st);
            case RECORD -> literals.record((Instr.RecordLit) i, st);
            case CLOSURE -> closure((Instr.Closure) i, st);
            case LOCAL_STORE -> LocalRules.store(this, (Instr.LocalStore) i, st);
            case LOCAL_LOAD -> LocalRules.load(this, (Instr.LocalLoad) i, st);
            case PROPAGATE -> propagate((Instr.Propagate) i, st);
            case CONSTANT -> constant((Instr.Constant) i, st, topLevel);
        };
    }

    private Node push(Instr.Push p, StackState st) {
        if (p.literal() == null) throw Fail.at(VerifyCode.MALFORMED_IR, p.origin(), "a push has no literal");
        List<Type> before = st.row();
        Type t = literalType(p.literal());
        st.push(t);
        return new Checked.PushNode(p, t, before, st.row());
    }

    /**
     * The type of a literal, spelled with {@link Type.Prim} directly: the {@code Type.INT}-style interface constants
     * read as null when {@code Type.Prim} happens to be initialized before {@code Type} (see the report), so the
     * verifier never relies on them.
     */
    static Type literalType(dev.finch.ir.instr.Literal l) {
        return switch (l.kind()) {
            case INT -> Type.Prim.INT;
            case FLOAT -> Type.Prim.FLOAT;
            case STRING -> Type.Prim.STRING;
            case BOOL -> Type.Prim.BOOL;
            case UNIT -> Type.Prim.UNIT;
            case SYMBOL -> Type.Prim.SYMBOL;
            case JSON -> Type.Prim.JSON;
        };
    }

    // ---- shared stack helpers -------------------------------------------------------------------------------

    /** Makes {@code n} values available or reports the underflow of {@code what} expecting {@code expected}. */
    void require(StackState st, int n, Origin at, String what, List<Type> expected) {
        StackState.Shortage s = st.ensure(n, at);
        if (s == StackState.Shortage.NONE) return;
        String exp = expected == null ? null : Types.row(subst, expected);
        String found = Types.row(subst, st.row());
        if (s == StackState.Shortage.BELOW_LITERAL) {
            throw Fail.at(VerifyCode.LITERAL_UNDERFLOW, at, what + " needs " + values(n) + ", but inside a list, map or record "
                    + "literal only the values pushed within the literal can be used", exp, found);
        }
        String where;
        if (scope.root().kind == Scope.Kind.MAIN && scope.kind == Scope.Kind.MAIN) {
            where = " (the program starts on the session stack, which held " + values(module.env.stack().size()) + ")";
        } else if (scope.kind == Scope.Kind.CLOSURE) {
            where = " (the closure starts with its inputs " + Types.row(subst, scope.signature.ins()) + ")";
        } else if (scope.signature != null) {
            where = " (word `" + scope.name + "` declares inputs " + Types.row(subst, scope.signature.ins()) + ")";
        } else {
            where = "";
        }
        throw Fail.at(VerifyCode.STACK_UNDERFLOW, at, what + " needs " + values(n) + " but the stack holds only "
                + st.size() + " here" + where, exp, found);
    }

    /** Pops {@code expected.size()} values that must unify with {@code expected} (bottom to top); returns them. */
    List<Type> popExpect(StackState st, List<Type> expected, Origin at, String what) { return popExpect(st, expected, at, what, false); }

    /**
     * As {@link #popExpect(StackState, List, Origin, String)} for a call of {@code word}, described as {@code `word`}:
     * the description is spelled only for an error (every call of a program passes here).
     */
    List<Type> popExpectCall(StackState st, List<Type> expected, Origin at, String word) { return popExpect(st, expected, at, word, true); }

    private List<Type> popExpect(StackState st, List<Type> expected, Origin at, String what, boolean word) {
        int n = expected.size();
        if (st.ensure(n, at) != StackState.Shortage.NONE) require(st, n, at, word ? "`" + what + "`" : what, expected);
        List<Type> top = st.top(n);
        if (!Unifier.unifyRows(subst, expected, top)) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, at, (word ? "`" + what + "`" : what) + " expects " + Types.row(subst, expected)
                    + " on top of the stack but found " + Types.row(subst, top), Types.row(subst, expected), Types.row(subst, top));
        }
        for (int k = 0; k < n; k++) st.pop();
        return top;
    }

    /** The body's exit row must be exactly {@code outs} (a declared signature or closure type). */
    void requireOuts(StackState st, List<Type> outs, Origin at, String what) {
        List<Type> row = st.row();
        if (!Unifier.unifyRows(subst, outs, row)) {
            throw Fail.at(VerifyCode.SIGNATURE_MISMATCH, at, what + " declares outputs " + Types.row(subst, outs)
                    + " but its body leaves " + Types.row(subst, row), Types.row(subst, outs), Types.row(subst, row));
        }
    }

    /** Records that the body publishes {@code y} (from yield, a yielding word, or execute of a yielding function). */
    void onYield(Type.Yields y, Origin at, String what) {
        if (scope.yields == null) {
            if (scope.yieldsFixed()) {
                String owner = scope.kind == Scope.Kind.CLOSURE ? "this closure's type" : "word `" + scope.name + "`";
                throw Fail.at(VerifyCode.UNDECLARED_YIELDS, at, what + " yields " + Types.show(subst, y.yielded()) + " but " + owner
                        + " declares no yields; add yields<" + Types.show(subst, y.yielded()) + "," + Types.show(subst, y.resumed())
                        + "> to its signature", "no yields", "yields<" + Types.show(subst, y.yielded()) + "," + Types.show(subst, y.resumed()) + ">");
            }
            scope.yields = y;
            return;
        }
        if (!Unifier.unify(subst, scope.yields.yielded(), y.yielded()) || !Unifier.unify(subst, scope.yields.resumed(), y.resumed())) {
            String have = "yields<" + Types.show(subst, scope.yields.yielded()) + "," + Types.show(subst, scope.yields.resumed()) + ">";
            String got = "yields<" + Types.show(subst, y.yielded()) + "," + Types.show(subst, y.resumed()) + ">";
            throw Fail.at(VerifyCode.TYPE_MISMATCH, at, what + " " + got + " but the body " + (scope.yieldsFixed() ? "declares " : "already ") + have
                    + "; one body publishes one type", have, got);
        }
    }

    static String values(int n) { return n == 1 ? "1 value" : n + " values"; }

    // ---- closures, propagation, constants --------------------------------------------------------------------

    private Node closure(Instr.Closure c, StackState st) {
        Type.Fn declared = c.type();
        if (declared == null || c.body() == null) throw Fail.at(VerifyCode.MALFORMED_IR, c.origin(), "a closure has no type or body");
        List<Type> before = st.row();
        Scope inner = scope.closure(c.origin(), declared, st.assigned());
        BodyChecker checker = new BodyChecker(module, subst, inner);
        StackState s = new StackState(declared.ins(), null, Set.of());
        CheckedBlock body = checker.block(c.body(), s);
        checker.requireOuts(s, declared.outs(), c.origin(), "this closure");
        // A closure body's locals include its captures: the backend stores them into locals on entry.
        java.util.Map<String, Type> locals = new java.util.LinkedHashMap<>(inner.locals);
        for (String cap : inner.captures) locals.putIfAbsent(cap, scope.visibleLocal(cap));
        Checked.CheckedWord word = new Checked.CheckedWord("closure", declared, locals, inner.captures, body, false, c.origin());
        // The body is checked against its own variables rigidly; the value is one instance of it.
        Type value = Types.instantiate(declared, subst, c.origin(), scope.rigid);
        st.push(value);
        return new Checked.ClosureNode(c, word, before, st.row());
    }

    private Node propagate(Instr.Propagate p, StackState st) {
        Type.Fn sig = scope.signature;
        // A closure's type is always declared, so it is a target by the same rule as a word with a signature:
        // ? returns the err from the closure's own body (the innermost function), never from the enclosing word.
        if (scope.kind == Scope.Kind.MAIN || !scope.declaredByAuthor) {
            String where = scope.kind == Scope.Kind.MAIN ? "the top level of a program" : "word `" + scope.name + "`, which has no declared signature";
            throw Fail.at(VerifyCode.PROPAGATE_TARGET, p.origin(), "? (try) cannot be used in " + where
                    + ": it returns an err from a word or closure whose sole declared output is result<R,E>; use if-ok (match-result) here instead");
        }
        String owner = scope.kind == Scope.Kind.CLOSURE ? "this closure" : "word `" + scope.name + "`";
        Type out = sig.outs().size() == 1 ? subst.resolve(sig.outs().get(0)) : null;
        if (!(out instanceof Type.ResultT)) {
            throw Fail.at(VerifyCode.PROPAGATE_TARGET, p.origin(), "? (try) needs " + owner + " to declare exactly one output of type result<R,E>, but it declares "
                    + Types.row(subst, sig.outs()), "result<R,E>", Types.row(subst, sig.outs()));
        }
        Type.ResultT target = (Type.ResultT) out;
        List<Type> before = st.row();
        Type okT = subst.fresh(p.origin());
        Type errT = subst.fresh(p.origin());
        List<Type> popped = popExpect(st, List.of(Type.result(okT, errT)), p.origin(), "?");
        if (!Unifier.unify(subst, errT, target.err())) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, p.origin(), "? passes on an error of type " + Types.show(subst, errT) + " but " + owner
                    + " returns result<" + Types.show(subst, target.ok()) + "," + Types.show(subst, target.err()) + ">; convert the error first",
                    Types.show(subst, target.err()), Types.show(subst, errT));
        }
        st.push(okT);
        return new Checked.PropagateNode(p, (Type.ResultT) Type.result(okT, errT), target, before, st.row());
    }

    private Node constant(Instr.Constant c, StackState st, boolean topLevel) {
        if (!topLevel || scope.kind != Scope.Kind.MAIN) {
            throw Fail.at(VerifyCode.CONSTANT_PLACEMENT, c.origin(), "constant `" + c.name() + "` must be defined at the top level of the program, "
                    + "not inside a word, closure, branch, loop or literal");
        }
        List<Type> before = st.row();
        require(st, 1, c.origin(), "constant `" + c.name() + "`", null);
        Type t = st.top(1).get(0);
        Optional<Type> declared = c.declared() == null ? Optional.empty() : c.declared();
        if (declared.isPresent()) {
            Type d = Types.instantiate(declared.get(), subst, c.origin(), scope.rigid);
            if (!Unifier.unify(subst, d, t)) {
                throw Fail.at(VerifyCode.TYPE_MISMATCH, c.origin(), "constant `" + c.name() + "` is declared " + Types.show(subst, d)
                        + " but the value is " + Types.show(subst, t), Types.show(subst, d), Types.show(subst, t));
            }
        }
        st.pop();
        module.defineConstant(c.name(), t, c.origin());
        return new Checked.ConstantNode(c, t, before, st.row());
    }
}
