package dev.finch.ir.checked;

import dev.finch.ir.type.Type;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.UnaryOperator;

/**
 * An immutable operand row (bottom to top) that shares its structure with the rows it was made from: a 32-way trie
 * of full leaves plus a tail holding the top 1–32 types. Pushing or popping the top copies at most the tail and one
 * path of the trie, and reading any position walks at most one path (three steps for 32,768 values).
 *
 * <p>The checked IR records the row before and after every node and at every block's entry and exit. Copied rows
 * made that O(nodes × depth): 20,000 literal pushes were 2·10^8 references, 6 GB and 18 s to verify. The verifier
 * builds its rows as {@code Row}s, so a snapshot costs O(1) and a checked body is linear in its nodes;
 * {@link Checked.CheckedBlock} keeps a {@code Row} as it is instead of copying it.
 */
public final class Row extends AbstractList<Type> implements RandomAccess, dev.finch.ir.type.Type.Frozen {
    private static final int BITS = 5;
    private static final int WIDTH = 1 << BITS;
    private static final int MASK = WIDTH - 1;
    private static final Object[] EMPTY_NODE = new Object[WIDTH];

    /** The empty row. */
    public static final Row EMPTY = new Row(0, BITS, EMPTY_NODE, new Object[0]);

    private final int size;
    /** The level of the root: BITS × (trie height); leaves are at level 0. */
    private final int shift;
    private final Object[] root;
    private final Object[] tail;

    private Row(int size, int shift, Object[] root, Object[] tail) {
        this.size = size;
        this.shift = shift;
        this.root = root;
        this.tail = tail;
    }

    /**
     * The row of {@code types} (bottom to top): itself when it already is one. Built whole — full leaves, then the
     * trie above them — in one pass, where pushing type by type would copy the tail at every push (a session's stack
     * becomes a row at every submission).
     */
    public static Row of(List<Type> types) {
        if (types instanceof Row r) return r;
        Object[] all = types.toArray();
        int n = all.length;
        if (n == 0) return EMPTY;
        for (Object t : all) java.util.Objects.requireNonNull(t, "a row holds no null type");
        int tailOffset = n < WIDTH ? 0 : ((n - 1) >>> BITS) << BITS;
        Object[] tail = Arrays.copyOfRange(all, tailOffset, n);
        if (tailOffset == 0) return new Row(n, BITS, EMPTY_NODE, tail);
        // The trie: the full leaves, grouped 32 to a node level by level until one root of at most 32 children.
        Object[] level = new Object[tailOffset >>> BITS];
        for (int i = 0; i < level.length; i++) level[i] = Arrays.copyOfRange(all, i << BITS, (i + 1) << BITS);
        int shift = BITS;
        while (level.length > WIDTH) {
            Object[] up = new Object[(level.length + WIDTH - 1) >>> BITS];
            for (int i = 0; i < up.length; i++) {
                Object[] node = new Object[WIDTH];
                System.arraycopy(level, i << BITS, node, 0, Math.min(WIDTH, level.length - (i << BITS)));
                up[i] = node;
            }
            level = up;
            shift += BITS;
        }
        return new Row(n, shift, Arrays.copyOf(level, WIDTH), tail);
    }

    @Override public int size() { return size; }

    @Override public Type get(int index) {
        if (index < 0 || index >= size) throw new IndexOutOfBoundsException("index " + index + " of a row of " + size);
        return (Type) leafFor(index)[index & MASK];
    }

    /** Bottom to top, a leaf at a time (not a walk from the root for every position). */
    @Override public java.util.Iterator<Type> iterator() { return new Types(); }

    /** {@link #iterator()}: the current leaf, found again only when the position enters the next one. */
    private final class Types implements java.util.Iterator<Type> {
        private int next;
        private Object[] leaf;

        @Override public boolean hasNext() { return next < size; }

        @Override public Type next() {
            if (next >= size) throw new java.util.NoSuchElementException();
            if (leaf == null || (next & MASK) == 0) leaf = leafFor(next);
            return (Type) leaf[next++ & MASK];
        }
    }

