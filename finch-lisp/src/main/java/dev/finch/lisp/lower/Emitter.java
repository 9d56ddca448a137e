package dev.finch.lisp.lower;

import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Block;
import dev.finch.ir.instr.Immediate;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.type.Type;
import dev.finch.lisp.types.Infer;
import dev.finch.lisp.types.Ty;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Typed expressions to IR. Every expression is emitted either for its value (exactly one value pushed) or for its
 * effect (nothing pushed): a unit value is materialized with {@code Push(unit)} only where a value is needed, and
 * a value emitted for effect is dropped. Lisp functions and closures always return one value (unit included);
 * vocabulary and session words keep their own output counts ({@code say} leaves nothing).
 *
 * <p>The IR's blocks nest no deeper than the budget's nesting limit ({@code E-LIMIT-012}, phase lower): most forms
 * nest their blocks as deeply as their source, but a {@code cond} or a variant {@code match} nests one block per
 * clause. The emitter recurses once per node, and the tree it walks is as deep as the source or the blocks.
 */
final class Emitter {
    private final Infer inf;
    private final CompileBudget budget;
    /** Whether a call of a name in this program is the vocabulary's word (no definition of the program or session shadows it). */
    private final java.util.function.Predicate<String> vocabularyWord;
    private Function<Ty.Var, Type> leftover = UNIT_LEFTOVERS;
    private int depth;

    /** Unit for every undetermined variable. A class, not a lambda: every Lisp submission emits, the first in a fresh JVM too. */
    private static final class UnitLeftovers implements Function<Ty.Var, Type> {
        @Override
        public Type apply(Ty.Var v) { return Type.Prim.UNIT; }
    }

    private static final Function<Ty.Var, Type> UNIT_LEFTOVERS = new UnitLeftovers();

    private Emitter(Infer inf, CompileBudget budget, java.util.function.Predicate<String> vocabularyWord) {
        this.inf = inf;
        this.budget = budget;
        this.vocabularyWord = vocabularyWord;
    }

    static Module emit(Analyzer a, String sourceId) {
        Emitter e = new Emitter(a.inf, a.env.budget(), a::vocabularyWord);
        List<WordDef> words = new ArrayList<>();
        List<Instr> main = new ArrayList<>();
        for (Object o : a.program) {
            if (o instanceof Analyzer.FnDef fn) words.add(e.word(fn));
        }
        e.leftover = UNIT_LEFTOVERS;
        for (Object o : a.program) {
            if (o instanceof Analyzer.ConstDef c) {
                e.emit(c.valueNode, true, main);
                main.add(new Instr.Constant(c.name, Optional.of(e.inf.toType(c.type, e.leftover)), c.origin));
            } else if (o instanceof Analyzer.TopExpr t) {
                // The contract's top-level boundary: a unit form leaves nothing, any other value stays on the stack.
                e.emit(t.node, !isUnit(t.node.type), main);
            }
        }
        return new Module(sourceId, "lisp", words, new Block(main));
    }

    /** True for unit, and for a type nothing constrained (it defaults to unit). */
    static boolean isUnit(Ty t) {
        Ty p = t.prune();
        return p instanceof Ty.Var || Infer.isCon(p, "unit");
    }

    /** A function's signature keeps its generalized variables as a, b, …; variables only inside the body become unit. */
    private WordDef word(Analyzer.FnDef fn) {
        Set<Ty.Var> vars = new LinkedHashSet<>();
        inf.freeVars(fn.mono, vars);
        Map<Ty.Var, Type> names = new IdentityHashMap<>();
        for (Ty.Var v : vars) names.put(v, new Type.Var(Infer.letter(names.size())));
        leftover = v -> names.getOrDefault(v, Type.Prim.UNIT);
        Type.Fn sig = (Type.Fn) inf.toType(fn.mono, leftover);
        // Declared capabilities replace the inferred ones in the declaration: the verifier checks they cover the body.
        if (fn.declaredEffects != null) sig = sig.withEffects(fn.declaredEffects);
        List<Instr> body = new ArrayList<>();
        for (int i = fn.paramLocals.size() - 1; i >= 0; i--) body.add(new Instr.LocalStore(fn.paramLocals.get(i).ir, fn.origin));
        emit(fn.bodyNode, true, body);
        return new WordDef(fn.name, Optional.of(sig), new Block(body), fn.origin);
    }

    private void emit(Node n, boolean want, List<Instr> out) {
        boolean pushed = form(n, want, out);
        if (want && !pushed) out.add(new Instr.Push(new Literal.UnitLit(), n.origin));
        if (!want && pushed) out.add(new Instr.Call("drop", n.origin));
    }

    private Block block(Node n, boolean want) {
        return nested(n.origin, out -> emit(n, want, out));
    }

