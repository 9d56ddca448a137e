package dev.finch.norman.test;

import dev.finch.norman.harness.ScriptedModels;
import dev.finch.ir.type.Type;
import dev.finch.norman.Ast;
import dev.finch.vm.TypedValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Show;
import dev.finch.vm.value.Values;
import java.util.Objects;
import java.util.Optional;

/** How test messages display values: with {@code show} (µNorman's canonical text), else the VM's rendering. */
final class Display {
    private Display() { }

    /** A value; a function or handle, which show refuses, falls back to the VM's display. */
    static String value(Type t, Object v) {
        try {
            return Show.show(t, v);
        } catch (RuntimeException refused) {
            return Values.display(t, v);
        }
    }

    /** The payload of a test expression's {@code result<T,Failure>}: the value, or "failure …". */
    static String outcome(TypedValue tv) {
        ResultValue r = (ResultValue) tv.value();
        Type.ResultT t = (Type.ResultT) tv.type();
        return r.isOk() ? value(t.ok(), r.value()) : "failure " + value(t.err(), r.value());
    }

    /**
     * Like {@link #outcome(TypedValue)}, and an {@code (Invalid raw)} answered in {@code world} also says why the
     * answer did not validate (its JSON path, what was expected and what was found), an {@code OverBudget} what the
     * ask reserved, from what, and what was left.
     */
    static String outcome(TypedValue tv, ScriptedModels world) {
        String shown = outcome(tv);
        ResultValue r = (ResultValue) tv.value();
        if (world != null && !r.isOk() && r.value() instanceof dev.finch.vm.value.VariantValue o && o.tag().equals("OverBudget")) {
            // What the ask reserved, computed from what, and what was left: the reservation a type costs is visible.
            return world.whyOverBudget().map(why -> shown + " (OverBudget: " + why + ")").orElse(shown);
        }
        if (world == null || r.isOk() || !(r.value() instanceof dev.finch.vm.value.VariantValue v) || !v.tag().equals("Invalid")
                || !(v.payload() instanceof dev.finch.vm.value.RecordValue raw) || !(raw.get(0) instanceof String text)) {
            return shown;
        }
        return world.whyInvalid(text).map(why -> shown + " (Invalid: " + why + ")").orElse(shown);
    }

    /** The failure held by an err. */
    static String failure(TypedValue tv) {
        ResultValue r = (ResultValue) tv.value();
        return value(((Type.ResultT) tv.type()).err(), r.value());
    }

    /**
     * Structural equality of two payloads of the same static type: equal canonical text when show can write them
     * (so 0 and -0 agree, as they do under {@code =}), else equality of the values themselves.
     */
    static boolean same(Type t1, Object v1, Type t2, Object v2) {
        Optional<String> a = shown(t1, v1);
        Optional<String> b = shown(t2, v2);
        if (a.isPresent() && b.isPresent()) return a.get().equals(b.get());
        return Objects.equals(v1, v2);
    }

    private static Optional<String> shown(Type t, Object v) {
        try {
            return Optional.of(Show.show(t, v));
        } catch (RuntimeException refused) {
            return Optional.empty();
        }
    }

    /** A failure pattern as written. */
    static String pattern(Ast.Pattern p) {
        switch (p.kind()) {
            case WILD: return "_";
            case NIL: return "'()";
            case CONS: {
                Ast.PCons c = (Ast.PCons) p;
                return "(cons " + c.head().orElse("_") + " " + c.tail().orElse("_") + ")";
            }
            case CON:
            default: {
                Ast.PCon c = (Ast.PCon) p;
                if (c.vars().isEmpty()) return c.constructor();
                StringBuilder b = new StringBuilder("(").append(c.constructor());
                for (Optional<String> v : c.vars()) b.append(' ').append(v.orElse("_"));
                return b.append(')').toString();
            }
        }
    }
}
