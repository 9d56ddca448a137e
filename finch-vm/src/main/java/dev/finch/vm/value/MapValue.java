package dev.finch.vm.value;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import org.pcollections.OrderedPMap;

/**
 * A {@code map<K,V>} value: immutable, persistent and insertion-ordered (backed by pcollections'
 * {@link OrderedPMap}; this class keeps that choice in one place), keyed by Finch's equality — a key goes in through
 * {@link Values#key}. A read-only {@link Map}. Like a list, it knows its logical size ({@link Sizes}), kept exact in
 * constant time by {@link #plus} and {@link #minus} and refused above the current run's memory limit, and caches its
 * hash.
 */
public final class MapValue extends AbstractMap<Object, Object> implements Sized {
    private static final MapValue EMPTY = new MapValue(OrderedPMap.empty(), Sizes.VALUE);

    private final OrderedPMap<Object, Object> entries;
    private final long bytes;
    /** The cached {@link Values#hash} (0: not yet computed, unless {@link #hashIsZero}); see {@code Hashing}. */
    int hash;
    boolean hashIsZero;

    private MapValue(OrderedPMap<Object, Object> entries, long bytes) {
        this.entries = entries;
        this.bytes = Sizes.admit(bytes, "a map");
    }

    public static MapValue empty() { return EMPTY; }

    /** The map of {@code keysAndValues} (key, value, key, value, …), later keys replacing earlier equal ones. */
    public static MapValue of(Object... keysAndValues) {
        MapValue m = EMPTY;
        for (int i = 0; i < keysAndValues.length; i += 2) m = m.plus(Values.key(keysAndValues[i]), keysAndValues[i + 1]);
        return m;
    }

    /** {@code m} as a map value: itself when it is one, else its entries in its iteration order. */
    public static MapValue from(Map<?, ?> m) {
        if (m instanceof MapValue v) return v;
        MapValue out = EMPTY;
        for (Map.Entry<?, ?> e : m.entrySet()) out = out.plus(e.getKey(), e.getValue());
        return out;
    }

    @Override public long logicalBytes() { return bytes; }

    /** The logical size this map would have with {@code key} set to {@code value} (to check before building it). */
    public long bytesWith(Object key, Object value) {
        Object k = Values.key(key);
        long b = bytes;
        Object old = entries.get(k);
        if (old != null) b = minus(b, Sizes.entry(k, old));
        return Sizes.plus(b, Sizes.entry(k, value));
    }

    /** A new map with {@code key} set (an existing key keeps its position). */
    public MapValue plus(Object key, Object value) {
        Object k = Values.key(key);
        return new MapValue(entries.plus(k, value), bytesWith(k, value));
    }

    /** A new map without {@code key}; this map when the key is absent. */
    public MapValue minus(Object key) {
        Object k = Values.key(key);
        Object old = entries.get(k);
        if (old == null) return this;
        return new MapValue(entries.minus(k), minus(bytes, Sizes.entry(k, old)));
    }

    @Override public Object get(Object key) { return entries.get(key); }

    /**
     * Whether {@code key} is present, in the time of a lookup: {@link OrderedPMap} inherits {@code AbstractMap}'s
     * linear scan, and a map value never holds null.
     */
    @Override public boolean containsKey(Object key) { return entries.get(key) != null; }

    @Override public int size() { return entries.size(); }

    @Override public Set<Map.Entry<Object, Object>> entrySet() { return entries.entrySet(); }

    /** Finch's equality ({@link Values#equal}): the same entries, in any order. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    @Override public String toString() { return "map of " + size() + " entries"; }

    private static long minus(long a, long b) { return a == Long.MAX_VALUE ? a : Math.max(0, a - b); }
}
