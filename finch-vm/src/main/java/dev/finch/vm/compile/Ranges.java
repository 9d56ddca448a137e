package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Literal;
import dev.finch.vm.word.Impl;
import dev.finch.vm.word.Library;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Integer additions and subtractions of a constant that a branch proves cannot overflow: inside
 * {@code dup 2 < if … else … then} the value compared is at least 2 in the else branch, so {@code 1 -} and
 * {@code 2 -} of it need no overflow check (fib's two subtractions). A symbolic run of a word's body gives each
 * stack value an identity (values are immutable, so a fact about one holds wherever it is moved by shuffles); an
 * {@code if} whose flag is a comparison of such a value with an int literal bounds it in each branch; {@code x c +}
 * and {@code x c -} with a literal {@code c} are plain when the bound keeps the result in range. A named local holds
 * the identity last stored into it, so {@code :> n n 2 < if n else n 1 - …} (Lisp's fib) is proved as the stack
 * form is; after a branch a local keeps its identity only when both branches leave it the same. Anything the walk
 * does not follow (loops, other branches) gets fresh identities without facts, and forgets every local (it may
 * store them), so it only ever proves less.
 */
final class Ranges {
    private Ranges() { }

    /** The additions and subtractions in {@code body} that cannot overflow. */
    static void find(CheckedBlock body, Library library, Set<Node> plain) {
        new Walk(library, plain).block(body, fresh(body.in().size()), new HashMap<>(), new HashMap<>());
    }

    /** A stack value's identity. */
    private static class Sym { }

    /** An int literal. */
    private static final class Const extends Sym {
        final long value;

        Const(long value) { this.value = value; }
    }

    /** A comparison {@code a < b} of ints. */
    private static final class Less extends Sym {
        final Sym a;
        final Sym b;

        Less(Sym a, Sym b) {
            this.a = a;
            this.b = b;
        }
    }

    /** Known bounds of a value, inclusive. */
    private record Bounds(long lo, long hi) {
        static final Bounds ANY = new Bounds(Long.MIN_VALUE, Long.MAX_VALUE);

        Bounds and(Bounds o) { return new Bounds(Math.max(lo, o.lo), Math.min(hi, o.hi)); }
    }

    private static List<Sym> fresh(int size) {
        List<Sym> row = new ArrayList<>();
        for (int i = 0; i < size; i++) row.add(new Sym());
        return row;
    }

    private static final class Walk {
        private final Library library;
        private final Set<Node> plain;

        Walk(Library library, Set<Node> plain) {
            this.library = library;
            this.plain = plain;
        }

        /**
         * Walks {@code b} from {@code row} under {@code facts}, with {@code locals} the identity each named local holds;
         * leaves {@code row} as b's out row and {@code locals} as b leaves them.
         */
        void block(CheckedBlock b, List<Sym> row, Map<Sym, Bounds> facts, Map<String, Sym> locals) {
            for (Node n : b.nodes()) node(n, row, facts, locals);
        }

        private void node(Node n, List<Sym> row, Map<Sym, Bounds> facts, Map<String, Sym> locals) {
            if (row.size() != n.before().size()) replace(row, fresh(n.before().size()));
            switch (n.kind()) {
                case PUSH -> {
                    Literal lit = ((Checked.PushNode) n).instr().literal();
                    row.add(lit instanceof Literal.IntLit i ? new Const(i.value()) : new Sym());
                }
                case CALL -> call((CallNode) n, row, facts);
                case LOCAL_STORE -> locals.put(((Checked.LocalStoreNode) n).instr().name(), row.remove(row.size() - 1));
                case LOCAL_LOAD -> {
                    String name = ((Checked.LocalLoadNode) n).instr().name();
                    Sym held = locals.get(name);
                    if (held == null) locals.put(name, held = new Sym());
                    row.add(held);
                }
                case IF -> {
                    Checked.IfNode x = (Checked.IfNode) n;
                    Sym flag = row.remove(row.size() - 1);
                    Map<Sym, Bounds> yes = new HashMap<>(facts);
                    Map<Sym, Bounds> no = new HashMap<>(facts);
                    if (flag instanceof Less less) {
                        if (less.b instanceof Const k && !(less.a instanceof Const)) {
                            // a < k, else a >= k
                            if (k.value > Long.MIN_VALUE) narrow(yes, less.a, new Bounds(Long.MIN_VALUE, k.value - 1));
                            narrow(no, less.a, new Bounds(k.value, Long.MAX_VALUE));
                        } else if (less.a instanceof Const k && !(less.b instanceof Const)) {
                            // k < b, else b <= k
                            if (k.value < Long.MAX_VALUE) narrow(yes, less.b, new Bounds(k.value + 1, Long.MAX_VALUE));
                            narrow(no, less.b, new Bounds(Long.MIN_VALUE, k.value));
                        }
                    }
                    List<Sym> then = new ArrayList<>(row);
                    List<Sym> otherwise = new ArrayList<>(row);
                    Map<String, Sym> thenLocals = new HashMap<>(locals);
                    Map<String, Sym> otherwiseLocals = new HashMap<>(locals);
                    block(x.then(), then, yes, thenLocals);
                    block(x.otherwise(), otherwise, no, otherwiseLocals);
                    replace(row, merge(then, otherwise));
                    locals.clear();
                    for (Map.Entry<String, Sym> e : thenLocals.entrySet()) {
                        if (otherwiseLocals.get(e.getKey()) == e.getValue()) locals.put(e.getKey(), e.getValue());
                    }
                }
                default -> {
                    // Not followed: the children start from values without facts, and so does what follows.
                    for (CheckedBlock inner : Checked.children(n)) block(inner, fresh(inner.in().size()), new HashMap<>(), new HashMap<>());
                    replace(row, fresh(n.after().size()));
                    locals.clear();
                }
            }
        }

        private static void narrow(Map<Sym, Bounds> facts, Sym s, Bounds b) {
            facts.put(s, facts.getOrDefault(s, Bounds.ANY).and(b));
        }

        private static List<Sym> merge(List<Sym> a, List<Sym> b) {
            List<Sym> out = new ArrayList<>();
            for (int i = 0; i < a.size(); i++) out.add(i < b.size() && a.get(i) == b.get(i) ? a.get(i) : new Sym());
            return out;
        }

        private static void replace(List<Sym> row, List<Sym> with) {
            row.clear();
            row.addAll(with);
        }

        private void call(CallNode c, List<Sym> row, Map<Sym, Bounds> facts) {
            int k = c.instantiated().ins().size();
            int base = row.size() - k;
            List<Sym> args = new ArrayList<>(row.subList(base, row.size()));
            row.subList(base, row.size()).clear();
            if (c.target() instanceof Checked.Target.Builtin b) {
                Impl impl = library.impl(b.overload());
                switch (impl.intrinsic()) {
                    case SHUFFLE -> {
                        for (int src : impl.overload().permutation().orElseThrow()) row.add(args.get(src));
                        if (row.size() != c.after().size()) replace(row, fresh(c.after().size()));
                        return;
                    }
                    case INT_LESS -> { row.add(new Less(args.get(0), args.get(1))); return; }
                    case INT_GREATER -> { row.add(new Less(args.get(1), args.get(0))); return; }
                    default -> { }
                }
                String id = impl.overload().id();
                boolean add = id.equals(Strip.ADD_INT);
                if ((add || id.equals(SUB_INT)) && args.get(1) instanceof Const cst && !(args.get(0) instanceof Const)) {
                    Bounds x = facts.getOrDefault(args.get(0), Bounds.ANY);
                    long d = cst.value;
                    boolean safe = add
                            ? (d >= 0 ? x.hi() <= Long.MAX_VALUE - d : x.lo() >= Long.MIN_VALUE - d)
                            : (d >= 0 ? x.lo() >= Long.MIN_VALUE + d : x.hi() <= Long.MAX_VALUE + d);
                    if (safe) plain.add(c);
                }
            }
            while (row.size() < c.after().size()) row.add(new Sym());
        }
    }

    /** The overload id of int subtraction. */
    static final String SUB_INT = "sub-int";
}