    /** A block one level deeper than the current one, refused past the nesting limit; {@code fill} emits into it. */
    private Block nested(dev.finch.ir.diag.Origin at, java.util.function.Consumer<List<Instr>> fill) {
        budget.nesting(Phase.LOWER, ++depth, at);
        try {
            List<Instr> out = new ArrayList<>();
            fill.accept(out);
            return new Block(out);
        } finally {
            depth--;
        }
    }

    /** Emits n; returns whether it pushed a value. {@code want} is a hint that compound forms pass to their parts. */
    private boolean form(Node n, boolean want, List<Instr> out) {
        return switch (n.kind) {
            case LIT -> {
                if (!want) yield false;
                out.add(new Instr.Push(n.lit, n.origin));
                yield true;
            }
            case UNIT -> false;
            case LOCAL -> {
                if (!want) yield false;
                out.add(new Instr.LocalLoad(n.local.ir, n.origin));
                yield true;
            }
            case CONST -> {
                if (!want) yield false;
                out.add(new Instr.Call(n.name, n.origin));
                yield true;
            }
            case QUOTE_WORD -> {
                if (!want) yield false;
                out.add(new Instr.Quote(n.name, n.origin));
                yield true;
            }
            case CALL -> {
                for (Node k : n.kids) emit(k, true, out);
                List<Immediate> imms = new ArrayList<>();
                for (Object im : n.immediates) {
                    imms.add(im instanceof String s ? new Immediate.NameArg(s) : new Immediate.TypeArg(inf.toType((Ty) im, leftover)));
                }
                out.add(new Instr.Call(n.name, imms, n.origin));
                yield n.outs == 1;
            }
            case CALL_VALUE -> {
                for (int i = 1; i < n.kids.size(); i++) emit(n.kid(i), true, out);
                emit(n.kid(0), true, out);
                out.add(new Instr.Call("execute", n.origin));
                yield n.outs == 1;
            }
            case IF -> {
                emit(n.kid(0), true, out);
                out.add(new Instr.If(block(n.kid(1), want), block(n.kid(2), want), n.origin));
                yield want;
            }
            case SEQ -> {
                if (n.kids.isEmpty()) yield false;
                for (int i = 0; i < n.kids.size() - 1; i++) emit(n.kid(i), false, out);
                emit(n.kid(n.kids.size() - 1), want, out);
                yield want;
            }
            case BIND -> {
                emit(n.kid(0), true, out);
                out.add(new Instr.LocalStore(n.local.ir, n.origin));
                yield false;
            }
            case LAMBDA -> {
                if (!want) yield false;
                Block body = nested(n.origin, b -> {
                    for (int i = n.params.size() - 1; i >= 0; i--) b.add(new Instr.LocalStore(n.params.get(i).ir, n.origin));
                    emit(n.kid(0), true, b);
                });
                out.add(new Instr.Closure((Type.Fn) inf.toType(n.type, leftover), body, n.origin));
                yield true;
            }
            case WHILE -> {
                out.add(new Instr.Loop(block(n.kid(0), true), block(n.kid(1), false), n.origin));
                yield false;
            }
            case MATCH_OPTION -> {
                emit(n.kid(0), true, out);
                out.add(new Instr.IfSome(armBlock(n.local, n.kid(1), want, n), block(n.kid(2), want), n.origin));
                yield want;
            }
            case MATCH_RESULT -> {
                emit(n.kid(0), true, out);
                out.add(new Instr.IfOk(armBlock(n.local, n.kid(1), want, n), armBlock(n.local2, n.kid(2), want, n), n.origin));
                yield want;
            }
            case CASE -> {
                emit(n.kid(0), true, out);
                List<Instr.Case.Arm> arms = new ArrayList<>();
                for (int i = 0; i < n.caseValues.size(); i++) {
                    Node body = n.kid(1 + i);
                    arms.add(new Instr.Case.Arm(n.caseValues.get(i), block(body, want), body.origin));
                }
                Optional<Block> otherwise = n.hasDefault ? Optional.of(block(n.kid(n.kids.size() - 1), want)) : Optional.empty();
                out.add(new Instr.Case(arms, otherwise, n.origin));
                yield want;
            }
            case LIST -> {
                out.add(new Instr.ListLit(nested(n.origin, els -> { for (Node k : n.kids) emit(k, true, els); }), n.origin));
                yield true;
            }
            case MAP -> {
                out.add(new Instr.MapLit(nested(n.origin, els -> { for (Node k : n.kids) emit(k, true, els); }), n.origin));
                yield true;
            }
            case RECORD -> {
                List<Instr.RecordLit.Field> fields = new ArrayList<>();
                for (int i = 0; i < n.fields.size(); i++) {
                    fields.add(new Instr.RecordLit.Field(n.fields.get(i), block(n.kid(i), true), n.kid(i).origin));
                }
                out.add(new Instr.RecordLit(fields, n.origin));
                yield true;
            }
            case PROPAGATE -> {
                emit(n.kid(0), true, out);
                out.add(new Instr.Propagate(n.origin));
                yield true;
            }
            case NAMED_LET -> {
                // Initial values first (a parallel binding), then stored right to left off the stack.
                for (int i = 0; i < n.params.size(); i++) emit(n.kid(i), true, out);
                for (int i = n.params.size() - 1; i >= 0; i--) out.add(new Instr.LocalStore(n.params.get(i).ir, n.origin));
                Guard guarded = whileLoop(n);
                if (guarded != null) {
                    // (if test (loop …) result): the test is the loop's own test and the result follows the loop, as
                    // Co-Forth's begin … while … repeat — no flag, no optional result. (if test result (loop …)) is the
                    // same loop under the test's negation.
                    Block test = nested(n.origin, t -> {
                        if (guarded.negated()) negation(guarded.test(), t);
                        else emit(guarded.test(), true, t);
                    });
                    Block body = nested(n.origin, b -> tail(guarded.again(), n, b));
                    out.add(new Instr.Loop(test, body, n.origin));
                    yield form(guarded.result(), want, out);
                }
                out.add(new Instr.Push(new Literal.BoolLit(true), n.origin));
                out.add(new Instr.LocalStore(n.local.ir, n.origin));
                out.add(new Instr.Call("none", n.origin));
                out.add(new Instr.LocalStore(n.local2.ir, n.origin));
                Block test = nested(n.origin, t -> t.add(new Instr.LocalLoad(n.local.ir, n.origin)));
                Block body = nested(n.origin, b -> tail(n.kid(n.kids.size() - 1), n, b));
                out.add(new Instr.Loop(test, body, n.origin));
                if (!want) yield false;
                out.add(new Instr.LocalLoad(n.local2.ir, n.origin));
                out.add(new Instr.Call("unwrap", n.origin));
                yield true;
            }
            case LOOP_CALL -> throw new IllegalStateException("a named let's call outside tail position");
            case CHAIN -> {
                int last = n.kids.size() - 1;
                for (int i = 0; i < last; i++) emit(n.kid(i), true, out);
                emit(n.kid(last), want, out);
                yield want;
            }
            // The chain's previous link already pushed this value.
            case STACKED -> true;
        };
    }

