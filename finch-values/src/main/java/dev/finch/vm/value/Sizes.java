package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * The logical size of a value: the bytes it would hold if none of its parts were shared — what writing it out,
 * comparing it or displaying it must touch. A list holding one list twice is twice that list's size, so a value
 * doubled thirty times is refused long before it could be rendered. The run's memory limit ({@code
 * Limits.maxMemoryBytes}) bounds the logical size of every value a run builds: each container (list, record, map,
 * option, result, variant, json made by the json words) computes its size from its parts' when it is built, in
 * constant time per part, and refuses to exist above the bound of the {@link Meter#current() current run}
 * (E-LIMIT-005). Words check the size of what they are about to build first, with their own origin and message;
 * the containers' check is the backstop that makes the bound hold for every way of building a value, host words
 * and embedder values included.
 *
 * <p>The figures are what the JVM retains, measured: a boxed number or the header of any value 16 bytes, a list
 * slot 16 more (a persistent vector's trie included: 29 bytes an int element, measured), a map entry 200 more
 * (the hash and insertion-order trees of a persistent ordered map: 232 bytes an int-to-int entry, measured), a
 * string 40 bytes plus 2 a char, bytes 16 plus 1 a byte; json as {@code Json} counts it (16 a node, 2 a char).
 */
public final class Sizes {
    private Sizes() { }

    /** A scalar (boxed number, bool, unit, symbol, handle), or the header of a container. */
    public static final long VALUE = 16;

    /** One element's slot in a list or a record. */
    public static final long SLOT = 16;

    /** One entry's own structure in a map. */
    public static final long ENTRY = 200;

    /** A string's object and array headers. */
    public static final long STRING = 40;

    /** The logical size up to which a container is admitted without consulting the run ({@link #admit}). */
    public static final long ALWAYS_ADMITTED = 4096;

    /** The logical size of any value (constant time, except for a map or json container that no run made). */
    public static long of(Object v) {
        // Final classes first: an interface check on a boxed number is a scan of its supertypes (and thrashes the
        // JVM's one-entry cache when interfaces alternate), and this runs for every element of every container built.
        if (v instanceof Long || v instanceof Double || v instanceof Boolean || v instanceof Unit) return VALUE;
        if (v instanceof String s) return string(s.length());
        if (v instanceof ListValue l) return l.logicalBytes();
        if (v instanceof RecordValue r) return r.logicalBytes();
        if (v instanceof OptionValue o) return o.logicalBytes();
        if (v instanceof ResultValue r) return r.logicalBytes();
        if (v instanceof VariantValue x) return x.logicalBytes();
        if (v instanceof MapValue m) return m.logicalBytes();
        if (v instanceof Sized s) return s.logicalBytes();
        if (v instanceof String s) return string(s.length());
        if (v instanceof Bytes b) return VALUE + b.length();
        if (v instanceof JsonNode j) return json(j);
        if (v instanceof Map<?, ?> m) return foreignMap(m);
        if (v instanceof Symbol s) return VALUE + string(s.name().length());
        return VALUE;
    }

    /** The logical size of a string of {@code chars} UTF-16 units. */
    public static long string(long chars) { return plus(STRING, 2 * chars); }

    /** {@code a + b}, saturating at {@link Long#MAX_VALUE} (sizes only grow). */
    public static long plus(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** The size one element adds to a list (its slot and itself). */
    public static long element(Object v) { return plus(SLOT, of(v)); }

    /** The size one entry adds to a map. */
    public static long entry(Object key, Object value) { return plus(ENTRY, plus(of(key), of(value))); }

    /**
     * Refuses a value of logical size {@code bytes} above the current run's bound (the backstop; see the class
     * comment); a value of at most {@link #ALWAYS_ADMITTED} bytes passes without consulting the run. {@code what}
     * names it in the message.
     */
    public static long admit(long bytes, String what) {
        // A small value costs no lookup of the current run (the check runs for every container built): a limit
        // below this is exact only for what the words check themselves.
        if (bytes <= ALWAYS_ADMITTED) return bytes;
        Meter m = Meter.current();
        if (bytes > m.maxBytes()) {
            throw m.overLimit(what + " of " + (bytes == Long.MAX_VALUE ? "more than 2^63" : Long.toString(bytes))
                    + " bytes (a shared part counted once per use) would exceed the memory limit of " + m.maxBytes() + " bytes");
        }
        return bytes;
    }

    /** The json size ({@code Json}'s rule: 16 a node, 2 a char of a string or key), walked for json no run made. */
    static long json(JsonNode n) {
        if (n instanceof Sized s) return s.logicalBytes();
        return jsonWalk(n);
    }

    /** The json size of {@code n}, walking its structure (its parts' known sizes are used, its own is not). */
    public static long jsonWalk(JsonNode n) {
        if (!n.isContainerNode()) return jsonScalar(n);
        long bytes = 0;
        ArrayDeque<JsonNode> todo = new ArrayDeque<>();
        todo.push(n);
        while (!todo.isEmpty()) {
            JsonNode x = todo.pop();
            if (x != n && x instanceof Sized s) {
                bytes = plus(bytes, s.logicalBytes());
            } else if (x.isObject()) {
                bytes = plus(bytes, VALUE);
                for (Map.Entry<String, JsonNode> e : x.properties()) {
                    bytes = plus(bytes, jsonKey(e.getKey()));
                    todo.push(e.getValue());
                }
            } else if (x.isArray()) {
                bytes = plus(bytes, VALUE);
                for (JsonNode e : x) todo.push(e);
            } else {
                bytes = plus(bytes, jsonScalar(x));
            }
        }
        return bytes;
    }

    /** A json scalar: 16 bytes, a string 2 more a char. */
    public static long jsonScalar(JsonNode n) { return n.isTextual() ? plus(VALUE, 2L * n.textValue().length()) : VALUE; }

    /** A json object key. */
    public static long jsonKey(String key) { return VALUE + 2L * key.length(); }

    /**
     * The bytes {@code s} takes as UTF-8, counted without encoding it (the output limit counts every say chunk): a lone
     * surrogate counts one byte, as the encoder's replacement does.
     */
    public static long utf8(CharSequence s) {
        long n = 0;
        for (int i = 0, len = s.length(); i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) n += 1;
            else if (c < 0x800) n += 2;
            else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) { n += 4; i++; }
            else if (Character.isSurrogate(c)) n += 1;
            else n += 3;
        }
        return n;
    }

    private static long foreignMap(Map<?, ?> m) {
        long bytes = VALUE;
        for (Map.Entry<?, ?> e : m.entrySet()) bytes = plus(bytes, entry(e.getKey(), e.getValue()));
        return bytes;
    }
}
