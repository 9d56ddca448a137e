package dev.finch.verifier;

import dev.finch.ir.diag.Suggestions;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Locals: the first store (in program order) declares a local and fixes its type; a load needs the local to be
 * assigned on every path to it (definite assignment, as WebAssembly does for non-defaultable locals), so the VM
 * never reads an unset slot. A closure reads enclosing locals as captures and may not store to them.
 */
final class LocalRules {
    private LocalRules() { }

    static Checked.Node store(BodyChecker c, Instr.LocalStore s, StackState st) {
        Scope scope = c.scope;
        List<Type> before = st.row();
        c.require(st, 1, s.origin(), "storing local `" + s.name() + "`", null);
        if (!scope.locals.containsKey(s.name()) && scope.isEnclosingLocal(s.name())) {
            throw Fail.at(VerifyCode.CAPTURED_LOCAL_STORE, s.origin(), "a closure cannot store to `" + s.name()
                    + "`: it is a local of the enclosing code, captured by value and read-only inside the closure; use a new local name");
        }
        Type t = st.top(1).get(0);
        Type existing = scope.locals.get(s.name());
        if (existing == null) {
            scope.locals.put(s.name(), t);
        } else if (!Unifier.unify(c.subst, existing, t)) {
            throw Fail.at(VerifyCode.TYPE_MISMATCH, s.origin(), "local `" + s.name() + "` holds " + Types.show(c.subst, existing)
                    + " (fixed by its first store) and cannot store " + Types.show(c.subst, t),
                    Types.show(c.subst, existing), Types.show(c.subst, t));
        }
        st.pop();
        st.assign(s.name());
        return new Checked.LocalStoreNode(s, existing == null ? t : existing, before, st.row());
    }

    static Checked.Node load(BodyChecker c, Instr.LocalLoad l, StackState st) {
        Scope scope = c.scope;
        List<Type> before = st.row();
        Type t;
        if (scope.locals.containsKey(l.name())) {
            if (!st.isAssigned(l.name())) {
                throw Fail.at(VerifyCode.LOCAL_UNASSIGNED, l.origin(), "local `" + l.name() + "` is read here before it is assigned on every path to this point");
            }
            t = scope.locals.get(l.name());
        } else {
            Optional<Type> captured = scope.kind == Scope.Kind.CLOSURE ? scope.capture(l.name()) : Optional.empty();
            if (captured.isEmpty()) {
                String why = scope.kind == Scope.Kind.CLOSURE && scope.isEnclosingLocal(l.name())
                        ? "local `" + l.name() + "` is not assigned on every path to where this closure is made"
                        : "local `" + l.name() + "` is read before any store to it" + Suggestions.didYouMean(l.name(), visibleLocals(scope));
                throw Fail.at(VerifyCode.LOCAL_UNASSIGNED, l.origin(), why);
            }
            t = captured.get();
        }
        st.push(t);
        return new Checked.LocalLoadNode(l, t, before, st.row());
    }

    private static List<String> visibleLocals(Scope scope) {
        List<String> names = new ArrayList<>();
        for (Scope s = scope; s != null; s = s.parent) names.addAll(s.locals.keySet());
        return names;
    }
}
