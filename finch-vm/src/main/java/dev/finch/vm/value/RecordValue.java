package dev.finch.vm.value;

/** A record: values in the canonical (sorted) field order of its type. */
public final class RecordValue {
    private final Object[] values;

    public RecordValue(Object[] values) { this.values = values; }

    public int size() { return values.length; }

    public Object get(int index) { return values[index]; }

    /** A copy with one field replaced. */
    public RecordValue with(int index, Object value) {
        Object[] copy = values.clone();
        copy[index] = value;
        return new RecordValue(copy);
    }

    /** Finch's equality ({@link Values#equal}), field by field. */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
