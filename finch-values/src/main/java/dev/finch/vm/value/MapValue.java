package dev.finch.vm.value;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A {@code map<K,V>} value: immutable, persistent and insertion-ordered, keyed by Finch's equality — a key goes in through
 * {@link Values#key}. A read-only {@link Map}. Like a list, it knows its logical size ({@link Sizes}), kept exact in
 * constant time by {@link #plus} and {@link #minus} and refused above the current run's memory limit, and caches its
 * hash.
 *
 * <p>Backed by vavr, the one persistent-collection library of the VM (lists are its {@code Vector}), and this class
 * keeps that choice in one place: a hash array mapped trie from each key to its slot (its insertion number and value)
 * and a red-black tree from insertion number to key, for the order. A lookup is the trie's; setting a new key or
 * removing one costs both, O(log n); setting an existing key keeps its number, so its position.
 */
public final class MapValue extends AbstractMap<Object, Object> implements Sized {
    private static final MapValue EMPTY = new MapValue(HashMap.empty(), TreeMap.empty(), 0, Sizes.VALUE);

    /** A key's place in the insertion order and its value. */
    private record Slot(long order, Object value) { }

    private final HashMap<Object, Slot> slots;
    private final TreeMap<Long, Object> order;
    /** The insertion number the next new key gets. */
    private final long next;
    private final long bytes;
    /** The cached {@link Values#hash} (0: not yet computed, unless {@link #hashIsZero}); see {@code Hashing}. */
    int hash;
    boolean hashIsZero;

    private MapValue(HashMap<Object, Slot> slots, TreeMap<Long, Object> order, long next, long bytes) {
        this.slots = slots;
        this.order = order;
        this.next = next;
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
        Object old = get(k);
        if (old != null) b = minus(b, Sizes.entry(k, old));
        return Sizes.plus(b, Sizes.entry(k, value));
    }

    /** A new map with {@code key} set (an existing key keeps its position). */
    public MapValue plus(Object key, Object value) {
        Object k = Values.key(key);
        long bytes = bytesWith(k, value);
        Slot old = slots.get(k).getOrNull();
        if (old != null) return new MapValue(slots.put(k, new Slot(old.order(), value)), order, next, bytes);
        return new MapValue(slots.put(k, new Slot(next, value)), order.put(next, k), next + 1, bytes);
    }

    /** A new map without {@code key}; this map when the key is absent. */
    public MapValue minus(Object key) {
        Object k = Values.key(key);
        Slot old = slots.get(k).getOrNull();
        if (old == null) return this;
        return new MapValue(slots.remove(k), order.remove(old.order()), next, minus(bytes, Sizes.entry(k, old.value())));
    }

    @Override public Object get(Object key) {
        Slot s = slots.get(key).getOrNull();
        return s == null ? null : s.value();
    }

    /** Whether {@code key} is present, in the time of a lookup (not {@code AbstractMap}'s scan). */
    @Override public boolean containsKey(Object key) { return slots.containsKey(key); }

    @Override public int size() { return slots.size(); }

    /** The entries in insertion order, read-only. */
    @Override public Set<Map.Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override public Iterator<Map.Entry<Object, Object>> iterator() {
                Iterator<Object> keys = order.valuesIterator();
                return new Iterator<>() {
                    @Override public boolean hasNext() { return keys.hasNext(); }

                    @Override public Map.Entry<Object, Object> next() {
                        Object k = keys.next();
                        return new AbstractMap.SimpleImmutableEntry<>(k, slots.get(k).get().value());
                    }
                };
            }

            @Override public int size() { return slots.size(); }
        };
    }

    /** Finch's equality ({@link Values#equal}): the same entries, in any order. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    @Override public String toString() { return "map of " + size() + " entries"; }

    private static long minus(long a, long b) { return a == Long.MAX_VALUE ? a : Math.max(0, a - b); }
}