    /**
     * A named let that is a plain while loop: it goes round while {@code test} (or, {@code negated}, while it is false)
     * with {@code again} (a call of the loop, in tail position), and then its value is {@code result}.
     */
    private record Guard(Node test, boolean negated, Node again, Node result) { }

    /**
     * The named let's body when it is {@code (if test (name …) result)} or {@code (if test result (name …))} with
     * {@code name} called nowhere else: a plain while loop, its test the {@code if}'s (negated in the second shape);
     * otherwise null (the general lowering, with a flag and an optional result).
     */
    private static Guard whileLoop(Node namedLet) {
        Node body = unwrapped(namedLet.kid(namedLet.kids.size() - 1));
        if (body.kind != Node.Kind.IF || body.kids.size() != 3 || callsLoop(body.kid(0), namedLet)) return null;
        for (int branch = 1; branch <= 2; branch++) {
            Node again = unwrapped(body.kid(branch));
            Node result = body.kid(3 - branch);
            if (again.kind != Node.Kind.LOOP_CALL || again.local.loop != namedLet || callsLoop(result, namedLet)) continue;
            boolean nested = false;
            for (Node k : again.kids) nested |= callsLoop(k, namedLet);
            if (!nested) return new Guard(body.kid(0), branch == 2, body.kid(branch), result);
        }
        return null;
    }

    private static Node unwrapped(Node n) {
        while (n.kind == Node.Kind.SEQ && n.kids.size() == 1) n = n.kid(0);
        return n;
    }

    /** Each vocabulary comparison and the one that is its negation (the orders are total, and {@code <>} is not {@code =}). */
    private static final Map<String, String> NEGATED = Map.of("<", ">=", ">=", "<", ">", "<=", "<=", ">", "=", "<>", "<>", "=");

