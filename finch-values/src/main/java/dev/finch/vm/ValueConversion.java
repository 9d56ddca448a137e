package dev.finch.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.VariantValue;
import dev.finch.vm.value.Values;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one mapping between public {@link Value}s, the VM's own representation of each type ({@code dev.finch.vm.value},
 * see {@code Representation}) and plain Java objects.
 */
final class ValueConversion {
    private ValueConversion() { }

    // ---- checks made by Value's constructors ----

    static Value expect(Type type, Value v, String what) {
        java.util.Objects.requireNonNull(v, what);
        if (!v.type().equals(type) && !Type.equivalent(type, v.type())) {
            throw new IllegalArgumentException(what + " must be a " + type + ", not " + v.display() + " : " + v.type());
        }
        return v;
    }


    static void ground(Type type) {
        java.util.Objects.requireNonNull(type, "type");
        if (!Type.isGround(type)) throw new IllegalArgumentException("a value's type has no type variable: " + type);
    }

    static String canonicalJson(String text) {
        java.util.Objects.requireNonNull(text, "text");
        Object parsed = dev.finch.vm.value.JsonValues.parse(text);
        ResultValue r = (ResultValue) parsed;
        if (!r.isOk()) throw new IllegalArgumentException((String) r.value());
        return Values.jsonText((JsonNode) r.value());
    }

    static JsonNode jsonNode(String canonicalText) {
        return (JsonNode) ((ResultValue) dev.finch.vm.value.JsonValues.parse(canonicalText)).value();
    }

    static String display(Value v) { return Values.display(v.type(), toInternal(v)); }

    // ---- the VM's representation ----

    /** The VM's representation of {@code v} (what {@code Representation.of(v.type())} holds). */
    static Object toInternal(Value v) {
        if (v instanceof Value.Int i) return i.value();
        if (v instanceof Value.Float f) return f.value();
        if (v instanceof Value.Bool b) return b.value();
        if (v instanceof Value.Str s) return s.value();
        if (v instanceof Value.Bytes b) return dev.finch.vm.value.Bytes.copyOf(b.unsafeArray());
        if (v instanceof Value.Unit) return dev.finch.vm.value.Unit.INSTANCE;
        if (v instanceof Value.Symbol s) return new dev.finch.vm.value.Symbol(s.name());
        if (v instanceof Value.Json j) return j.node();
        if (v instanceof Value.List l) {
            List<Object> items = new ArrayList<>(l.items().size());
            for (Value e : l.items()) items.add(toInternal(e));
            return ListValue.from(items);
        }
        if (v instanceof Value.Map m) {
            dev.finch.vm.value.MapValue out = dev.finch.vm.value.MapValue.empty();
            for (Map.Entry<Value, Value> e : m.entries().entrySet()) out = out.plus(toInternal(e.getKey()), toInternal(e.getValue()));
            return out;
        }
        if (v instanceof Value.Record r) {
            Object[] fields = new Object[r.fields().size()];
            int i = 0;
            for (Value f : r.fields().values()) fields[i++] = toInternal(f);
            return new RecordValue(fields);
        }
        if (v instanceof Value.Variant x) return new VariantValue(x.tag(), x.payload().map(ValueConversion::toInternal).orElse(dev.finch.vm.value.Unit.INSTANCE));
        if (v instanceof Value.Option o) return o.value().map(p -> OptionValue.some(toInternal(p))).orElse(OptionValue.NONE);
        if (v instanceof Value.Result r) return r.isOk() ? ResultValue.ok(toInternal(r.payload())) : ResultValue.err(toInternal(r.payload()));
        if (v instanceof Value.Opaque o) return o.internal();
        throw new AssertionError("a Value variant without a representation: " + v.getClass());
    }

