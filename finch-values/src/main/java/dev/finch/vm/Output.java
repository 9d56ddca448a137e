package dev.finch.vm;

import io.vavr.collection.Vector;

/**
 * The {@code say} text of an execution so far: immutable, and cheap to take at every pause — a persistent sequence
 * of chunks (one per stretch of running between pauses) that shares its earlier chunks with the snapshots taken
 * before it, so pausing and resuming cost what the resumed stretch says, not all the text said so far. The text is
 * joined into a {@link String} only when it is read ({@link #toString()}, once; every later read is free).
 */
public final class Output implements CharSequence {
    /** No text (no chunks: a run that says nothing loads no persistent collection's classes). */
    public static final Output EMPTY = new Output(null, 0);

    /** The chunks; null for {@link #EMPTY}. */
    private final Vector<String> chunks;
    private final int length;
    private volatile String text;

    private Output(Vector<String> chunks, int length) {
        this.chunks = chunks;
        this.length = length;
    }

    /** {@code text} as output. */
    public static Output of(String text) { return text.isEmpty() ? EMPTY : new Output(Vector.of(text), text.length()); }

    /** This text followed by {@code more}. */
    public Output plus(String more) {
        if (more.isEmpty()) return this;
        if (chunks == null) return new Output(Vector.of(more), more.length());
        return new Output(chunks.append(more), Math.addExact(length, more.length()));
    }

    /** Whether there is no text. */
    @Override public boolean isEmpty() { return length == 0; }

    /** The length in UTF-16 units, without joining the text. */
    @Override public int length() { return length; }

    @Override public char charAt(int index) { return toString().charAt(index); }

    @Override public CharSequence subSequence(int start, int end) { return toString().subSequence(start, end); }

    /** The whole text, joined when first asked. */
    @Override public String toString() {
        String t = text;
        if (t == null) {
            if (chunks == null) {
                t = "";
            } else if (chunks.size() == 1) {
                t = chunks.head();
            } else {
                StringBuilder b = new StringBuilder(length);
                for (String c : chunks) b.append(c);
                t = b.toString();
            }
            text = t;
        }
        return t;
    }

    @Override public boolean equals(Object o) { return o instanceof Output x && x.toString().equals(toString()); }

    @Override public int hashCode() { return toString().hashCode(); }
}
