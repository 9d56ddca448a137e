package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.checked.Row;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds a checked tree node by node (checked nodes are immutable). Subclasses map every type (applying the
 * final substitution) or replace call nodes and closure bodies (filling in effects and suspension flags).
 */
class CheckedRewriter {
    /** Maps one type; identity by default. */
    Type type(Type t) { return t; }

    /** Rebuilds a call node; by default only its types. */
    Node call(Checked.CallNode n) {
        Type.Fn f = fn(n.instantiated());
        List<Type> b = row(n.before()), a = row(n.after());
        if (f == n.instantiated() && b == n.before() && a == n.after()) return n;
        return new Checked.CallNode(n.instr(), n.target(), f, n.suspends(), b, a);
    }

    /** Rebuilds a closure's body word; by default the same way as any word. */
    CheckedWord closureBody(CheckedWord w) { return word(w); }

    CheckedWord word(CheckedWord w) {
        Map<String, Type> locals = new LinkedHashMap<>();
        boolean same = true;
        for (var e : w.locals().entrySet()) {
            Type t = type(e.getValue());
            same &= t == e.getValue();
            locals.put(e.getKey(), t);
        }
        Type.Fn sig = fn(w.signature());
        CheckedBlock body = block(w.body());
        if (same && sig == w.signature() && body == w.body()) return w;
        return new CheckedWord(w.name(), sig, same ? w.locals() : locals, w.captures(), body, w.suspends(), w.origin());
    }

    /** {@code b} rebuilt; {@code b} itself when no node and neither row changes (a rewrite that changes nothing allocates little). */
    CheckedBlock block(CheckedBlock b) {
        List<Node> nodes = null;
        List<Node> old = b.nodes();
        for (int i = 0; i < old.size(); i++) {
            Node n = old.get(i), m = node(n);
            if (nodes == null && m != n) {
                nodes = new ArrayList<>(old.size());
                for (int j = 0; j < i; j++) nodes.add(old.get(j));
            }
            if (nodes != null) nodes.add(m);
        }
        List<Type> in = row(b.in()), out = row(b.out());
        if (nodes == null && in == b.in() && out == b.out()) return b;
        return new CheckedBlock(nodes == null ? old : nodes, in, out);
    }

    /** A signature mapped part by part (its inputs and outputs are rows, each type mapped on its own). */
    final Type.Fn fn(Type.Fn f) {
        List<Type> ins = row(f.ins());
        List<Type> outs = row(f.outs());
        java.util.Optional<Type.Yields> yields = f.yields();
        if (yields.isPresent()) {
            Type.Yields y = yields.get();
            Type yielded = memoType(y.yielded()), resumed = memoType(y.resumed());
            if (yielded != y.yielded() || resumed != y.resumed()) yields = java.util.Optional.of(new Type.Yields(yielded, resumed));
        }
        // row and memoType answer what they were given when nothing in it changes, so identity says it all.
        return ins == f.ins() && outs == f.outs() && yields == f.yields() ? f : new Type.Fn(ins, outs, f.effects(), yields);
    }

    /** Rows shared between nodes are mapped once (see {@link Row.Mapping}); so is each type object. */
    private final IdentityHashMap<Type, Type> typeMemo = new IdentityHashMap<>(8);
    private final Row.Mapping rows = new Row.Mapping(new MemoTypes(this));

    /** {@link #memoType}, as the row mapping's function. A class, not a method reference: see {@link #nodes}. */
    private record MemoTypes(CheckedRewriter rewriter) implements java.util.function.UnaryOperator<Type> {
        @Override
        public Type apply(Type t) { return rewriter.memoType(t); }
    }

    private Type memoType(Type t) {
        // A primitive or a path maps to itself under every rewrite (no variable, nothing to fill in): most types.
        if (t.kind() == Type.Kind.PRIM || t.kind() == Type.Kind.PATH) return t;
        Type done = typeMemo.get(t);
        if (done == null) {
            done = type(t);
            typeMemo.put(t, done);
        }
        return done;
    }

    final List<Type> row(List<Type> row) {
        if (row instanceof Row r) return rows.apply(r);
        List<Type> out = null;
        for (int i = 0; i < row.size(); i++) {
            Type t = row.get(i), m = memoType(t);
            if (out == null && m != t) {
                out = new ArrayList<>(row.size());
                for (int j = 0; j < i; j++) out.add(row.get(j));
            }
            if (out != null) out.add(m);
        }
        return out == null ? row : out;
    }

