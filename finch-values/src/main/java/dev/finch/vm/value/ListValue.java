package dev.finch.vm.value;

import io.vavr.collection.Vector;
import java.util.Iterator;
import java.util.List;

/**
 * A {@code list<T>} value: immutable and persistent, so {@code list-append} in a loop is not quadratic. Backed by
 * vavr's {@link Vector} (a bit-mapped trie); this class keeps that choice in one place. Each list knows its
 * logical size ({@link Sizes}: its elements' sizes summed, a shared element once per use), kept exact in constant
 * time by every operation here (a sublist in time proportional to the smaller part), and is refused above the
 * current run's memory limit when built; its hash is computed once, when first asked.
 */
public final class ListValue implements Iterable<Object>, Sized {
    private static final ListValue EMPTY = new ListValue(Vector.empty(), Sizes.VALUE);

    private final Vector<Object> items;
    private final long bytes;
    /** The cached {@link Values#hash} (0: not yet computed, unless {@link #hashIsZero}); see {@code Hashing}. */
    int hash;
    boolean hashIsZero;

    private ListValue(Vector<Object> items, long bytes) {
        this.items = items;
        this.bytes = Sizes.admit(bytes, "a list");
    }

    public static ListValue empty() { return EMPTY; }

    public static ListValue of(Object... items) {
        long bytes = Sizes.VALUE;
        for (Object e : items) bytes = Sizes.plus(bytes, Sizes.element(e));
        return new ListValue(Vector.of(items), bytes);
    }

    public static ListValue from(Iterable<?> items) {
        Vector<Object> v = Vector.ofAll(items);
        long bytes = Sizes.VALUE;
        for (Object e : v) bytes = Sizes.plus(bytes, Sizes.element(e));
        return new ListValue(v, bytes);
    }

    public int size() { return items.size(); }

    public boolean isEmpty() { return items.isEmpty(); }

    public Object get(int index) { return items.get(index); }

    @Override public long logicalBytes() { return bytes; }

    /** The logical size this list would have with {@code item} added (to check before building it). */
    public long bytesWith(Object item) { return Sizes.plus(bytes, Sizes.element(item)); }

    public ListValue append(Object item) { return new ListValue(items.append(item), bytesWith(item)); }

    public ListValue prepend(Object item) { return new ListValue(items.prepend(item), bytesWith(item)); }

    /** All but the first element; the list must not be empty. */
    public ListValue tail() { return new ListValue(items.tail(), minus(bytes, Sizes.element(items.head()))); }

    /** A new list with the element at {@code index} replaced; the index must be in range. */
    public ListValue set(int index, Object item) {
        return new ListValue(items.update(index, item), Sizes.plus(minus(bytes, Sizes.element(items.get(index))), Sizes.element(item)));
    }

    /** The first {@code n} elements ({@code 0 <= n <= size()}). */
    public ListValue take(int n) { return new ListValue(items.take(n), prefixBytes(n)); }

    /** All but the first {@code n} elements ({@code 0 <= n <= size()}). */
    public ListValue drop(int n) { return new ListValue(items.drop(n), Sizes.plus(Sizes.VALUE, minus(bytes, prefixBytes(n)))); }

    /** The elements in reverse order. */
    public ListValue reverse() { return new ListValue(items.reverse(), bytes); }

    /** This list followed by {@code other}. */
    public ListValue concat(ListValue other) { return new ListValue(items.appendAll(other.items), concatBytes(other)); }

    /** The logical size of {@code this} followed by {@code other}. */
    public long concatBytes(ListValue other) { return Sizes.plus(bytes, minus(other.bytes, Sizes.VALUE)); }

    /** A read-only java.util view. */
    public List<Object> asJava() { return items.asJava(); }

    @Override public Iterator<Object> iterator() { return items.iterator(); }

    /** Finch's equality ({@link Values#equal}), element by element. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    /** A short, typeless rendering for debugging (the display of a value needs its type: {@link Values#display}). */
    @Override public String toString() {
        StringBuilder b = new StringBuilder("[");
        for (Object e : items) {
            if (b.length() > 1) b.append(' ');
            if (b.length() > 200) return b.append("… (").append(size()).append(" elements)]").toString();
            b.append(e instanceof ListValue ? "[…]" : String.valueOf(e));
        }
        return b.append(']').toString();
    }

    /** The logical size of the first {@code n} elements as a list, walking the smaller side. */
    private long prefixBytes(int n) {
        if (n <= size() / 2) {
            long b = Sizes.VALUE;
            for (int i = 0; i < n; i++) b = Sizes.plus(b, Sizes.element(items.get(i)));
            return b;
        }
        long rest = 0;
        for (int i = n; i < size(); i++) rest = Sizes.plus(rest, Sizes.element(items.get(i)));
        return minus(bytes, rest);
    }

    /** {@code a - b} for sizes, where a saturated {@code a} stays saturated. */
    private static long minus(long a, long b) { return a == Long.MAX_VALUE ? a : Math.max(0, a - b); }
}
