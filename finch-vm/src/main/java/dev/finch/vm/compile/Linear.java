package dev.finch.vm.compile;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.checked.Checked.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Verified IR flattened to a linear op array with jump targets, for the interpreter tier. A position in a flat
 * array is one int, so an interpreted frame suspends and resumes as simply as a compiled one.
 */
final class Linear {
    enum Code { PUSH, CALL, JUMP, JUMP_IF_FALSE, IF_SOME_ELSE, IF_OK_ELSE, FUEL, CASE_ARM, POP, MAKE_LIST, MAKE_MAP, MAKE_RECORD, QUOTE, CLOSURE, STORE, LOAD, PROPAGATE, DEFINE_CONST }

    /** One op: its code, an int operand (jump target, count), and the node it came from. */
    static final class Op {
        final Code code;
        int target;
        final long value;
        final Node node;
        final Object extra;

        Op(Code code, int target, long value, Node node, Object extra) {
            this.code = code;
            this.target = target;
            this.value = value;
            this.node = node;
            this.extra = extra;
        }
    }

    private final List<Op> ops = new ArrayList<>();

    static Op[] flatten(CheckedBlock body) {
        Linear l = new Linear();
        l.block(body);
        return l.ops.toArray(new Op[0]);
    }

    private Op add(Code c, Node n) { return add(c, 0, n, null); }

    private Op add(Code c, long value, Node n, Object extra) {
        Op op = new Op(c, -1, value, n, extra);
        ops.add(op);
        return op;
    }

    private int here() { return ops.size(); }

    private void block(CheckedBlock b) { for (Node n : b.nodes()) node(n); }

    private void node(Node n) {
        if (n instanceof Checked.IfNode x) {
            Op toElse = add(Code.JUMP_IF_FALSE, n);
            block(x.then());
            Op toEnd = add(Code.JUMP, n);
            toElse.target = here();
            block(x.otherwise());
            toEnd.target = here();
        } else if (n instanceof Checked.IfSomeNode x) {
            Op toNone = add(Code.IF_SOME_ELSE, n);
            block(x.some());
            Op toEnd = add(Code.JUMP, n);
            toNone.target = here();
            block(x.none());
            toEnd.target = here();
        } else if (n instanceof Checked.IfOkNode x) {
            Op toErr = add(Code.IF_OK_ELSE, n);
            block(x.ok());
            Op toEnd = add(Code.JUMP, n);
            toErr.target = here();
            block(x.err());
            toEnd.target = here();
        } else if (n instanceof Checked.LoopNode x) {
            int head = here();
            add(Code.FUEL, n);
            block(x.test());
            Op exit = add(Code.JUMP_IF_FALSE, n);
            block(x.body());
            add(Code.JUMP, n).target = head;
            exit.target = here();
        } else if (n instanceof Checked.UntilNode x) {
            int head = here();
            add(Code.FUEL, n);
            block(x.body());
            add(Code.JUMP_IF_FALSE, n).target = head;
        } else if (n instanceof Checked.CaseNode x) {
            List<Op> ends = new ArrayList<>();
            for (Checked.CheckedArm arm : x.arms()) {
                Op next = add(Code.CASE_ARM, arm.value(), n, null);
                block(arm.body());
                ends.add(add(Code.JUMP, n));
                next.target = here();
            }
            add(Code.POP, n);
            x.otherwise().ifPresent(this::block);
            for (Op e : ends) e.target = here();
        } else if (n instanceof Checked.ListNode x) {
            block(x.elements());
            add(Code.MAKE_LIST, x.count(), n, null);
        } else if (n instanceof Checked.MapNode x) {
            block(x.entries());
            add(Code.MAKE_MAP, x.count(), n, null);
        } else if (n instanceof Checked.RecordNode x) {
            x.values().forEach(this::block);
            List<String> sorted = List.copyOf(x.type().fields().keySet());
            int[] perm = new int[x.instr().fields().size()];
            for (int i = 0; i < perm.length; i++) perm[i] = sorted.indexOf(x.instr().fields().get(i).name());
            add(Code.MAKE_RECORD, perm.length, n, perm);
        } else if (n instanceof Checked.PushNode) add(Code.PUSH, n);
        else if (n instanceof Checked.CallNode) add(Code.CALL, n);
        else if (n instanceof Checked.QuoteNode) add(Code.QUOTE, n);
        else if (n instanceof Checked.ClosureNode) add(Code.CLOSURE, n);
        else if (n instanceof Checked.LocalStoreNode) add(Code.STORE, n);
        else if (n instanceof Checked.LocalLoadNode) add(Code.LOAD, n);
        else if (n instanceof Checked.PropagateNode) add(Code.PROPAGATE, n);
        else if (n instanceof Checked.ConstantNode) add(Code.DEFINE_CONST, n);
        else throw new IllegalStateException("no linear form for " + n.getClass().getSimpleName());
    }
}
