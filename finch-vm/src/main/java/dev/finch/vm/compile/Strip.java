package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CallNode;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.LoopNode;
import dev.finch.ir.checked.Checked.Node;
import dev.finch.ir.instr.Literal;
import dev.finch.ir.type.Type;
import dev.finch.vm.word.Impl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Counted loops whose fuel can be paid per strip of iterations instead of per iteration. A {@code begin … while …
 * repeat} loop qualifies when its test is {@code i < bound} on a stack value {@code i} or on a named local {@code i}
 * the body stores (and changes nothing else), its body ends with {@code i + 1} in i's place — the stack position,
 * or the local (added there or by a leaf word it calls) — the bound is the same on every iteration (a literal, a named local
 * the loop never stores, or a stack value the body leaves in place), and nothing in the test or body can reach the
 * context: only stack shuffles, literals, local loads and stores, pure builtins, and calls of leaf words that can
 * neither loop nor recurse ({@link Bounded}). Every iteration then costs the same number of steps — the back-edge
 * and one per leaf call — and runs no code that charges, checks or observes the fuel, so
 * {@code min(bound - i, fuel / steps)} iterations can run with their steps paid at once, without the test, and the
 * loop stops at exactly the iteration, with exactly the fuel, the per-iteration loop would (see
 * {@link NodeEmitter}'s loop).
 *
 * <p>The same facts prove the increment cannot overflow: the body runs only when {@code i < bound ≤ Long.MAX_VALUE},
 * so every {@code i + 1} of the value the test compared compiles to a plain addition.
 */
final class Strip {
    private Strip() { }

    /**
     * A loop that can run in strips.
     *
     * @param induction where the induction variable lives: an {@link In} (its position in the loop's row) or a
     *                  {@link Var} (a named local the loop stores)
     * @param bound the exclusive upper bound: a {@link Const}, a {@link Local} or an {@link In}
     * @param steps the steps one iteration costs (its back-edge and its leaf calls)
     * @param increments the additions {@code i + 1} of the compared value (they cannot overflow)
     */
    record Plan(Sym induction, Sym bound, int steps, Set<Node> increments) { }

    /** What a stack value is known to be, in terms of the values at the loop's head. */
    sealed interface Sym { }

    /** The value at position {@code p} of the loop's head row. */
    record In(int p) implements Sym { }

    /** The value of a named local the loop never stores. */
    record Local(String name) implements Sym { }

    /** The value a named local the loop stores holds at the loop's head. */
    record Var(String name) implements Sym { }

    /** An int literal. */
    record Const(long value) implements Sym { }

    /** {@code of + 1}, {@code of} an {@link In} or a {@link Var}. */
    record Inc(Sym of) implements Sym { }

    /** {@code a < b} (ints). */
    record Less(Sym a, Sym b) implements Sym { }

    /** Any other value (each one distinct). */
    static final class Opaque implements Sym { }

    /** The plan for {@code loop} in {@code mc}'s method, or null when it is not such a loop. */
    static Plan plan(MethodCompiler mc, LoopNode loop) {
        List<Type> head = loop.test().in();
        Set<String> stored = new HashSet<>();
        if (!collectStores(loop.test(), stored) || !stored.isEmpty()) return null;
        if (!collectStores(loop.body(), stored)) return null;
        Walk test = new Walk(mc, stored);
        test.inTest = true;
        List<Sym> row = start(head.size());
        if (!test.block(loop.test(), row)) return null;
        if (row.size() != head.size() + 1 || !(row.get(row.size() - 1) instanceof Less less)) return null;
        if (!row.subList(0, head.size()).equals(start(head.size()))) return null;
        Sym iv = less.a();
        boolean counter = iv instanceof In p && Kind.of(head.get(p.p())) == Kind.J || iv instanceof Var v && mc.namedKind(v.name()) == Kind.J;
        if (!counter) return null;
        Walk body = new Walk(mc, stored);
        body.compared = iv;
        List<Sym> after = start(head.size());
        if (!body.block(loop.body(), after) || after.size() != head.size()) return null;
        Sym last = iv instanceof In p ? after.get(p.p()) : body.vars.get(((Var) iv).name());
        if (!new Inc(iv).equals(last)) return null;
        Sym bound = less.b();
        boolean invariant = bound instanceof Const
                || bound instanceof Local l && mc.namedKind(l.name()) == Kind.J
                || bound instanceof In q && !q.equals(iv) && Kind.of(head.get(q.p())) == Kind.J && after.get(q.p()).equals(q);
        if (!invariant) return null;
        Set<Node> increments = Collections.newSetFromMap(new IdentityHashMap<>());
        increments.addAll(body.increments);
        return new Plan(iv, bound, 1 + body.calls, increments);
    }

    private static List<Sym> start(int size) {
        List<Sym> row = new ArrayList<>();
        for (int i = 0; i < size; i++) row.add(new In(i));
        return row;
    }

    /** Collects the locals {@code b} stores; false when it holds a node a strip cannot contain. */
    private static boolean collectStores(CheckedBlock b, Set<String> stored) {
        for (Node n : b.nodes()) {
            switch (n.kind()) {
                case LOCAL_STORE -> stored.add(((Checked.LocalStoreNode) n).instr().name());
                case PUSH, CALL, LOCAL_LOAD -> { }
                case IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, CLOSURE, PROPAGATE, CONSTANT -> { return false; }
            }
        }
        return true;
    }

    /** A symbolic run of straight-line code over a row of {@link Sym}s. */
    private static final class Walk {
        private final MethodCompiler mc;
        /** The locals the loop stores; null inside a called word, whose locals are its own (all opaque). */
        private final Set<String> stored;
        /** Leaf calls met (one step each). */
        int calls;
        /**
         * Walking the test, which a strip skips: only what cannot fail or charge (literals, local loads, shuffles,
         * the comparison) is allowed there.
         */
        boolean inTest;
        /** The induction variable the test compared (in the body), else null. */
        Sym compared;
        /** What each local the loop stores holds so far ({@link Var} until the walk stores it). */
        final java.util.Map<String, Sym> vars = new java.util.HashMap<>();
        final List<Node> increments = new ArrayList<>();

        Walk(MethodCompiler mc, Set<String> stored) {
            this.mc = mc;
            this.stored = stored;
        }

        boolean block(CheckedBlock b, List<Sym> row) {
            for (Node n : b.nodes()) if (!node(n, row)) return false;
            return true;
        }

        private boolean node(Node n, List<Sym> row) {
            switch (n.kind()) {
                case PUSH -> {
                    Literal lit = ((Checked.PushNode) n).instr().literal();
                    row.add(lit instanceof Literal.IntLit i ? new Const(i.value()) : new Opaque());
                    return true;
                }
                case LOCAL_LOAD -> {
                    String name = ((Checked.LocalLoadNode) n).instr().name();
                    if (stored == null) row.add(new Opaque());
                    else if (stored.contains(name)) row.add(vars.getOrDefault(name, new Var(name)));
                    else row.add(new Local(name));
                    return true;
                }
                case LOCAL_STORE -> {
                    Sym value = row.remove(row.size() - 1);
                    if (stored != null) vars.put(((Checked.LocalStoreNode) n).instr().name(), value);
                    return true;
                }
                case CALL -> { return call((CallNode) n, row); }
                default -> { return false; }
            }
        }

        private boolean call(CallNode c, List<Sym> row) {
            if (c.suspends()) return false;
            Type.Fn sig = c.instantiated();
            int k = sig.ins().size();
            int base = row.size() - k;
            if (base < 0) return false;
            List<Sym> args = new ArrayList<>(row.subList(base, row.size()));
            switch (c.target().kind()) {
                case WORD -> {
                    if (inTest) return false;
                    String name = c.target().name();
                    Bounded.Fact fact = mc.moduleWord(name) != null && !mc.owner.isInterpreted(name) ? mc.owner.bounded(name) : null;
                    if (fact == null || !fact.leaf()) return false;
                    calls++;
                    // What the leaf computes, when it is straight-line code over its inputs (its own locals are opaque).
                    Walk inside = new Walk(mc, null);
                    List<Sym> out = new ArrayList<>(args);
                    if (inside.block(mc.moduleWord(name).body(), out) && out.size() == sig.outs().size()) {
                        row.subList(base, row.size()).clear();
                        row.addAll(out);
                        return true;
                    }
                    return opaque(row, base, sig.outs().size());
                }
                case BUILTIN -> {
                    Impl impl = mc.owner.library().impl(((Checked.Target.Builtin) c.target()).overload());
                    if (!Bounded.pure(impl, c)) return false;
                    switch (impl.intrinsic()) {
                        case SHUFFLE -> {
                            int[] outputs = impl.overload().permutation().orElseThrow();
                            row.subList(base, row.size()).clear();
                            for (int src : outputs) row.add(args.get(src));
                            return true;
                        }
                        case INT_LESS -> { return result(row, base, new Less(args.get(0), args.get(1))); }
                        case INT_GREATER -> { return result(row, base, new Less(args.get(1), args.get(0))); }
                        default -> { }
                    }
                    if (inTest) return false;
                    if (impl.overload().id().equals(ADD_INT)) {
                        Sym a = args.get(0);
                        Sym b = args.get(1);
                        Sym of = counter(a) && b.equals(ONE) ? a : counter(b) && a.equals(ONE) ? b : null;
                        if (of != null) {
                            if (of.equals(compared)) increments.add(c);
                            return result(row, base, new Inc(of));
                        }
                    }
                    return opaque(row, base, sig.outs().size());
                }
                case CONSTANT_REF -> { return false; }
            }
            return false;
        }

        /** Whether {@code s} is a value at the loop's head that a counter may be: a row position or a stored local. */
        private static boolean counter(Sym s) { return s instanceof In || s instanceof Var; }

        private static boolean result(List<Sym> row, int base, Sym s) {
            row.subList(base, row.size()).clear();
            row.add(s);
            return true;
        }

        private static boolean opaque(List<Sym> row, int base, int outs) {
            row.subList(base, row.size()).clear();
            for (int i = 0; i < outs; i++) row.add(new Opaque());
            return true;
        }
    }

    /** The overload id of int addition. */
    static final String ADD_INT = "add-int";

    private static final Const ONE = new Const(1);
}
