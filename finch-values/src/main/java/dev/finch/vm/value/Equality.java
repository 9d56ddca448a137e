package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;

/**
 * One structural comparison ({@link Values#equal}), metered: each element it touches is counted in its
 * {@link Work}, and once it has entered a few containers it remembers the pairs of containers it proved equal (by
 * identity), so a structure that shares its parts — a list holding one list twice, doubled thirty times — costs
 * what its distinct parts cost, not what it would cost written out. A false anywhere ends the whole comparison, so
 * only proofs of equality are worth remembering. A container whose hash is known on both sides is compared by hash
 * first.
 */
final class Equality {
    /** Container pairs entered before the comparison starts remembering its proofs (small comparisons allocate nothing). */
    private static final int REMEMBER_AFTER = 16;

    private final Work work;
    private int entered;
    private HashSet<Pair> proven;

    Equality(Meter meter) { this.work = new Work(meter); }

    /** Whether {@code a} equals {@code b}, charging the work to the meter. */
    static boolean of(Object a, Object b, Meter meter) {
        Equality e = new Equality(meter);
        boolean r = e.equal(a, b);
        e.work.done();
        return r;
    }

    @SuppressWarnings("unchecked")
    boolean equal(Object a, Object b) {
        // Every element touched is counted, the same one on both sides too (that costs a step, not its size).
        work.element();
        if (a == b) return true;
        if (a == null || b == null) return false;
        // Scalars before any interface check (see Sizes.of: an interface check on a boxed number is slow).
        if (a instanceof Long || a instanceof Boolean) return a.equals(b);
        if (a instanceof Double x) return b instanceof Double y && Values.floatEquals(x, y);
        if (a instanceof String x) {
            if (!(b instanceof String y) || x.length() != y.length()) return false;
            work.chars(x.length());
            return x.equals(y);
        }
        if (a instanceof ListValue x) {
            if (!(b instanceof ListValue y) || x.size() != y.size() || Hashing.differ(x, y)) return false;
            if (known(x, y)) return true;
            Iterator<Object> i = x.iterator();
            Iterator<Object> j = y.iterator();
            while (i.hasNext()) if (!equal(i.next(), j.next())) return false;
            return proved(x, y);
        }
        if (a instanceof OptionValue x) return b instanceof OptionValue y && x.isSome() == y.isSome() && (!x.isSome() || equal(x.value(), y.value()));
        if (a instanceof ResultValue x) return b instanceof ResultValue y && x.isOk() == y.isOk() && equal(x.value(), y.value());
        if (a instanceof VariantValue x) return b instanceof VariantValue y && x.tag().equals(y.tag()) && equal(x.payload(), y.payload());
        if (a instanceof RecordValue x) {
            if (!(b instanceof RecordValue y) || x.size() != y.size() || Hashing.differ(x, y)) return false;
            if (known(x, y)) return true;
            for (int k = 0; k < x.size(); k++) if (!equal(x.get(k), y.get(k))) return false;
            return proved(x, y);
        }
        if (a instanceof JsonNode x) return b instanceof JsonNode y && json(x, y);
        if (a instanceof Map<?, ?> x) {
            if (!(b instanceof Map<?, ?> y) || x.size() != y.size() || Hashing.differ(x, y)) return false;
            if (known(x, y)) return true;
            Map<Object, Object> ym = (Map<Object, Object>) y;
            for (Map.Entry<?, ?> e : x.entrySet()) {
                // The lookup hashes and compares the key (metered too: a key's hash is cached once computed).
                Object other = ym.get(e.getKey());
                if (other == null && !ym.containsKey(e.getKey())) return false;
                if (!equal(e.getValue(), other)) return false;
            }
            return proved(x, y);
        }
        return a.equals(b);
    }

    /** Json by value: numbers numerically, objects regardless of key order, everything else as Jackson compares it. */
    private boolean json(JsonNode x, JsonNode y) {
        if (x == y) return true;
        work.element();
        if (x.isNumber() && y.isNumber()) return x.decimalValue().compareTo(y.decimalValue()) == 0;
        if (x.isArray()) {
            if (!y.isArray() || x.size() != y.size()) return false;
            if (known(x, y)) return true;
            for (int i = 0; i < x.size(); i++) if (!json(x.get(i), y.get(i))) return false;
            return proved(x, y);
        }
        if (x.isObject()) {
            if (!y.isObject() || x.size() != y.size()) return false;
            if (known(x, y)) return true;
            for (Map.Entry<String, JsonNode> e : x.properties()) {
                JsonNode other = y.get(e.getKey());
                if (other == null || !json(e.getValue(), other)) return false;
            }
            return proved(x, y);
        }
        if (x.isTextual()) work.chars(x.textValue().length());
        return x.equals(y);
    }

    private boolean known(Object x, Object y) {
        entered++;
        return proven != null && proven.contains(new Pair(x, y));
    }

    private boolean proved(Object x, Object y) {
        if (entered > REMEMBER_AFTER) {
            if (proven == null) proven = new HashSet<>();
            proven.add(new Pair(x, y));
        }
        return true;
    }

    /** Two containers by identity. */
    private static final class Pair {
        private final Object a;
        private final Object b;

        Pair(Object a, Object b) { this.a = a; this.b = b; }

        @Override public boolean equals(Object o) { return o instanceof Pair p && p.a == a && p.b == b; }

        @Override public int hashCode() { return 31 * System.identityHashCode(a) + System.identityHashCode(b); }
    }
}
