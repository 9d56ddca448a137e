package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The one rendering of values for outcomes and {@code say}-free inspection (decisions D4): int {@code 42}, float
 * {@code 1.5}, bool {@code true}, string JSON-quoted, unit {@code ()}, symbol {@code 'name}, option
 * {@code (some 42)}/{@code (none)}, result {@code (ok 1)}/{@code (err "x")}, list {@code [1 2 3]}, record
 * {@code { name: "Ada" }}, json as compact JSON text — bounded ({@link #DISPLAY_LIMIT}); and Finch's equality,
 * order and hashing, defined once. Both frontends share them.
 *
 * <p>Equality, hashing and JSON text are metered ({@link Meter}): the variants without a meter charge the meter
 * bound to the calling thread, which is the run's context on a run thread and {@link Meter#NONE} elsewhere.
 */
public final class Values {
    /**
     * The longest display ({@link #display(Type, Object)}) before it is cut: a value displays whole up to this many
     * characters, then ends with {@code …} and a note of its full size. The full value stays available as a value.
     */
    public static final int DISPLAY_LIMIT = 1 << 16;


    private Values() { }

    /** The D4 display of {@code value}, cut at {@link #DISPLAY_LIMIT} characters (plus the closing and the note). */
    public static String display(Type type, Object value) { return display(type, value, DISPLAY_LIMIT); }

    /**
     * The D4 display of {@code value}, cut at {@code limit} characters: a container with more to show ends with
     * {@code …} (and still closes), a string is cut inside its quotes, nesting deeper than 64 levels shows as
     * {@code …}, and a cut display ends with a note such as {@code (display cut at 8192 chars: a list of 1048576
     * elements)}. Its work is proportional to {@code limit}, whatever the value.
     */
    public static String display(Type type, Object value, int limit) { return Display.of(type, value, limit); }

    // ---- equality, order and hashing: defined once, the same at every depth ----

    /**
     * Finch's equality, the one definition every word and container uses ({@code =}, {@code <>}, {@code
     * list-contains}, map keys, nested values). Structural; floats compare in the total order of {@link
     * #compareFloats} ({@code -0.0 = 0.0}, {@code nan = nan}); json numbers by value ({@code 1.0} equals {@code 1}
     * and {@code 1.00}), json objects regardless of key order; maps regardless of insertion order; closures, streams
     * and other handles by identity. Charged to the calling thread's {@link Meter}.
     */
    public static boolean equal(Object a, Object b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if (scalar(a)) return scalarEqual(a, b);
        return Equality.of(a, b, Meter.current());
    }

    /**
     * {@link #equal(Object, Object)}, charged to {@code meter}: a step per {@link Meter#ELEMENTS_PER_STEP} elements
     * compared, the limits checked as it goes; linear in the distinct parts of a structure that shares them. A null
     * meter is the calling thread's.
     */
    public static boolean equal(Object a, Object b, Meter meter) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if (scalar(a)) return scalarEqual(a, b);
        return Equality.of(a, b, meter == null ? Meter.current() : meter);
    }

    /** A hash consistent with {@link #equal}: equal values hash alike. Charged to the calling thread's meter. */
    public static int hash(Object v) { return hash(v, Meter.current()); }

    /** {@link #hash(Object)}, charged to {@code meter} (null: the calling thread's); a container's hash is cached. */
    public static int hash(Object v, Meter meter) {
        if (v == null) return 0;
        if (v instanceof Long || v instanceof Boolean) return v.hashCode();
        return Hashing.of(v, meter == null ? Meter.current() : meter);
    }

    /** Values compared without walking anything worth charging (a long string is charged by {@link Equality}). */
    private static boolean scalar(Object v) {
        return v instanceof Long || v instanceof Boolean || v instanceof Double || v instanceof Unit
                || (v instanceof String s && s.length() < LONG_COMPARISON);
    }

    private static boolean scalarEqual(Object a, Object b) {
        if (a instanceof Double x) return b instanceof Double y && floatEquals(x, y);
        return a.equals(b);
    }

    /**
     * A map key in the form Java's hashing agrees with {@link #equal} on: a float key {@code -0.0} is stored as
     * {@code 0.0} (every nan is one key already) and a json key with its numbers in their shortest form ({@code 1.0}
     * as {@code 1}). Keys of every other type already hash by {@link #hash}.
     */
    public static Object key(Object k) {
        if (k instanceof Double d && d == 0.0) return 0.0;
        if (k instanceof JsonNode j) {
            Work w = new Work(Meter.current());
            JsonNode c = canonicalJson(j, w);
            w.done();
            return c;
        }
        return k;
    }

    private static JsonNode canonicalJson(JsonNode j, Work w) {
        w.element();
        var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        if (j.isNumber()) {
            java.math.BigDecimal d = j.decimalValue().stripTrailingZeros();
            if (d.scale() <= 0) return f.numberNode(d.toBigIntegerExact());
            return f.numberNode(d);
        }
        if (j.isArray()) {
            var a = f.arrayNode();
            for (JsonNode e : j) a.add(canonicalJson(e, w));
            return a;
        }
        if (j.isObject()) {
            var o = f.objectNode();
            for (Map.Entry<String, JsonNode> e : j.properties()) o.set(e.getKey(), canonicalJson(e.getValue(), w));
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

    /**
     * The order of strings: by Unicode code points (not UTF-16 units), so it agrees with code-point counting. A long
     * comparison is charged to the calling thread's meter, a step per {@link Meter#CHARS_PER_STEP} chars compared.
     */
    public static int compareStrings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) i++;
        if (i >= LONG_COMPARISON) Meter.current().charge(i / Meter.CHARS_PER_STEP);
        if (i == n) return a.length() - b.length();
        char x = a.charAt(i);
        char y = b.charAt(i);
        // UTF-16 sorts surrogates (U+D800–DFFF) below U+E000–FFFF; code point order puts them above.
        if (Character.isSurrogate(x) || Character.isSurrogate(y)) return Integer.compare(fixup(x), fixup(y));
        return x - y;
    }

    /** Chars compared before a string comparison is charged (a short one costs nothing beyond its word's step). */
    private static final int LONG_COMPARISON = 1024;

    private static int fixup(char c) {
        if (c >= 0xE000) return c - 0x800;
        if (c >= 0xD800) return c + 0x2000;
        return c;
    }

    /** Shortest round-trip spelling of a double, always with a fraction or exponent ({@code 2.0}, {@code 1.5}). */
    public static String floatText(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        return Double.toString(d);
    }

    /**
     * A JSON-quoted string, escaped as Jackson's generator escapes it — by jackson-core's encoder alone, so that
     * showing a string loads no data-binding class.
     */
    public static String quote(String s) {
        char[] escaped = com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(s);
        return new StringBuilder(escaped.length + 2).append('"').append(escaped).append('"').toString();
    }

    /**
     * Compact JSON text, charged to the calling thread's meter as it is written and refused (the meter's
     * E-LIMIT-005) when it would pass the run's memory limit, before it exists as a string.
     */
    public static String jsonText(JsonNode node) {
        Meter m = Meter.current();
        long maxChars = Math.min(Integer.MAX_VALUE - 8L, m.maxBytes() / 2);
        StringBuilder b = new StringBuilder();
        if (!JsonText.write(node, b, maxChars, m)) throw m.overLimit("json text of more than " + maxChars + " chars");
        return b.toString();
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
            case NAMED -> ((Type.Named) type).isRecursive() ? conforms(((Type.Named) type).unfold(), value) : value instanceof Money || value instanceof Duration;
            case TASK, FIBER, STREAM, RESOURCE, FN, VAR -> false;
        };
    }
}
