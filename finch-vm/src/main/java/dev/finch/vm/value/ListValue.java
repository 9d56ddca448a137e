package dev.finch.vm.value;

import io.vavr.collection.Vector;
import java.util.Iterator;
import java.util.List;

/**
 * A {@code list<T>} value: immutable and persistent, so {@code list-append} in a loop is not quadratic. Backed by
 * vavr's {@link Vector} (a bit-mapped trie); this class keeps that choice in one place.
 */
public final class ListValue implements Iterable<Object> {
    private static final ListValue EMPTY = new ListValue(Vector.empty());

    private final Vector<Object> items;

    private ListValue(Vector<Object> items) { this.items = items; }

    public static ListValue empty() { return EMPTY; }

    public static ListValue of(Object... items) { return new ListValue(Vector.of(items)); }

    public static ListValue from(Iterable<?> items) { return new ListValue(Vector.ofAll(items)); }

    public int size() { return items.size(); }

    public boolean isEmpty() { return items.isEmpty(); }

    public Object get(int index) { return items.get(index); }

    public ListValue append(Object item) { return new ListValue(items.append(item)); }

    public ListValue prepend(Object item) { return new ListValue(items.prepend(item)); }

    /** All but the first element; the list must not be empty. */
    public ListValue tail() { return new ListValue(items.tail()); }

    /** A new list with the element at {@code index} replaced; the index must be in range. */
    public ListValue set(int index, Object item) { return new ListValue(items.update(index, item)); }

    /** The first {@code n} elements ({@code 0 <= n <= size()}). */
    public ListValue take(int n) { return new ListValue(items.take(n)); }

    /** All but the first {@code n} elements ({@code 0 <= n <= size()}). */
    public ListValue drop(int n) { return new ListValue(items.drop(n)); }

    /** The elements in reverse order. */
    public ListValue reverse() { return new ListValue(items.reverse()); }

    /** This list followed by {@code other}. */
    public ListValue concat(ListValue other) { return new ListValue(items.appendAll(other.items)); }

    /** A read-only java.util view. */
    public List<Object> asJava() { return items.asJava(); }

    @Override public Iterator<Object> iterator() { return items.iterator(); }

    /** Finch's equality ({@link Values#equal}), element by element. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    @Override public String toString() { return items.mkString("[", " ", "]"); }
}
