package dev.finch.ir.type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Unfolding recursive types ({@link Type.Named} with a definition): replacing the references to one by a type, and
 * deciding whether two spellings denote the same type when one is folded where the other is unfolded.
 */
final class Recursion {
    private Recursion() { }

    /**
     * Whether {@code a} and {@code b} are the same type up to folding: a recursive type equals its unfolding, at any
     * depth ({@code record{left:rec<Expr,…>}} and {@code record{left:variant{…}}} where the variant is that
     * {@code rec<Expr,…>} unfolded). Decided coinductively — a pair of types met again while comparing them is assumed
     * equal — so it ends on every pair of regular types. Opaque named types and type variables are equal by name.
     */
    static boolean equivalent(Type a, Type b) { return equivalent(a, b, new java.util.HashSet<>()); }

    private static boolean equivalent(Type a, Type b, java.util.Set<List<Type>> assumed) {
        if (a.equals(b)) return true;
        boolean ra = a instanceof Type.Named n && n.isRecursive();
        boolean rb = b instanceof Type.Named n && n.isRecursive();
        if (ra || rb) {
            if (!assumed.add(List.of(a, b))) return true;
            return equivalent(ra ? ((Type.Named) a).unfold() : a, rb ? ((Type.Named) b).unfold() : b, assumed);
        }
        if (a.kind() != b.kind()) return false;
        return switch (a.kind()) {
            case PRIM, PATH, VAR, NAMED -> false; // equal ones were caught above
            case OPTION -> equivalent(((Type.OptionT) a).value(), ((Type.OptionT) b).value(), assumed);
            case LIST -> equivalent(((Type.ListT) a).element(), ((Type.ListT) b).element(), assumed);
            case TASK -> equivalent(((Type.TaskT) a).value(), ((Type.TaskT) b).value(), assumed);
            case STREAM -> equivalent(((Type.StreamT) a).element(), ((Type.StreamT) b).element(), assumed);
            case RESOURCE -> equivalent(((Type.ResourceT) a).of(), ((Type.ResourceT) b).of(), assumed);
            case RESULT -> equivalent(((Type.ResultT) a).ok(), ((Type.ResultT) b).ok(), assumed)
                    && equivalent(((Type.ResultT) a).err(), ((Type.ResultT) b).err(), assumed);
            case MAP -> equivalent(((Type.MapT) a).key(), ((Type.MapT) b).key(), assumed)
                    && equivalent(((Type.MapT) a).value(), ((Type.MapT) b).value(), assumed);
            case FIBER -> equivalent(((Type.FiberT) a).yielded(), ((Type.FiberT) b).yielded(), assumed)
                    && equivalent(((Type.FiberT) a).result(), ((Type.FiberT) b).result(), assumed);
            case RECORD -> {
                Map<String, Type> fa = ((Type.RecordT) a).fields(), fb = ((Type.RecordT) b).fields();
                if (!fa.keySet().equals(fb.keySet())) yield false;
                for (String k : fa.keySet()) if (!equivalent(fa.get(k), fb.get(k), assumed)) yield false;
                yield true;
            }
            case VARIANT -> {
                List<Map.Entry<String, Optional<Type>>> ta = List.copyOf(((Type.VariantT) a).tags().entrySet());
                List<Map.Entry<String, Optional<Type>>> tb = List.copyOf(((Type.VariantT) b).tags().entrySet());
                if (ta.size() != tb.size()) yield false;
                for (int i = 0; i < ta.size(); i++) {
                    if (!ta.get(i).getKey().equals(tb.get(i).getKey()) || ta.get(i).getValue().isPresent() != tb.get(i).getValue().isPresent()) yield false;
                    if (ta.get(i).getValue().isPresent() && !equivalent(ta.get(i).getValue().get(), tb.get(i).getValue().get(), assumed)) yield false;
                }
                yield true;
            }
            case FN -> {
                Type.Fn fa = (Type.Fn) a, fb = (Type.Fn) b;
                if (fa.ins().size() != fb.ins().size() || fa.outs().size() != fb.outs().size() || !fa.effects().equals(fb.effects())
                        || fa.yields().isPresent() != fb.yields().isPresent()) yield false;
                for (int i = 0; i < fa.ins().size(); i++) if (!equivalent(fa.ins().get(i), fb.ins().get(i), assumed)) yield false;
                for (int i = 0; i < fa.outs().size(); i++) if (!equivalent(fa.outs().get(i), fb.outs().get(i), assumed)) yield false;
                if (fa.yields().isPresent()) {
                    Type.Yields ya = fa.yields().get(), yb = fb.yields().get();
                    yield equivalent(ya.yielded(), yb.yielded(), assumed) && equivalent(ya.resumed(), yb.resumed(), assumed);
                }
                yield true;
            }
        };
    }

    /** {@code t} with each reference {@code name} (a named type without definition) replaced by {@code by}. */
    static Type replace(Type t, String name, Type by) {
        return switch (t.kind()) {
            case PRIM, PATH, VAR -> t;
            case NAMED -> {
                Type.Named n = (Type.Named) t;
                if (n.definition().isEmpty()) yield n.name().equals(name) ? by : n;
                // A nested recursive type of the same name binds its own references.
                yield n.name().equals(name) ? n : new Type.Named(n.name(), Optional.of(replace(n.definition().get(), name, by)));
            }
            case OPTION -> new Type.OptionT(replace(((Type.OptionT) t).value(), name, by));
            case LIST -> new Type.ListT(replace(((Type.ListT) t).element(), name, by));
            case TASK -> new Type.TaskT(replace(((Type.TaskT) t).value(), name, by));
            case STREAM -> new Type.StreamT(replace(((Type.StreamT) t).element(), name, by));
            case RESOURCE -> new Type.ResourceT(replace(((Type.ResourceT) t).of(), name, by));
            case RESULT -> new Type.ResultT(replace(((Type.ResultT) t).ok(), name, by), replace(((Type.ResultT) t).err(), name, by));
            case MAP -> new Type.MapT(replace(((Type.MapT) t).key(), name, by), replace(((Type.MapT) t).value(), name, by));
            case FIBER -> new Type.FiberT(replace(((Type.FiberT) t).yielded(), name, by), replace(((Type.FiberT) t).result(), name, by));
            case RECORD -> {
                Map<String, Type> fields = new TreeMap<>();
                for (var e : ((Type.RecordT) t).fields().entrySet()) fields.put(e.getKey(), replace(e.getValue(), name, by));
                yield new Type.RecordT(fields);
            }
            case VARIANT -> {
                Map<String, Optional<Type>> tags = new LinkedHashMap<>();
                for (var e : ((Type.VariantT) t).tags().entrySet()) tags.put(e.getKey(), e.getValue().map(p -> replace(p, name, by)));
                yield new Type.VariantT(tags);
            }
            case FN -> {
                Type.Fn f = (Type.Fn) t;
                List<Type> ins = new ArrayList<>(), outs = new ArrayList<>();
                for (Type x : f.ins()) ins.add(replace(x, name, by));
                for (Type x : f.outs()) outs.add(replace(x, name, by));
                yield new Type.Fn(ins, outs, f.effects(), f.yields().map(y -> new Type.Yields(replace(y.yielded(), name, by), replace(y.resumed(), name, by))));
            }
        };
    }
}
