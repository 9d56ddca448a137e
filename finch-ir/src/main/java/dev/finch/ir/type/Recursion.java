package dev.finch.ir.type;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Unfolding recursive types ({@link Type.Named} with a definition): replacing the references to one by a type. */
final class Recursion {
    private Recursion() { }

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
