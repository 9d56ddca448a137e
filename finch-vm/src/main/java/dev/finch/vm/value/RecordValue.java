package dev.finch.vm.value;

import java.util.Arrays;

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

    @Override public boolean equals(Object o) { return o instanceof RecordValue r && Arrays.equals(values, r.values); }

    @Override public int hashCode() { return Arrays.hashCode(values); }
}
