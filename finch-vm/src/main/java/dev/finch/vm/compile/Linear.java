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
        boolean handled = switch (n.kind()) {
            case IF -> {
                Checked.IfNode x = (Checked.IfNode) n;
                Op toElse = add(Code.JUMP_IF_FALSE, n);
                block(x.then());
                Op toEnd = add(Code.JUMP, n);
                toElse.target = here();
                block(x.otherwise());
                toEnd.target = here();
                yield true;
            }
            case IF_SOME -> {
                Checked.IfSomeNode x = (Checked.IfSomeNode) n;
                Op toNone = add(Code.IF_SOME_ELSE, n);
                block(x.some());
                Op toEnd = add(Code.JUMP, n);
                toNone.target = here();
                block(x.none());
                toEnd.target = here();
                yield true;
            }
            case IF_OK -> {
                Checked.IfOkNode x = (Checked.IfOkNode) n;
                Op toErr = add(Code.IF_OK_ELSE, n);
                block(x.ok());
                Op toEnd = add(Code.JUMP, n);
                toErr.target = here();
                block(x.err());
                toEnd.target = here();
                yield true;
            }
            case LOOP -> {
                Checked.LoopNode x = (Checked.LoopNode) n;
                int head = here();
                add(Code.FUEL, n);
                block(x.test());
                Op exit = add(Code.JUMP_IF_FALSE, n);
                block(x.body());
                add(Code.JUMP, n).target = head;
                exit.target = here();
                yield true;
            }
            case UNTIL -> {
                int head = here();
                add(Code.FUEL, n);
                block(((Checked.UntilNode) n).body());
                add(Code.JUMP_IF_FALSE, n).target = head;
                yield true;
            }
            case CASE -> {
                Checked.CaseNode x = (Checked.CaseNode) n;
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
                yield true;
            }
            case LIST -> {
                Checked.ListNode x = (Checked.ListNode) n;
                block(x.elements());
                add(Code.MAKE_LIST, x.count(), n, null);
                yield true;
            }
            case MAP -> {
                Checked.MapNode x = (Checked.MapNode) n;
                block(x.entries());
                add(Code.MAKE_MAP, x.count(), n, null);
                yield true;
            }
            case RECORD -> {
                Checked.RecordNode x = (Checked.RecordNode) n;
                x.values().forEach(this::block);
                List<String> sorted = List.copyOf(x.type().fields().keySet());
                int[] perm = new int[x.instr().fields().size()];
                for (int i = 0; i < perm.length; i++) perm[i] = sorted.indexOf(x.instr().fields().get(i).name());
                add(Code.MAKE_RECORD, perm.length, n, perm);
                yield true;
            }
            case PUSH -> { add(Code.PUSH, n); yield true; }
            case CALL -> { add(Code.CALL, n); yield true; }
            case QUOTE -> { add(Code.QUOTE, n); yield true; }
            case CLOSURE -> { add(Code.CLOSURE, n); yield true; }
            case LOCAL_STORE -> { add(Code.STORE, n); yield true; }
            case LOCAL_LOAD -> { add(Code.LOAD, n); yield true; }
            case PROPAGATE -> { add(Code.PROPAGATE, n); yield true; }
            case CONSTANT -> { add(Code.DEFINE_CONST, n); yield true; }
        };
    }
}
