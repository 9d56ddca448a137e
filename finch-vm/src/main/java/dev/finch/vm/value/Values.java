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

    /** Appends the display form of {@code value} to {@code b}; returns {@code b}. */
    @SuppressWarnings("unchecked")
    private static StringBuilder display(StringBuilder b, Type type, Object value) {
        return switch (type.kind()) {
            case PRIM -> switch ((Type.Prim) type) {
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
                    yield b.append(']');
                }
                case JSON -> b.append(jsonText((JsonNode) value));
            };
            case OPTION -> {
                OptionValue o = (OptionValue) value;
                if (!o.isSome()) yield b.append("(none)");
                b.append("(some ");
                display(b, ((Type.OptionT) type).value(), o.value());
                yield b.append(')');
            }
            case RESULT -> {
                ResultValue r = (ResultValue) value;
                Type.ResultT rt = (Type.ResultT) type;
                b.append(r.isOk() ? "(ok " : "(err ");
                display(b, r.isOk() ? rt.ok() : rt.err(), r.value());
                yield b.append(')');
            }
            case LIST -> {
                b.append('[');
                String sep = "";
                for (Object e : (ListValue) value) { b.append(sep); display(b, ((Type.ListT) type).element(), e); sep = " "; }
                yield b.append(']');
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
                yield b.append(" }map");
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
                yield b.append(rt.fields().isEmpty() ? "}" : " }");
            }
            case VARIANT -> {
                VariantValue v = (VariantValue) value;
                var payload = ((Type.VariantT) type).tags().get(v.tag());
                if (payload == null || payload.isEmpty()) yield b.append('(').append(v.tag()).append(')');
                b.append('(').append(v.tag()).append(' ');
                display(b, payload.get(), v.payload());
                yield b.append(')');
            }
            case PATH -> {
                PathValue p = (PathValue) value;
                String root = ((Type.PathT) type).root();
                yield b.append('(').append(root.equals(Type.PathT.WORKSPACE) ? "path" : root + "-path").append(' ')
                        .append(quote(p.path().relative())).append(')');
            }
            case NAMED -> value instanceof Money || value instanceof Duration ? b.append(value) : b.append('#').append(type).append(valueTag(value));
            case TASK, FIBER, STREAM, RESOURCE, FN, VAR -> b.append('#').append(type).append(valueTag(value));
        };
    }

    private static String valueTag(Object value) {
        return value == null ? "" : "<" + value + ">";
    }

    // ---- equality, order and hashing: defined once, the same at every depth ----

    /**
     * Finch's equality, the one definition every word and container uses ({@code =}, {@code <>}, {@code
     * list-contains}, map keys, nested values). Structural; floats compare in the total order of {@link
     * #compareFloats} ({@code -0.0 = 0.0}, {@code nan = nan}); json numbers by value ({@code 1.0} equals {@code 1}
     * and {@code 1.00}), json objects regardless of key order; maps regardless of insertion order; closures, streams
     * and other handles by identity.
     */
    @SuppressWarnings("unchecked")
    public static boolean equal(Object a, Object b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if (a instanceof Double x) return b instanceof Double y && floatEquals(x, y);
        if (a instanceof ListValue x) {
            if (!(b instanceof ListValue y) || x.size() != y.size()) return false;
            java.util.Iterator<Object> i = x.iterator();
            java.util.Iterator<Object> j = y.iterator();
            while (i.hasNext()) if (!equal(i.next(), j.next())) return false;
            return true;
        }
        if (a instanceof OptionValue x) return b instanceof OptionValue y && x.isSome() == y.isSome() && (!x.isSome() || equal(x.value(), y.value()));
        if (a instanceof ResultValue x) return b instanceof ResultValue y && x.isOk() == y.isOk() && equal(x.value(), y.value());
        if (a instanceof VariantValue x) return b instanceof VariantValue y && x.tag().equals(y.tag()) && equal(x.payload(), y.payload());
        if (a instanceof RecordValue x) {
            if (!(b instanceof RecordValue y) || x.size() != y.size()) return false;
            for (int k = 0; k < x.size(); k++) if (!equal(x.get(k), y.get(k))) return false;
            return true;
        }
        if (a instanceof JsonNode x) return b instanceof JsonNode y && x.equals(JSON_BY_VALUE, y);
        if (a instanceof Map<?, ?> x) {
            if (!(b instanceof Map<?, ?> y) || x.size() != y.size()) return false;
            Map<Object, Object> ym = (Map<Object, Object>) y;
            for (Map.Entry<?, ?> e : x.entrySet()) {
                Object other = ym.get(e.getKey());
                if (other == null && !ym.containsKey(e.getKey())) return false;
                if (!equal(e.getValue(), other)) return false;
            }
            return true;
        }
        return a.equals(b);
    }

    /** A hash consistent with {@link #equal}: equal values hash alike. */
    public static int hash(Object v) {
        if (v == null) return 0;
        if (v instanceof Double d) return d == 0.0 ? 0 : Double.hashCode(d);
        if (v instanceof ListValue l) {
            int h = 1;
            for (Object e : l) h = 31 * h + hash(e);
            return h;
        }
        if (v instanceof OptionValue o) return o.isSome() ? 31 + hash(o.value()) : 0;
        if (v instanceof ResultValue r) return (r.isOk() ? 17 : 19) * 31 + hash(r.value());
        if (v instanceof VariantValue x) return x.tag().hashCode() * 31 + hash(x.payload());
        if (v instanceof RecordValue r) {
            int h = 7;
            for (int k = 0; k < r.size(); k++) h = 31 * h + hash(r.get(k));
            return h;
        }
        if (v instanceof JsonNode j) return jsonHash(j);
        if (v instanceof Map<?, ?> m) {
            int h = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) h += hash(e.getKey()) ^ hash(e.getValue());
            return h;
        }
        return v.hashCode();
    }

    /**
     * A map key in the form Java's hashing agrees with {@link #equal} on: a float key {@code -0.0} is stored as
     * {@code 0.0} (every nan is one key already) and a json key with its numbers in their shortest form ({@code 1.0}
     * as {@code 1}). Keys of every other type already hash by {@link #hash}.
     */
    public static Object key(Object k) {
        if (k instanceof Double d && d == 0.0) return 0.0;
        if (k instanceof JsonNode j) return canonicalJson(j);
        return k;
    }

    private static JsonNode canonicalJson(JsonNode j) {
        var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        if (j.isNumber()) {
            java.math.BigDecimal d = j.decimalValue().stripTrailingZeros();
            if (d.scale() <= 0) return f.numberNode(d.toBigIntegerExact());
            return f.numberNode(d);
        }
        if (j.isArray()) {
            var a = f.arrayNode();
            for (JsonNode e : j) a.add(canonicalJson(e));
            return a;
        }
        if (j.isObject()) {
            var o = f.objectNode();
            for (Map.Entry<String, JsonNode> e : j.properties()) o.set(e.getKey(), canonicalJson(e.getValue()));
            return o;
        }
        return j;
    }

    /** Float equality in the total order: {@code -0.0 = 0.0} and {@code nan = nan}. */
    public static boolean floatEquals(double a, double b) { return a == b || (a != a && b != b); }

    /**
     * The total order of floats Finch uses everywhere (comparisons, sorting, min and max): the usual order, with
     * {@code -0.0} equal to {@code 0.0} and nan equal to itself and greater than every other float, {@code inf}
     * included.
     */
    public static int compareFloats(double a, double b) {
        if (a < b) return -1;
        if (a > b) return 1;
        if (a == b) return 0;
        return Boolean.compare(a != a, b != b);
    }

    /** The order of strings: by Unicode code points (not UTF-16 units), so it agrees with code-point counting. */
    public static int compareStrings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                // UTF-16 sorts surrogates (U+D800–DFFF) below U+E000–FFFF; code point order puts them above.
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) return Integer.compare(fixup(x), fixup(y));
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    private static int fixup(char c) {
        if (c >= 0xE000) return c - 0x800;
        if (c >= 0xD800) return c + 0x2000;
        return c;
    }

    /** JSON value nodes compared by value: numbers numerically, everything else as Jackson does. */
    private static final java.util.Comparator<JsonNode> JSON_BY_VALUE = (x, y) -> {
        if (x.isNumber() && y.isNumber()) return x.decimalValue().compareTo(y.decimalValue());
        return x.equals(y) ? 0 : 1;
    };

    private static int jsonHash(JsonNode j) {
        if (j.isNumber()) {
            java.math.BigDecimal d = j.decimalValue();
            return d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
        }
        if (j.isArray()) {
            int h = 1;
            for (JsonNode e : j) h = 31 * h + jsonHash(e);
            return h;
        }
        if (j.isObject()) {
            int h = 0;
            for (Map.Entry<String, JsonNode> e : j.properties()) h += e.getKey().hashCode() ^ jsonHash(e.getValue());
            return h;
        }
        return j.hashCode();
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
        return switch (type.kind()) {
            case PRIM -> switch ((Type.Prim) type) {
                case INT -> value instanceof Long;
                case FLOAT -> value instanceof Double;
                case BOOL -> value instanceof Boolean;
                case STRING -> value instanceof String;
                case BYTES -> value instanceof Bytes;
                case UNIT -> value == Unit.INSTANCE;
                case SYMBOL -> value instanceof Symbol;
                case JSON -> value instanceof JsonNode;
            };
            case PATH -> value instanceof PathValue;
            case OPTION -> {
                if (!(value instanceof OptionValue o)) yield false;
                yield !o.isSome() || conforms(((Type.OptionT) type).value(), o.value());
            }
            case RESULT -> {
                if (!(value instanceof ResultValue r)) yield false;
                Type.ResultT rt = (Type.ResultT) type;
                yield conforms(r.isOk() ? rt.ok() : rt.err(), r.value());
            }
            case LIST -> {
                if (!(value instanceof ListValue l)) yield false;
                for (Object e : l) if (!conforms(((Type.ListT) type).element(), e)) yield false;
                yield true;
            }
            case MAP -> {
                if (!(value instanceof Map<?, ?> m)) yield false;
                Type.MapT mt = (Type.MapT) type;
                for (Map.Entry<?, ?> e : m.entrySet()) if (!conforms(mt.key(), e.getKey()) || !conforms(mt.value(), e.getValue())) yield false;
                yield true;
            }
            case RECORD -> {
                if (!(value instanceof RecordValue r)) yield false;
                Type.RecordT rt = (Type.RecordT) type;
                if (r.size() != rt.fields().size()) yield false;
                int i = 0;
                for (Type f : rt.fields().values()) if (!conforms(f, r.get(i++))) yield false;
                yield true;
            }
            case VARIANT -> {
                if (!(value instanceof VariantValue v)) yield false;
                var payload = ((Type.VariantT) type).tags().get(v.tag());
                if (payload == null) yield false;
                yield payload.isEmpty() ? v.payload() == Unit.INSTANCE : conforms(payload.get(), v.payload());
            }
            case NAMED -> value instanceof Money || value instanceof Duration;
            case TASK, FIBER, STREAM, RESOURCE, FN, VAR -> false;
        };
    }
}
