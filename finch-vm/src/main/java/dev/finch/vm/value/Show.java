package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code show}: the canonical text of a value. Askable values become exactly the JSON a model's answer is
 * validated against — object keys sorted, a variant's tag under the key {@code tag}, numbers in shortest form
 * ({@code 2}, not {@code 2.0}) — so equal values always give identical text. Money, durations and ∞ use µNorman's
 * literal syntax, bare at the top level and as strings when nested. Functions, capabilities and other handles
 * have no written form, and a payload field named {@code tag} would overwrite the discriminator: both refuse.
 */
public final class Show {
    private Show() { }

    /** Why a value cannot be shown. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) { super(message, null, false, false); }
    }

    public static String show(Type type, Object value) {
        if (value instanceof Money || value instanceof Duration) return value.toString();
        StringBuilder b = new StringBuilder();
        write(b, type, value);
        return b.toString();
    }

    /** Appends the written form of {@code value} to {@code b}; returns {@code b}. */
    @SuppressWarnings("unchecked")
    private static StringBuilder write(StringBuilder b, Type type, Object value) {
        return switch (type.kind()) {
            case PRIM -> switch ((Type.Prim) type) {
                case INT -> b.append((long) (Long) value);
                case FLOAT -> b.append(number((Double) value));
                case BOOL -> b.append((boolean) (Boolean) value);
                case STRING -> b.append(Values.quote((String) value));
                case SYMBOL -> b.append(Values.quote(((Symbol) value).name()));
                case UNIT -> b.append("null");
                case JSON -> b.append(canonicalJson((JsonNode) value));
                case BYTES -> throw new Refused("bytes have no written form; decode them with bytes-to-string first");
            };
            case LIST -> {
                b.append('[');
                String sep = "";
                for (Object e : (ListValue) value) { b.append(sep); write(b, ((Type.ListT) type).element(), e); sep = ","; }
                yield b.append(']');
            }
            case RECORD -> {
                Type.RecordT rt = (Type.RecordT) type;
                RecordValue r = (RecordValue) value;
                b.append('{');
                int i = 0;
                String sep = "";
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                    b.append(sep).append(Values.quote(f.getKey())).append(':');
                    write(b, f.getValue(), r.get(i++));
                    sep = ",";
                }
                yield b.append('}');
            }
            case VARIANT -> {
                VariantValue v = (VariantValue) value;
                Optional<Type> payload = ((Type.VariantT) type).tags().get(v.tag());
                tagged(b, v.tag(), payload == null ? Optional.empty() : payload, v.payload());
                yield b;
            }
            case OPTION -> {
                OptionValue o = (OptionValue) value;
                tagged(b, o.isSome() ? "some" : "none", o.isSome() ? Optional.of(((Type.OptionT) type).value()) : Optional.empty(), o.value());
                yield b;
            }
            case RESULT -> {
                ResultValue r = (ResultValue) value;
                Type.ResultT rt = (Type.ResultT) type;
                tagged(b, r.isOk() ? "ok" : "err", Optional.of(r.isOk() ? rt.ok() : rt.err()), r.value());
                yield b;
            }
            case MAP -> {
                Type.MapT mt = (Type.MapT) type;
                Map<Object, Object> m = (Map<Object, Object>) value;
                if (mt.key() == Type.STRING) {
                    TreeMap<String, Object> sorted = new TreeMap<>();
                    m.forEach((k, v) -> sorted.put((String) k, v));
                    b.append('{');
                    String sep = "";
                    for (var e : sorted.entrySet()) {
                        b.append(sep).append(Values.quote(e.getKey())).append(':');
                        write(b, mt.value(), e.getValue());
                        sep = ",";
                    }
                    yield b.append('}');
                }
                b.append('[');
                String sep = "";
                for (var e : m.entrySet()) {
                    b.append(sep).append('[');
                    write(b, mt.key(), e.getKey());
                    b.append(',');
                    write(b, mt.value(), e.getValue());
                    b.append(']');
                    sep = ",";
                }
                yield b.append(']');
            }
            case NAMED -> {
                if (value instanceof Money || value instanceof Duration) yield b.append(Values.quote(value.toString()));
                throw new Refused("a value of type " + type + " has no written form");
            }
            case FN -> throw new Refused("a function has no written form");
            case PATH, TASK, FIBER, STREAM, RESOURCE, VAR -> throw new Refused("a value of type " + type + " has no written form (authority and handles never reach a prompt)");
        };
    }

    private static void tagged(StringBuilder b, String tag, Optional<Type> payloadType, Object payload) {
        if (payloadType.isEmpty() || payloadType.get() == Type.UNIT) {
            b.append("{\"tag\":").append(Values.quote(tag)).append('}');
            return;
        }
        Type pt = payloadType.get();
        if (pt instanceof Type.RecordT rt) {
            if (rt.fields().containsKey("tag")) throw new Refused("constructor " + tag + " has a field named tag, which would overwrite its discriminator");
            // Fields and the tag, all keys sorted.
            TreeMap<String, String> parts = new TreeMap<>();
            RecordValue r = (RecordValue) payload;
            int i = 0;
            for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                StringBuilder v = new StringBuilder();
                write(v, f.getValue(), r.get(i++));
                parts.put(f.getKey(), v.toString());
            }
            parts.put("tag", Values.quote(tag));
            b.append('{');
            String sep = "";
            for (var e : parts.entrySet()) { b.append(sep).append(Values.quote(e.getKey())).append(':').append(e.getValue()); sep = ","; }
            b.append('}');
            return;
        }
        StringBuilder v = new StringBuilder();
        write(v, pt, payload);
        b.append("{\"tag\":").append(Values.quote(tag)).append(",\"value\":").append(v).append('}');
    }

    /** Shortest form: integral values without a fraction. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw new Refused("JSON has no spelling for " + d);
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d);
    }

    private static String canonicalJson(JsonNode n) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            n.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            StringBuilder b = new StringBuilder("{");
            String sep = "";
            for (var e : sorted.entrySet()) { b.append(sep).append(Values.quote(e.getKey())).append(':').append(canonicalJson(e.getValue())); sep = ","; }
            return b.append('}').toString();
        }
        if (n.isArray()) {
            StringBuilder b = new StringBuilder("[");
            String sep = "";
            for (JsonNode e : n) { b.append(sep).append(canonicalJson(e)); sep = ","; }
            return b.append(']').toString();
        }
        return Values.jsonText(n);
    }
}
