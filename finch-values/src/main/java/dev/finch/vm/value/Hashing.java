package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Finch's hash ({@link Values#hash}), metered: each element it touches is counted in a {@link Work}, and a list,
 * record or map caches its hash once computed, so hashing a structure that shares its parts costs what its
 * distinct parts cost. The cache is safe to race on, as {@link String#hashCode} is: the hash is a function of an
 * immutable value, written in one field (a hash of zero is remembered by a flag of its own).
 */
final class Hashing {
    private final Work work;

    private Hashing(Meter meter) { this.work = new Work(meter); }

    static int of(Object v, Meter meter) {
        Hashing h = new Hashing(meter);
        int r = h.hash(v);
        h.work.done();
        return r;
    }

    /** True when both containers' hashes are known and differ (so they cannot be equal). */
    static boolean differ(Object x, Object y) {
        int a = cached(x);
        int b = cached(y);
        return a != 0 && b != 0 && a != b;
    }

    /** A container's cached hash, or 0 when not known (or zero). */
    private static int cached(Object v) {
        if (v instanceof ListValue l) return l.hash;
        if (v instanceof RecordValue r) return r.hash;
        if (v instanceof MapValue m) return m.hash;
        return 0;
    }

    private int hash(Object v) {
        if (v == null) return 0;
        work.element();
        if (v instanceof Long || v instanceof Boolean) return v.hashCode();
        if (v instanceof Double d) return d == 0.0 ? 0 : Double.hashCode(d);
        if (v instanceof String s) {
            work.chars(s.length());
            return s.hashCode();
        }
        if (v instanceof ListValue l) {
            int h = l.hash;
            if (h != 0 || l.hashIsZero) return h;
            h = 1;
            for (Object e : l) h = mix(31 * h + hash(e));
            if (h == 0) l.hashIsZero = true;
            else l.hash = h;
            return h;
        }
        if (v instanceof RecordValue r) {
            int h = r.hash;
            if (h != 0 || r.hashIsZero) return h;
            h = 7;
            for (int k = 0; k < r.size(); k++) h = mix(31 * h + hash(r.get(k)));
            if (h == 0) r.hashIsZero = true;
            else r.hash = h;
            return h;
        }
        if (v instanceof MapValue m) {
            int h = m.hash;
            if (h != 0 || m.hashIsZero) return h;
            h = entries(m);
            if (h == 0) m.hashIsZero = true;
            else m.hash = h;
            return h;
        }
        if (v instanceof OptionValue o) return o.isSome() ? 31 + hash(o.value()) : 0;
        if (v instanceof ResultValue r) return (r.isOk() ? 17 : 19) * 31 + hash(r.value());
        if (v instanceof VariantValue x) return x.tag().hashCode() * 31 + hash(x.payload());
        if (v instanceof JsonNode j) return json(j);
        if (v instanceof Map<?, ?> m) return entries(m);
        return v.hashCode();
    }

    /**
     * Murmur3's finalizer: without it a list holding one value twice would hash as {@code 961 + 32·h}, and doubling
     * shifts the inner hash out of the word — every list doubled seven times would hash alike whatever it holds.
     */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    private int entries(Map<?, ?> m) {
        int h = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) h += hash(e.getKey()) ^ hash(e.getValue());
        return h;
    }

    private int json(JsonNode j) {
        work.element();
        if (j.isNumber()) {
            java.math.BigDecimal d = j.decimalValue();
            return d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
        }
        if (j.isArray()) {
            int h = 1;
            for (JsonNode e : j) h = 31 * h + json(e);
            return h;
        }
        if (j.isObject()) {
            int h = 0;
            for (Map.Entry<String, JsonNode> e : j.properties()) h += e.getKey().hashCode() ^ json(e.getValue());
            return h;
        }
        if (j.isTextual()) work.chars(j.textValue().length());
        return j.hashCode();
    }
}