    /**
     * Emits the negation of bool {@code test}: a comparison of two ints as its opposite comparison (so
     * {@code (if (>= i n) t (loop …))} tests {@code i n <} like the other shape, and its loop is the same counted loop),
     * anything else as the test and {@code if false else true then}.
     */
    private void negation(Node test, List<Instr> out) {
        Node c = unwrapped(test);
        String opposite = c.kind == Node.Kind.CALL ? NEGATED.get(c.name) : null;
        if (opposite != null && c.kids.size() == 2 && c.immediates.isEmpty() && Infer.isCon(c.kid(0).type, "int")
                && Infer.isCon(c.kid(1).type, "int") && vocabularyWord.test(c.name) && vocabularyWord.test(opposite)) {
            emit(c.kid(0), true, out);
            emit(c.kid(1), true, out);
            out.add(new Instr.Call(opposite, c.origin));
            return;
        }
        emit(test, true, out);
        Block no = nested(test.origin, b -> b.add(new Instr.Push(new Literal.BoolLit(false), test.origin)));
        Block yes = nested(test.origin, b -> b.add(new Instr.Push(new Literal.BoolLit(true), test.origin)));
        out.add(new Instr.If(no, yes, test.origin));
    }

    /** Whether {@code n} calls named let {@code loop} anywhere inside it. */
    private static boolean callsLoop(Node n, Node loop) {
        if (n.kind == Node.Kind.LOOP_CALL && n.local != null && n.local.loop == loop) return true;
        for (Node k : n.kids) if (callsLoop(k, loop)) return true;
        return false;
    }

    /**
     * The body of a named let in tail position: a call of the loop stores its arguments into the parameters (and
     * the loop goes round again); any other value is stored as the result and stops the loop.
     */
    private void tail(Node n, Node loop, List<Instr> out) {
        switch (n.kind) {
            case LOOP_CALL:
                if (n.local.loop != loop) break;
                for (Node k : n.kids) emit(k, true, out);
                for (int i = loop.params.size() - 1; i >= 0; i--) out.add(new Instr.LocalStore(loop.params.get(i).ir, n.origin));
                return;
            case IF:
                emit(n.kid(0), true, out);
                out.add(new Instr.If(tailBlock(null, n.kid(1), loop, n), tailBlock(null, n.kid(2), loop, n), n.origin));
                return;
            case SEQ: {
                if (n.kids.isEmpty()) break;
                int last = Forms.tailIndex(n);
                for (int i = 0; i < last; i++) emit(n.kid(i), false, out);
                tail(n.kid(last), loop, out);
                return;
            }
            case CHAIN: {
                int last = n.kids.size() - 1;
                for (int i = 0; i < last; i++) emit(n.kid(i), true, out);
                tail(n.kid(last), loop, out);
                return;
            }
            case MATCH_OPTION: {
                emit(n.kid(0), true, out);
                Block some = tailBlock(n.local == null ? DROP : n.local, n.kid(1), loop, n);
                out.add(new Instr.IfSome(some, tailBlock(null, n.kid(2), loop, n), n.origin));
                return;
            }
            case MATCH_RESULT:
                emit(n.kid(0), true, out);
                out.add(new Instr.IfOk(tailBlock(n.local == null ? DROP : n.local, n.kid(1), loop, n),
                        tailBlock(n.local2 == null ? DROP : n.local2, n.kid(2), loop, n), n.origin));
                return;
            case CASE: {
                emit(n.kid(0), true, out);
                List<Instr.Case.Arm> arms = new ArrayList<>();
                for (int i = 0; i < n.caseValues.size(); i++) {
                    Node body = n.kid(1 + i);
                    arms.add(new Instr.Case.Arm(n.caseValues.get(i), tailBlock(null, body, loop, n), body.origin));
                }
                Optional<Block> otherwise = n.hasDefault ? Optional.of(tailBlock(null, n.kid(n.kids.size() - 1), loop, n)) : Optional.empty();
                out.add(new Instr.Case(arms, otherwise, n.origin));
                return;
            }
            default:
        }
        emit(n, true, out);
        out.add(new Instr.Call("some", n.origin));
        out.add(new Instr.LocalStore(loop.local2.ir, n.origin));
        out.add(new Instr.Push(new Literal.BoolLit(false), n.origin));
        out.add(new Instr.LocalStore(loop.local.ir, n.origin));
    }

    /** Marks a branch edge whose payload is dropped (a {@code _} binder). */
    private static final Local DROP = new Local("_", "_", null, null);

    private Block tailBlock(Local binder, Node body, Node loop, Node at) {
        return nested(at.origin, out -> {
            if (binder != null) out.add(binder == DROP ? new Instr.Call("drop", at.origin) : new Instr.LocalStore(binder.ir, at.origin));
            tail(body, loop, out);
        });
    }

    /** A branch edge that starts with a payload: store it into the binder, or drop it for {@code _}. */
    private Block armBlock(Local binder, Node body, boolean want, Node at) {
        return nested(at.origin, out -> {
            out.add(binder == null ? new Instr.Call("drop", at.origin) : new Instr.LocalStore(binder.ir, at.origin));
            emit(body, want, out);
        });
    }
}
