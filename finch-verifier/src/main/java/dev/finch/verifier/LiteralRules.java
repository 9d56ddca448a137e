package dev.finch.verifier;

import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedBlock;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * List, map and record literals. Their blocks run on the full stack (so checked rows stay full rows) above a
 * floor at the literal's start: they may use only what they push themselves.
 */
final class LiteralRules {
    private final BodyChecker body;

    LiteralRules(BodyChecker body) { this.body = body; }

    Checked.Node list(Instr.ListLit l, StackState st) {
        List<Type> before = st.row();
        StackState inner = st.copy();
        inner.setFloorHere();
        int base = inner.size();
        CheckedBlock elements = body.block(l.elements(), inner);
        List<Type> pushed = inner.top(inner.size() - base);
        if (pushed.isEmpty()) {
            throw Fail.at(VerifyCode.EMPTY_LIST_LITERAL, l.origin(), "an empty list literal has no element type; use empty-list<T> "
                    + "(Lisp: (empty-list T)) to say which list it is");
        }
        Type element = pushed.get(0);
        for (int k = 1; k < pushed.size(); k++) {
            if (!Unifier.unify(body.subst, element, pushed.get(k))) {
                throw Fail.at(VerifyCode.TYPE_MISMATCH, l.origin(), "a list holds one type: element 1 is " + Types.show(body.subst, element)
                        + " but element " + (k + 1) + " is " + Types.show(body.subst, pushed.get(k)),
                        Types.show(body.subst, element), Types.show(body.subst, pushed.get(k)));
            }
        }
        st.setAssigned(inner.assigned());
        st.push(Type.list(element));
        return new Checked.ListNode(l, elements, element, pushed.size(), before, st.row());
    }

    Checked.Node map(Instr.MapLit m, StackState st) {
        List<Type> before = st.row();
        StackState inner = st.copy();
        inner.setFloorHere();
        int base = inner.size();
        CheckedBlock entries = body.block(m.entries(), inner);
        List<Type> pushed = inner.top(inner.size() - base);
        if (pushed.size() % 2 != 0) {
            throw Fail.at(VerifyCode.ODD_MAP_LITERAL, m.origin(), "a map literal needs key value pairs but pushes " + BodyChecker.values(pushed.size())
                    + ": " + Types.row(body.subst, pushed));
        }
        Type key = body.subst.fresh(m.origin());
        Type value = body.subst.fresh(m.origin());
        for (int k = 0; k < pushed.size(); k += 2) {
            unifyEntry(key, pushed.get(k), m.origin(), "key", k / 2 + 1);
            unifyEntry(value, pushed.get(k + 1), m.origin(), "value", k / 2 + 1);
        }
        st.setAssigned(inner.assigned());
        st.push(Type.map(key, value));
        return new Checked.MapNode(m, entries, key, value, pushed.size() / 2, before, st.row());
    }

    private void unifyEntry(Type expected, Type found, Origin at, String part, int entry) {
        if (!Unifier.unify(body.subst, expected, found)) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, at, "a map has one " + part + " type: entry " + entry + "'s " + part + " is "
                    + Types.show(body.subst, found) + " but earlier ones are " + Types.show(body.subst, expected),
                    Types.show(body.subst, expected), Types.show(body.subst, found));
        }
    }

    Checked.Node record(Instr.RecordLit r, StackState st) {
        List<Type> before = st.row();
        Set<String> names = new HashSet<>();
        for (Instr.RecordLit.Field f : r.fields()) {
            if (!names.add(f.name())) {
                throw Fail.at(VerifyCode.DUPLICATE_FIELD, at(f, r), "field `" + f.name() + "` appears twice in this record literal");
            }
        }
        StackState work = st.copy();
        TreeMap<String, Type> fields = new TreeMap<>();
        List<CheckedBlock> values = new ArrayList<>();
        for (Instr.RecordLit.Field f : r.fields()) {
            int base = work.size();
            work.setFloorHere();
            values.add(body.block(f.value(), work));
            if (work.size() != base + 1) {
                List<Type> pushed = work.top(work.size() - base);
                throw Fail.at(VerifyCode.RECORD_FIELD_ARITY, at(f, r), "field `" + f.name() + "` must push exactly one value but pushes "
                        + BodyChecker.values(pushed.size()), "1 value", Types.row(body.subst, pushed));
            }
            fields.put(f.name(), work.top(1).get(0));
        }
        st.setAssigned(work.assigned());
        // Resolved here, within the type limits: fields that share one type object ({ l: x r: x } with x itself such
        // a record) would otherwise build a type that doubles with each level without ever being counted.
        Type.RecordT type = (Type.RecordT) body.subst.resolve(new Type.RecordT(fields));
        st.push(type);
        return new Checked.RecordNode(r, values, type, before, st.row());
    }

    private static Origin at(Instr.RecordLit.Field f, Instr.RecordLit r) { return f.origin() == null ? r.origin() : f.origin(); }
}
