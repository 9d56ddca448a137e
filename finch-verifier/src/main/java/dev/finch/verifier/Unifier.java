package dev.finch.verifier;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Row;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * First-order unification over {@link Type} with an occurs check. {@link #unify} never leaves a partial binding
 * behind on failure, so a caller can try alternatives (overloads) freely.
 *
 * <p>Function types unify by inputs, outputs and yields; their capability sets must be equal except for
 * {@code session.emit}, which never has to be declared (decisions D9) and so cannot distinguish two callables.
 */
final class Unifier {
    private Unifier() { }

    /** Unifies {@code a} and {@code b}, committing bindings only when it succeeds. */
    static boolean unify(Substitution s, Type a, Type b) {
        s.assumed.clear();
        int mark = s.mark();
        if (go(s, a, b)) return true;
        s.rollback(mark);
        return false;
    }

    /**
     * Unifies two rows of equal length pairwise (all or nothing). Positions where two {@link Row}s hold the same
     * type object are skipped: a merge of two branches of one state costs what the branches changed.
     */
    static boolean unifyRows(Substitution s, List<Type> a, List<Type> b) {
        if (a.size() != b.size()) return false;
        s.assumed.clear();
        int mark = s.mark();
        int from = a instanceof Row x && b instanceof Row y ? Row.sharedPrefix(x, y) : 0;
        for (int i = from; i < a.size(); i++) {
            if (!go(s, a.get(i), b.get(i))) { s.rollback(mark); return false; }
        }
        return true;
    }

    /** One unification step, charged as one unit of work: shared bindings can make a type exponentially larger than its spelling. */
    private static boolean go(Substitution s, Type a, Type b) {
        s.charge(1);
        a = s.shallow(a);
        b = s.shallow(b);
        if (a == b || a.equals(b)) return true;
        if (Substitution.isMeta(a)) return bindVar(s, (Type.Var) a, b);
        if (Substitution.isMeta(b)) return bindVar(s, (Type.Var) b, a);
        // A recursive type equals its unfolding. Two of one name whose definitions unify are equal (their references
        // are the same name); otherwise the pair is compared coinductively: assumed equal while their unfoldings are
        // compared, so types that refer to each other (whose unfoldings repeat) compare in finitely many steps.
        if (a instanceof Type.Named x && x.isRecursive() || b instanceof Type.Named y && y.isRecursive()) {
            java.util.Set<List<Type>> saved = new java.util.HashSet<>(s.assumed);
            if (a instanceof Type.Named x && x.isRecursive() && b instanceof Type.Named y && y.isRecursive() && x.name().equals(y.name())) {
                int mark = s.mark();
                if (go(s, x.definition().get(), y.definition().get())) return true;
                s.rollback(mark);
                s.assumed.retainAll(saved);
            }
            List<Type> pair = List.of(a, b);
            if (s.assumed.contains(pair)) return true;
            s.assumed.add(pair);
            Type ua = a instanceof Type.Named x && x.isRecursive() ? x.unfold() : a;
            Type ub = b instanceof Type.Named y && y.isRecursive() ? y.unfold() : b;
            if (go(s, ua, ub)) return true;
            s.assumed.retainAll(saved); // what was assumed on the way down is not known to hold
            return false;
        }
        if (a.kind() != b.kind()) return false;
        return switch (a.kind()) {
            case PRIM, PATH, NAMED, VAR -> false; // equal ones were accepted above; rigid variables only equal themselves
            case OPTION -> go(s, ((Type.OptionT) a).value(), ((Type.OptionT) b).value());
            case LIST -> go(s, ((Type.ListT) a).element(), ((Type.ListT) b).element());
            case TASK -> go(s, ((Type.TaskT) a).value(), ((Type.TaskT) b).value());
            case STREAM -> go(s, ((Type.StreamT) a).element(), ((Type.StreamT) b).element());
            case RESOURCE -> go(s, ((Type.ResourceT) a).of(), ((Type.ResourceT) b).of());
            case RESULT -> {
                Type.ResultT x = (Type.ResultT) a, y = (Type.ResultT) b;
                yield go(s, x.ok(), y.ok()) && go(s, x.err(), y.err());
            }
            case MAP -> {
                Type.MapT x = (Type.MapT) a, y = (Type.MapT) b;
                yield go(s, x.key(), y.key()) && go(s, x.value(), y.value());
            }
            case FIBER -> {
                Type.FiberT x = (Type.FiberT) a, y = (Type.FiberT) b;
                yield go(s, x.yielded(), y.yielded()) && go(s, x.result(), y.result());
            }
            case RECORD -> records(s, ((Type.RecordT) a).fields(), ((Type.RecordT) b).fields());
            case VARIANT -> variants(s, (Type.VariantT) a, (Type.VariantT) b);
            case FN -> functions(s, (Type.Fn) a, (Type.Fn) b);
        };
    }

    private static boolean records(Substitution s, Map<String, Type> x, Map<String, Type> y) {
        if (!x.keySet().equals(y.keySet())) return false;
        for (var e : x.entrySet()) if (!go(s, e.getValue(), y.get(e.getKey()))) return false;
        return true;
    }

    private static boolean variants(Substitution s, Type.VariantT a, Type.VariantT b) {
        var x = List.copyOf(a.tags().entrySet());
        var y = List.copyOf(b.tags().entrySet());
        if (x.size() != y.size()) return false;
        for (int i = 0; i < x.size(); i++) {
            if (!x.get(i).getKey().equals(y.get(i).getKey())) return false;
            Optional<Type> p = x.get(i).getValue(), q = y.get(i).getValue();
            if (p.isPresent() != q.isPresent()) return false;
            if (p.isPresent() && !go(s, p.get(), q.get())) return false;
        }
        return true;
    }

    private static boolean functions(Substitution s, Type.Fn x, Type.Fn y) {
        if (x.ins().size() != y.ins().size() || x.outs().size() != y.outs().size()) return false;
        for (int i = 0; i < x.ins().size(); i++) if (!go(s, x.ins().get(i), y.ins().get(i))) return false;
        for (int i = 0; i < x.outs().size(); i++) if (!go(s, x.outs().get(i), y.outs().get(i))) return false;
        if (!withoutEmit(x).equals(withoutEmit(y))) return false;
        if (x.yields().isPresent() != y.yields().isPresent()) return false;
        if (x.yields().isPresent()) {
            return go(s, x.yields().get().yielded(), y.yields().get().yielded())
                    && go(s, x.yields().get().resumed(), y.yields().get().resumed());
        }
        return true;
    }

    private static TreeSet<Capability> withoutEmit(Type.Fn f) {
        TreeSet<Capability> caps = new TreeSet<>(f.effects());
        caps.remove(Capability.SESSION_EMIT);
        return caps;
    }

    private static boolean bindVar(Substitution s, Type.Var meta, Type t) {
        if (occurs(s, meta.name(), t)) return false;
        s.bind(meta, t);
        return true;
    }

    /** The occurs check, within the type limits (see {@link Substitution#occurs}). */
    private static boolean occurs(Substitution s, String name, Type t) { return s.occurs(name, t); }
}