    /** The public value of {@code internal}, a VM value of {@code type}. */
    static Value fromInternal(Type type, Object internal) {
        return switch (type.kind()) {
            case PRIM -> switch ((Type.Prim) type) {
                case INT -> new Value.Int((Long) internal);
                case FLOAT -> new Value.Float((Double) internal);
                case BOOL -> new Value.Bool((Boolean) internal);
                case STRING -> new Value.Str((String) internal);
                case BYTES -> Value.of(((dev.finch.vm.value.Bytes) internal).toArray());
                case UNIT -> Value.Unit.UNIT;
                case SYMBOL -> new Value.Symbol(((dev.finch.vm.value.Symbol) internal).name());
                case JSON -> new Value.Json(Values.jsonText((JsonNode) internal));
            };
            case LIST -> {
                Type element = ((Type.ListT) type).element();
                List<Value> items = new ArrayList<>();
                for (Object e : (ListValue) internal) items.add(fromInternal(element, e));
                yield new Value.List(element, items);
            }
            case MAP -> {
                Type.MapT t = (Type.MapT) type;
                Map<Value, Value> entries = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) internal).entrySet()) entries.put(fromInternal(t.key(), e.getKey()), fromInternal(t.value(), e.getValue()));
                yield new Value.Map(t.key(), t.value(), entries);
            }
            case RECORD -> {
                RecordValue r = (RecordValue) internal;
                Map<String, Value> fields = new LinkedHashMap<>();
                int i = 0;
                for (Map.Entry<String, Type> f : ((Type.RecordT) type).fields().entrySet()) fields.put(f.getKey(), fromInternal(f.getValue(), r.get(i++)));
                yield new Value.Record(fields);
            }
            case VARIANT -> {
                Type.VariantT t = (Type.VariantT) type;
                VariantValue x = (VariantValue) internal;
                Optional<Type> payload = t.tags().get(x.tag());
                yield new Value.Variant(t, x.tag(), payload.map(p -> fromInternal(p, x.payload())));
            }
            case OPTION -> {
                Type element = ((Type.OptionT) type).value();
                OptionValue o = (OptionValue) internal;
                yield new Value.Option(element, o.isSome() ? Optional.of(fromInternal(element, o.value())) : Optional.empty());
            }
            case RESULT -> {
                Type.ResultT t = (Type.ResultT) type;
                ResultValue r = (ResultValue) internal;
                yield new Value.Result(t.ok(), t.err(), r.isOk(), fromInternal(r.isOk() ? t.ok() : t.err(), r.value()));
            }
            case NAMED -> ((Type.Named) type).isRecursive() ? fromInternal(((Type.Named) type).unfold(), internal) : new Value.Opaque(type, internal);
            case PATH, TASK, FIBER, STREAM, RESOURCE, FN, VAR -> new Value.Opaque(type, internal);
        };
    }

    // ---- plain Java ----

    static Value fromJava(Object o) {
        if (o == null) throw new IllegalArgumentException("null has no Finch value (an absent value is Value.none(type))");
        if (o instanceof Value v) return v;
        if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) return new Value.Int(((Number) o).longValue());
        if (o instanceof Double || o instanceof java.lang.Float) return new Value.Float(((Number) o).doubleValue());
        if (o instanceof Boolean b) return new Value.Bool(b);
        if (o instanceof String s) return new Value.Str(s);
        if (o instanceof byte[] b) return Value.of(b);
        if (o instanceof JsonNode j) return new Value.Json(j.toString());
        if (o instanceof List<?> l) {
            if (l.isEmpty()) throw new IllegalArgumentException("an empty list has no element type: use Value.list(\"TYPE\", List.of())");
            List<Value> items = new ArrayList<>();
            for (Object e : l) items.add(fromJava(e));
            return new Value.List(items.get(0).type(), items);
        }
        if (o instanceof Map<?, ?> m) {
            if (m.isEmpty()) throw new IllegalArgumentException("an empty map has no key or value type: use Value.map(\"K\", \"V\", Map.of())");
            Map<Value, Value> entries = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) entries.put(fromJava(e.getKey()), fromJava(e.getValue()));
            Map.Entry<Value, Value> first = entries.entrySet().iterator().next();
            return new Value.Map(first.getKey().type(), first.getValue().type(), entries);
        }
        if (o instanceof Optional<?> opt) {
            if (opt.isEmpty()) throw new IllegalArgumentException("an empty Optional has no element type: use Value.none(\"TYPE\")");
            return Value.some(fromJava(opt.get()));
        }
        if (o.getClass().isRecord()) {
            Map<String, Value> fields = new LinkedHashMap<>();
            for (RecordComponent c : o.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    fields.put(c.getName(), fromJava(c.getAccessor().invoke(o)));
                } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                    throw new IllegalArgumentException("component " + c.getName() + " of " + o.getClass().getSimpleName() + ": " + e.getMessage(), e);
                }
            }
            return new Value.Record(fields);
        }
        throw new IllegalArgumentException("a " + o.getClass().getName() + " has no Finch counterpart");
    }

    static <V extends Value> V cast(Value v, Class<V> kind) {
        if (kind.isInstance(v)) return kind.cast(v);
        throw new IllegalStateException("expected " + article(kind) + " but the value is " + v.display() + " : " + v.type());
    }

    private static String article(Class<?> kind) {
        return switch (kind.getSimpleName()) {
            case "Int" -> "an int";
            case "Float" -> "a float";
            case "Bool" -> "a bool";
            case "Str" -> "a string";
            case "Bytes" -> "bytes";
            case "Option" -> "an option";
            default -> "a " + kind.getSimpleName().toLowerCase(java.util.Locale.ROOT);
        };
    }

    @SuppressWarnings("unchecked")
    static <T> T toJava(Value v, Class<T> target) {
        if (target.isInstance(v)) return target.cast(v);
        Object out;
        if (target == long.class || target == Long.class) out = cast(v, Value.Int.class).value();
        else if (target == int.class || target == Integer.class) {
            long l = cast(v, Value.Int.class).value();
            if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) throw new IllegalStateException(l + " does not fit an int");
            out = (int) l;
        } else if (target == double.class || target == Double.class) out = cast(v, Value.Float.class).value();
        else if (target == boolean.class || target == Boolean.class) out = cast(v, Value.Bool.class).value();
        else if (target == String.class) out = cast(v, Value.Str.class).value();
        else if (target == byte[].class) out = cast(v, Value.Bytes.class).value();
        else if (JsonNode.class.isAssignableFrom(target)) out = cast(v, Value.Json.class).node();
        else if (target == List.class) out = natural(cast(v, Value.List.class));
        else if (target == Map.class) {
            if (!(v instanceof Value.Map) && !(v instanceof Value.Record)) throw new IllegalStateException("expected a map or a record but the value is " + v.display() + " : " + v.type());
            out = natural(v);
        } else if (target == Optional.class) out = natural(cast(v, Value.Option.class));
        else if (target.isRecord()) out = record(cast(v, Value.Record.class), target);
        else if (target == Object.class) out = natural(v);
        else throw new IllegalStateException("a " + v.type() + " does not convert to " + target.getName());
        return (T) out;
    }

    private static Object record(Value.Record r, Class<?> target) {
        RecordComponent[] components = target.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            Value field = r.fields().get(c.getName());
            if (field == null) field = r.fields().get(kebab(c.getName()));
            if (field == null) throw new IllegalStateException("the record " + r.display() + " has no field for component " + c.getName() + " of " + target.getSimpleName());
            args[i] = generic(field, c.getGenericType());
        }
        try {
            Constructor<?> k = target.getDeclaredConstructor(types);
            k.setAccessible(true);
            return k.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(target.getSimpleName() + " refused the record " + r.display() + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make a " + target.getSimpleName() + " from " + r.display() + ": " + e, e);
        }
    }

    private static Object generic(Value v, java.lang.reflect.Type t) {
        if (t instanceof Class<?> c) return toJava(v, c);
        if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            java.lang.reflect.Type[] args = p.getActualTypeArguments();
            if (raw == List.class) {
                List<Object> out = new ArrayList<>();
                for (Value e : cast(v, Value.List.class).items()) out.add(generic(e, args[0]));
                return Collections.unmodifiableList(out);
            }
            if (raw == Optional.class) return cast(v, Value.Option.class).value().map(e -> generic(e, args[0]));
            if (raw == Map.class) {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<Value, Value> e : cast(v, Value.Map.class).entries().entrySet()) out.put(generic(e.getKey(), args[0]), generic(e.getValue(), args[1]));
                return Collections.unmodifiableMap(out);
            }
            return toJava(v, raw);
        }
        return natural(v);
    }

    private static String kebab(String camel) {
        StringBuilder b = new StringBuilder();
        for (char ch : camel.toCharArray()) {
            if (Character.isUpperCase(ch)) b.append('-').append(Character.toLowerCase(ch));
            else b.append(ch);
        }
        return b.toString();
    }

    static Object natural(Value v) {
        if (v instanceof Value.Int i) return i.value();
        if (v instanceof Value.Float f) return f.value();
        if (v instanceof Value.Bool b) return b.value();
        if (v instanceof Value.Str s) return s.value();
        if (v instanceof Value.Bytes b) return b.value();
        if (v instanceof Value.Json j) return j.node();
        if (v instanceof Value.List l) {
            List<Object> out = new ArrayList<>();
            for (Value e : l.items()) out.add(natural(e));
            return Collections.unmodifiableList(out);
        }
        if (v instanceof Value.Map m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.entries().forEach((k, x) -> out.put(natural(k), natural(x)));
            return Collections.unmodifiableMap(out);
        }
        if (v instanceof Value.Record r) {
            Map<String, Object> out = new LinkedHashMap<>();
            r.fields().forEach((n, x) -> out.put(n, natural(x)));
            return Collections.unmodifiableMap(out);
        }
        if (v instanceof Value.Option o) return o.value().map(ValueConversion::natural);
        return v;
    }

    /** The Finch type of a Java class a host names for an empty collection's elements ({@link Value#emptyList}). */
    static Type typeOf(Class<?> c) {
        if (c == Long.class || c == long.class || c == Integer.class || c == int.class) return Type.INT;
        if (c == Double.class || c == double.class) return Type.FLOAT;
        if (c == Boolean.class || c == boolean.class) return Type.BOOL;
        if (c == String.class) return Type.STRING;
        if (c == byte[].class) return Type.BYTES;
        if (c != null && JsonNode.class.isAssignableFrom(c)) return Type.JSON;
        throw new IllegalArgumentException("no Finch type for the Java class " + (c == null ? "null" : c.getName())
                + " (long, double, boolean, String, byte[] or JsonNode; else Value.list(\"type\", List.of()))");
    }
}