    /** The topmost type; the row must not be empty. */
    public Type top() { return get(size - 1); }

    private int tailOffset() { return size < WIDTH ? 0 : ((size - 1) >>> BITS) << BITS; }

    private Object[] leafFor(int index) {
        if (index >= tailOffset()) return tail;
        Object[] node = root;
        for (int level = shift; level > 0; level -= BITS) node = (Object[]) node[(index >>> level) & MASK];
        return node;
    }

    /** This row with {@code t} on top. */
    public Row push(Type t) {
        java.util.Objects.requireNonNull(t, "a row holds no null type");
        if (size - tailOffset() < WIDTH) {
            Object[] newTail = Arrays.copyOf(tail, tail.length + 1);
            newTail[tail.length] = t;
            return new Row(size + 1, shift, root, newTail);
        }
        // The tail is full: it becomes a leaf of the trie, and t starts a new tail.
        Object[] newRoot;
        int newShift = shift;
        if ((size >>> BITS) > (1 << shift)) {
            newRoot = new Object[WIDTH];
            newRoot[0] = root;
            newRoot[1] = path(shift, tail);
            newShift += BITS;
        } else {
            newRoot = pushLeaf(shift, root, tail);
        }
        return new Row(size + 1, newShift, newRoot, new Object[] {t});
    }

    /** This row with {@code types} pushed in order (the last one on top). */
    public Row pushAll(List<Type> types) {
        Row r = this;
        for (Type t : types) r = r.push(t);
        return r;
    }

    private Object[] pushLeaf(int level, Object[] parent, Object[] leaf) {
        int sub = ((size - 1) >>> level) & MASK;
        Object[] copy = parent.clone();
        Object[] insert;
        if (level == BITS) {
            insert = leaf;
        } else {
            Object[] child = (Object[]) parent[sub];
            insert = child != null ? pushLeaf(level - BITS, child, leaf) : path(level - BITS, leaf);
        }
        copy[sub] = insert;
        return copy;
    }

    private static Object[] path(int level, Object[] leaf) {
        if (level == 0) return leaf;
        Object[] node = new Object[WIDTH];
        node[0] = path(level - BITS, leaf);
        return node;
    }

    /** This row without its top; the row must not be empty. */
    public Row pop() {
        if (size == 0) throw new IllegalStateException("pop of an empty row");
        if (size == 1) return EMPTY;
        if (size - tailOffset() > 1) return new Row(size - 1, shift, root, Arrays.copyOf(tail, tail.length - 1));
        // The tail empties: the trie's last leaf becomes the tail.
        Object[] newTail = leafFor(size - 2);
        Object[] newRoot = popLeaf(shift, root);
        int newShift = shift;
        if (newRoot == null) newRoot = EMPTY_NODE;
        if (shift > BITS && newRoot[1] == null) {
            newRoot = (Object[]) newRoot[0];
            newShift -= BITS;
        }
        return new Row(size - 1, newShift, newRoot, newTail);
    }

    private Object[] popLeaf(int level, Object[] node) {
        int sub = ((size - 2) >>> level) & MASK;
        if (level > BITS) {
            Object[] child = popLeaf(level - BITS, (Object[]) node[sub]);
            if (child == null && sub == 0) return null;
            Object[] copy = node.clone();
            copy[sub] = child;
            return copy;
        }
        if (sub == 0) return null;
        Object[] copy = node.clone();
        copy[sub] = null;
        return copy;
    }

    /** This row with its top {@code n} types removed. */
    public Row drop(int n) {
        Row r = this;
        for (int i = 0; i < n; i++) r = r.pop();
        return r;
    }

    /**
     * This row with {@code bottom} (bottom to top) placed under it. Rebuilds the row: an open stack materializes a
     * word's inputs only after its body has popped every value above them, which pays for the copy.
     */
    public Row under(List<Type> bottom) {
        Row r = EMPTY.pushAll(bottom);
        for (int i = 0; i < size; i++) r = r.push(get(i));
        return r;
    }

