package dev.finch.vm.value;

/**
 * A record: values in the canonical (sorted) field order of its type. Knows its logical size ({@link Sizes}) and
 * caches its hash, like a list.
 */
public final class RecordValue implements Sized {
    private final Object[] values;
    private final long bytes;
    /** The cached {@link Values#hash} (0: not yet computed, unless {@link #hashIsZero}); see {@code Hashing}. */
    int hash;
    boolean hashIsZero;

    public RecordValue(Object[] values) {
        this.values = values;
        long b = Sizes.VALUE;
        for (Object v : values) b = Sizes.plus(b, Sizes.element(v));
        this.bytes = Sizes.admit(b, "a record");
    }

    private RecordValue(Object[] values, long bytes) {
        this.values = values;
        this.bytes = Sizes.admit(bytes, "a record");
    }

    public int size() { return values.length; }

    public Object get(int index) { return values[index]; }

    @Override public long logicalBytes() { return bytes; }

    /** A copy with one field replaced. */
    public RecordValue with(int index, Object value) {
        Object[] copy = values.clone();
        copy[index] = value;
        long b = bytes == Long.MAX_VALUE ? bytes : Math.max(0, bytes - Sizes.element(values[index]));
        return new RecordValue(copy, Sizes.plus(b, Sizes.element(value)));
    }

    /** Finch's equality ({@link Values#equal}), field by field. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