    Node node(Node n) {
        List<Type> b = row(n.before());
        List<Type> a = row(n.after());
        boolean rows = b == n.before() && a == n.after();
        return switch (n.kind()) {
            case PUSH -> {
                var x = (Checked.PushNode) n;
                Type t = type(x.type());
                yield rows && t == x.type() ? n : new Checked.PushNode(x.instr(), t, b, a);
            }
            case CALL -> call((Checked.CallNode) n);
            case IF -> { var x = (Checked.IfNode) n; yield new Checked.IfNode(x.instr(), block(x.then()), block(x.otherwise()), b, a); }
            case IF_SOME -> {
                var x = (Checked.IfSomeNode) n;
                yield new Checked.IfSomeNode(x.instr(), type(x.payload()), block(x.some()), block(x.none()), b, a);
            }
            case IF_OK -> {
                var x = (Checked.IfOkNode) n;
                yield new Checked.IfOkNode(x.instr(), type(x.okType()), type(x.errType()), block(x.ok()), block(x.err()), b, a);
            }
            case LOOP -> { var x = (Checked.LoopNode) n; yield new Checked.LoopNode(x.instr(), block(x.test()), block(x.body()), b, a); }
            case UNTIL -> { var x = (Checked.UntilNode) n; yield new Checked.UntilNode(x.instr(), block(x.body()), b, a); }
            case CASE -> {
                var x = (Checked.CaseNode) n;
                List<Checked.CheckedArm> arms = new ArrayList<>();
                for (Checked.CheckedArm arm : x.arms()) arms.add(new Checked.CheckedArm(arm.value(), block(arm.body())));
                yield new Checked.CaseNode(x.instr(), arms, x.otherwise().map(this::block), b, a);
            }
            case LIST -> {
                var x = (Checked.ListNode) n;
                yield new Checked.ListNode(x.instr(), block(x.elements()), type(x.element()), x.count(), b, a);
            }
            case MAP -> {
                var x = (Checked.MapNode) n;
                yield new Checked.MapNode(x.instr(), block(x.entries()), type(x.key()), type(x.value()), x.count(), b, a);
            }
            case RECORD -> {
                var x = (Checked.RecordNode) n;
                List<CheckedBlock> values = new ArrayList<>();
                for (CheckedBlock v : x.values()) values.add(block(v));
                yield new Checked.RecordNode(x.instr(), values, (Type.RecordT) type(x.type()), b, a);
            }
            case QUOTE -> { var x = (Checked.QuoteNode) n; yield new Checked.QuoteNode(x.instr(), x.target(), fn(x.type()), b, a); }
            case CLOSURE -> { var x = (Checked.ClosureNode) n; yield new Checked.ClosureNode(x.instr(), closureBody(x.body()), b, a); }
            case LOCAL_STORE -> {
                var x = (Checked.LocalStoreNode) n;
                Type t = type(x.type());
                yield rows && t == x.type() ? n : new Checked.LocalStoreNode(x.instr(), t, b, a);
            }
            case LOCAL_LOAD -> {
                var x = (Checked.LocalLoadNode) n;
                Type t = type(x.type());
                yield rows && t == x.type() ? n : new Checked.LocalLoadNode(x.instr(), t, b, a);
            }
            case PROPAGATE -> {
                var x = (Checked.PropagateNode) n;
                yield new Checked.PropagateNode(x.instr(), (Type.ResultT) type(x.inspected()), (Type.ResultT) type(x.functionResult()), b, a);
            }
            case CONSTANT -> {
                var x = (Checked.ConstantNode) n;
                Type t = type(x.type());
                yield rows && t == x.type() ? n : new Checked.ConstantNode(x.instr(), t, b, a);
            }
        };
    }

    /*
     * The walks answer lists that their callers loop over, rather than taking a callback: verifying a first definition
     * in a fresh JVM would otherwise link a lambda at each caller, about 0.7 ms each.
     */

    /** Every node of {@code b} in order (each before its nested blocks' nodes), closure bodies excluded. */
    static List<Node> nodes(CheckedBlock b) {
        List<Node> out = new ArrayList<>();
        collect(b, out);
        return out;
    }

    private static void collect(CheckedBlock b, List<Node> out) {
        for (Node n : b.nodes()) {
            out.add(n);
            for (CheckedBlock c : Checked.children(n)) collect(c, out);
        }
    }

    /** Every call node of {@code b}, nested blocks included, closure bodies excluded: the nodes that run other code. */
    static List<Checked.CallNode> calls(CheckedBlock b) {
        List<Checked.CallNode> out = new ArrayList<>();
        for (Node n : nodes(b)) {
            boolean handled = switch (n.kind()) {
                case CALL -> { out.add((Checked.CallNode) n); yield true; }
                case PUSH, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, CLOSURE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> true;
            };
        }
        return out;
    }

    /** Applies {@code subst} and defaults metas that never reached a signature to {@code unit}. */
    static CheckedRewriter zonk(Substitution subst) {
        return new CheckedRewriter() {
            @Override Type type(Type t) {
                if (t.kind() == Type.Kind.PRIM || t.kind() == Type.Kind.PATH) return t;
                return Types.defaultMetas(subst.resolve(t));
            }
        };
    }
}