    /**
     * How many positions from the bottom {@code a} and {@code b} hold the very same type objects, found through the
     * trie nodes they share: O(32 × height) however deep the rows are. Two rows of one body that branched from one
     * state share everything below what the branches touched, so merging them compares only the rest.
     */
    public static int sharedPrefix(Row a, Row b) {
        int n = Math.min(a.size, b.size);
        int trie = Math.min(a.tailOffset(), b.tailOffset());
        int p = 0;
        if (trie > 0) {
            Object[] x = a.root;
            Object[] y = b.root;
            int sx = a.shift;
            int sy = b.shift;
            // The first child of a taller root covers exactly what a shorter root does.
            while (sx > sy) { x = (Object[]) x[0]; sx -= BITS; }
            while (sy > sx) { y = (Object[]) y[0]; sy -= BITS; }
            p = Math.min(trie, prefix(x, y, sx, 0, trie));
        }
        while (p < n && a.get(p) == b.get(p)) p++;
        return p;
    }

    /** The first index below {@code limit} where nodes {@code x} and {@code y} (at {@code level}, from {@code base}) differ. */
    private static int prefix(Object[] x, Object[] y, int level, int base, int limit) {
        if (x == y) return base + (WIDTH << level);
        if (level == 0) {
            for (int j = 0; j < WIDTH; j++) if (base + j >= limit || x[j] != y[j]) return base + j;
            return base + WIDTH;
        }
        for (int j = 0; j < WIDTH; j++) {
            int childBase = base + (j << level);
            if (childBase >= limit) return childBase;
            Object cx = x[j];
            Object cy = y[j];
            if (cx == cy) continue;
            if (cx == null || cy == null) return childBase;
            int q = prefix((Object[]) cx, (Object[]) cy, level - BITS, childBase, limit);
            if (q < childBase + (1 << level)) return q;
        }
        return base + (WIDTH << level);
    }

    /**
     * Maps rows type by type, sharing the work between the rows it maps: a trie node that many rows hold (the
     * unchanged bottom of a stack) is mapped once. A row whose types all map to themselves is returned as it is.
     */
    public static final class Mapping {
        private final UnaryOperator<Type> f;
        private final IdentityHashMap<Object[], Object[]> memo = new IdentityHashMap<>(8);

        public Mapping(UnaryOperator<Type> f) { this.f = java.util.Objects.requireNonNull(f, "f"); }

        /** {@code row} with this mapping's function applied to every type. */
        public Row apply(Row row) {
            Object[] newRoot = mapNode(row.root, row.shift, f, memo);
            Object[] newTail = mapLeaf(row.tail, f);
            if (newRoot == row.root && newTail == row.tail) return row;
            return new Row(row.size, row.shift, newRoot, newTail);
        }
    }

    private static Object[] mapNode(Object[] node, int level, UnaryOperator<Type> f, IdentityHashMap<Object[], Object[]> memo) {
        if (node == EMPTY_NODE) return node;
        Object[] done = memo.get(node);
        if (done != null) return done;
        Object[] out;
        if (level == 0) {
            out = mapLeaf(node, f);
        } else {
            out = node;
            for (int i = 0; i < node.length && node[i] != null; i++) {
                Object[] child = mapNode((Object[]) node[i], level - BITS, f, memo);
                if (child != node[i]) {
                    if (out == node) out = node.clone();
                    out[i] = child;
                }
            }
        }
        memo.put(node, out);
        return out;
    }

    private static Object[] mapLeaf(Object[] leaf, UnaryOperator<Type> f) {
        Object[] out = leaf;
        for (int i = 0; i < leaf.length && leaf[i] != null; i++) {
            Type t = f.apply((Type) leaf[i]);
            if (t != leaf[i]) {
                if (out == leaf) out = leaf.clone();
                out[i] = t;
            }
        }
        return out;
    }
}
