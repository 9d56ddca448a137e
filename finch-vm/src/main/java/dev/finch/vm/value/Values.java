package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.ir.type.Type;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The one rendering of values for outcomes and {@code say}-free inspection (decisions D4): int {@code 42}, float
 * {@code 1.5}, bool {@code true}, string JSON-quoted, unit {@code ()}, symbol {@code 'name}, option
 * {@code (some 42)}/{@code (none)}, result {@code (ok 1)}/{@code (err "x")}, list {@code [1 2 3]}, record
 * {@code { name: "Ada" }}, json as compact JSON text. Both frontends share it.
 */
public final class Values {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Values() { }

    public static String display(Type type, Object value) {
        StringBuilder b = new StringBuilder();
        display(b, type, value);
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    private static void display(StringBuilder b, Type type, Object value) {
        switch (type.kind()) {
            case PRIM -> {
                switch ((Type.Prim) type) {
                    case INT -> b.append((long) (Long) value);
                    case FLOAT -> b.append(floatText((Double) value));
                    case BOOL -> b.append((boolean) (Boolean) value);
                    case STRING -> b.append(quote((String) value));
                    case UNIT -> b.append("()");
                    case SYMBOL -> b.append('\'').append(((Symbol) value).name());
                    case BYTES -> {
                        b.append("#bytes[");
                        byte[] data = ((Bytes) value).toArray();
                        for (int i = 0; i < data.length; i++) { if (i > 0) b.append(' '); b.append(data[i] & 0xff); }
                        b.append(']');
                    }
                    case JSON -> b.append(jsonText((JsonNode) value));
                }
            }
            case OPTION -> {
                OptionValue o = (OptionValue) value;
                if (o.isSome()) { b.append("(some "); display(b, ((Type.OptionT) type).value(), o.value()); b.append(')'); }
                else b.append("(none)");
            }
            case RESULT -> {
                ResultValue r = (ResultValue) value;
                Type.ResultT rt = (Type.ResultT) type;
                b.append(r.isOk() ? "(ok " : "(err ");
                display(b, r.isOk() ? rt.ok() : rt.err(), r.value());
                b.append(')');
            }
            case LIST -> {
                b.append('[');
                String sep = "";
                for (Object e : (ListValue) value) { b.append(sep); display(b, ((Type.ListT) type).element(), e); sep = " "; }
                b.append(']');
            }
            case MAP -> {
                Type.MapT mt = (Type.MapT) type;
                b.append("map{");
                for (Map.Entry<Object, Object> e : ((Map<Object, Object>) value).entrySet()) {
                    b.append(' ');
                    display(b, mt.key(), e.getKey());
                    b.append(' ');
                    display(b, mt.value(), e.getValue());
                }
                b.append(" }map");
            }
            case RECORD -> {
                Type.RecordT rt = (Type.RecordT) type;
                RecordValue r = (RecordValue) value;
                b.append('{');
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                    b.append(' ').append(f.getKey()).append(": ");
                    display(b, f.getValue(), r.get(i++));
                }
                b.append(rt.fields().isEmpty() ? "}" : " }");
            }
            case VARIANT -> {
                VariantValue v = (VariantValue) value;
                var payload = ((Type.VariantT) type).tags().get(v.tag());
                if (payload == null || payload.isEmpty()) b.append('(').append(v.tag()).append(')');
                else { b.append('(').append(v.tag()).append(' '); display(b, payload.get(), v.payload()); b.append(')'); }
            }
            case PATH -> {
                PathValue p = (PathValue) value;
                String root = ((Type.PathT) type).root();
                b.append('(').append(root.equals(Type.PathT.WORKSPACE) ? "path" : root + "-path").append(' ')
                        .append(quote(p.path().relative())).append(')');
            }
            case NAMED -> {
                if (value instanceof Money || value instanceof Duration) b.append(value);
                else b.append('#').append(type).append(valueTag(value));
            }
            case TASK, FIBER, STREAM, RESOURCE, FN, VAR -> b.append('#').append(type).append(valueTag(value));
        }
    }

    private static String valueTag(Object value) {
        return value == null ? "" : "<" + value + ">";
    }

    /** Shortest round-trip spelling of a double, always with a fraction or exponent ({@code 2.0}, {@code 1.5}). */
    public static String floatText(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        return Double.toString(d);
    }

    /** A JSON-quoted string. */
    public static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Compact JSON text. */
    public static String jsonText(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Iterates a list value. */
    @SuppressWarnings("unchecked")
    public static Iterator<Object> elements(Object list) { return ((ListValue) list).iterator(); }

    /** Whether {@code value} has the runtime shape of {@code type} (checks untrusted values from hosts). */
    @SuppressWarnings("unchecked")
    public static boolean conforms(Type type, Object value) {
        if (value == null) return false;
        switch (type.kind()) {
            case PRIM:
                return switch ((Type.Prim) type) {
                    case INT -> value instanceof Long;
                    case FLOAT -> value instanceof Double;
                    case BOOL -> value instanceof Boolean;
                    case STRING -> value instanceof String;
                    case BYTES -> value instanceof Bytes;
                    case UNIT -> value == Unit.INSTANCE;
                    case SYMBOL -> value instanceof Symbol;
                    case JSON -> value instanceof JsonNode;
                };
            case PATH: return value instanceof PathValue;
            case OPTION: {
                if (!(value instanceof OptionValue o)) return false;
                return !o.isSome() || conforms(((Type.OptionT) type).value(), o.value());
            }
            case RESULT: {
                if (!(value instanceof ResultValue r)) return false;
                Type.ResultT rt = (Type.ResultT) type;
                return conforms(r.isOk() ? rt.ok() : rt.err(), r.value());
            }
            case LIST: {
                if (!(value instanceof ListValue l)) return false;
                for (Object e : l) if (!conforms(((Type.ListT) type).element(), e)) return false;
                return true;
            }
            case MAP: {
                if (!(value instanceof Map<?, ?> m)) return false;
                Type.MapT mt = (Type.MapT) type;
                for (Map.Entry<?, ?> e : m.entrySet()) if (!conforms(mt.key(), e.getKey()) || !conforms(mt.value(), e.getValue())) return false;
                return true;
            }
            case RECORD: {
                if (!(value instanceof RecordValue r)) return false;
                Type.RecordT rt = (Type.RecordT) type;
                if (r.size() != rt.fields().size()) return false;
                int i = 0;
                for (Type f : rt.fields().values()) if (!conforms(f, r.get(i++))) return false;
                return true;
            }
            case VARIANT: {
                if (!(value instanceof VariantValue v)) return false;
                var payload = ((Type.VariantT) type).tags().get(v.tag());
                if (payload == null) return false;
                return payload.isEmpty() ? v.payload() == Unit.INSTANCE : conforms(payload.get(), v.payload());
            }
            case NAMED: return value instanceof Money || value instanceof Duration;
            default: return false;
        }
    }
}
