package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Structured control flow: every edge of a branch starts from the row at the branch (plus its payload) and all
 * edges must leave one row, which is unified (so {@code none} in one arm takes its type from the other); a loop's
 * parts must restore the row at the loop head. Locals assigned after a merge are those assigned on every edge.
 */
final class ControlRules {
    private final BodyChecker body;

    ControlRules(BodyChecker body) { this.body = body; }

    Checked.Node ifElse(Instr.If i, StackState st) {
        List<Type> before = st.row();
        body.popExpect(st, List.of(Type.Prim.BOOL), i.origin(), "if");
        StackState then = st.copy();
        StackState otherwise = st.copy();
        CheckedBlock tb = body.block(i.then(), then);
        CheckedBlock eb = body.block(i.otherwise(), otherwise);
        merge(then, otherwise, i.origin(), "the then edge of `if`", "the else edge" + (i.otherwise().isEmpty() ? " (absent, so the row is unchanged)" : ""));
        settle(st, then, otherwise);
        return new Checked.IfNode(i, tb, eb, before, st.row());
    }

    Checked.Node ifSome(Instr.IfSome i, StackState st) {
        List<Type> before = st.row();
        Type payload = body.subst.fresh(i.origin());
        body.popExpect(st, List.of(Type.option(payload)), i.origin(), "if-some");
        StackState some = st.copy();
        some.push(payload);
        StackState none = st.copy();
        CheckedBlock sb = body.block(i.some(), some);
        CheckedBlock nb = body.block(i.none(), none);
        merge(some, none, i.origin(), "the some edge of `if-some`", "the none edge");
        settle(st, some, none);
        return new Checked.IfSomeNode(i, payload, sb, nb, before, st.row());
    }

    Checked.Node ifOk(Instr.IfOk i, StackState st) {
        List<Type> before = st.row();
        Type okT = body.subst.fresh(i.origin());
        Type errT = body.subst.fresh(i.origin());
        body.popExpect(st, List.of(Type.result(okT, errT)), i.origin(), "if-ok");
        StackState ok = st.copy();
        ok.push(okT);
        StackState err = st.copy();
        err.push(errT);
        CheckedBlock ob = body.block(i.ok(), ok);
        CheckedBlock eb = body.block(i.err(), err);
        merge(ok, err, i.origin(), "the ok edge of `if-ok`", "the err edge");
        settle(st, ok, err);
        return new Checked.IfOkNode(i, okT, errT, ob, eb, before, st.row());
    }

    Checked.Node caseOf(Instr.Case c, StackState st) {
        List<Type> before = st.row();
        body.popExpect(st, List.of(Type.Prim.INT), c.origin(), "case");
        Set<Long> seen = new HashSet<>();
        List<Checked.CheckedArm> arms = new ArrayList<>();
        List<StackState> exits = new ArrayList<>();
        String firstName = null;
        for (Instr.Case.Arm arm : c.arms()) {
            Origin at = arm.origin() == null ? c.origin() : arm.origin();
            if (!seen.add(arm.value())) {
                throw Fail.at(VerifyCode.DUPLICATE_CASE_VALUE, at, "case value " + arm.value() + " already has an arm; this one could never run");
            }
            StackState s = st.copy();
            arms.add(new Checked.CheckedArm(arm.value(), body.block(arm.body(), s)));
            if (exits.isEmpty()) firstName = "arm " + arm.value();
            else merge(exits.get(0), s, at, "case " + firstName, "arm " + arm.value());
            exits.add(s);
        }
        StackState other = st.copy();
        Optional<CheckedBlock> ob = c.otherwise() == null ? Optional.empty() : c.otherwise().map(b -> body.block(b, other));
        if (exits.isEmpty()) {
            exits.add(other);
        } else {
            merge(exits.get(0), other, c.origin(), "case " + firstName,
                    ob.isPresent() ? "the otherwise edge" : "the implicit default (no otherwise, so the row is unchanged)");
            exits.add(other);
        }
        settle(st, exits.toArray(new StackState[0]));
        return new Checked.CaseNode(c, arms, ob, before, st.row());
    }

    Checked.Node loop(Instr.Loop l, StackState st) {
        List<Type> before = st.row();
        StackState head = st.copy();
        StackState test = st.copy();
        CheckedBlock tb = body.block(l.test(), test);
        popLoopBool(test, head, l.origin(), "the loop test (begin … while)");
        StackState afterTest = test.copy();
        StackState b = test.copy();
        CheckedBlock bb = body.block(l.body(), b);
        restores(head, b, l.origin(), "the loop body (while … repeat)", false);
        st.become(afterTest);
        return new Checked.LoopNode(l, tb, bb, before, st.row());
    }

    Checked.Node until(Instr.Until u, StackState st) {
        List<Type> before = st.row();
        StackState head = st.copy();
        StackState b = st.copy();
        CheckedBlock bb = body.block(u.body(), b);
        popLoopBool(b, head, u.origin(), "the loop body (begin … until)");
        st.become(b);
        return new Checked.UntilNode(u, bb, before, st.row());
    }

    /** The part must leave the head row plus a bool on top; pops the bool. */
    private void popLoopBool(StackState part, StackState head, Origin at, String what) {
        Substitution s = body.subst;
        if (part.size() == 0 || part.ensure(1, at) != StackState.Shortage.NONE || !Unifier.unify(s, part.top(1).get(0), Type.Prim.BOOL)) {
            List<Type> exp = new ArrayList<>(head.row());
            exp.add(Type.Prim.BOOL);
            throw Fail.at(VerifyCode.LOOP_ROW, at, what + " must leave a bool on top of the loop-head row " + Types.row(s, head.row())
                    + " but leaves " + Types.row(s, part.row()), Types.row(s, exp), Types.row(s, part.row()));
        }
        part.pop();
        restores(head, part, at, what, true);
    }

    private void restores(StackState head, StackState part, Origin at, String what, boolean withBool) {
        if (!rowsUnify(head, part, at)) {
            Substitution s = body.subst;
            List<Type> exp = new ArrayList<>(head.row());
            List<Type> found = new ArrayList<>(part.row());
            if (withBool) { exp.add(Type.Prim.BOOL); found.add(Type.Prim.BOOL); }
            throw Fail.at(VerifyCode.LOOP_ROW, at, what + " must restore the loop-head row " + Types.row(s, head.row())
                    + (withBool ? " (plus a bool)" : "") + " but leaves " + Types.row(s, part.row()), Types.row(s, exp), Types.row(s, found));
        }
    }

    /** Unifies the rows of two states of one body (after expressing both with the same inputs consumed). */
    private boolean rowsUnify(StackState a, StackState b, Origin at) {
        int d = Math.max(a.consumed(), b.consumed());
        a.liftTo(d, at);
        b.liftTo(d, at);
        return Unifier.unifyRows(body.subst, a.row(), b.row());
    }

    private void merge(StackState a, StackState b, Origin at, String aName, String bName) {
        if (!rowsUnify(a, b, at)) {
            Substitution s = body.subst;
            throw Fail.at(VerifyCode.BRANCH_MISMATCH, at, aName + " leaves " + Types.row(s, a.row()) + " but " + bName + " leaves "
                    + Types.row(s, b.row()) + "; every edge must leave the same row", Types.row(s, a.row()), Types.row(s, b.row()));
        }
    }

    /** Continues after a merge: the first edge's row, with the locals assigned on every edge. */
    private static void settle(StackState st, StackState... edges) {
        st.become(edges[0]);
        for (StackState e : edges) st.keepAssigned(e.assigned());
    }
}
