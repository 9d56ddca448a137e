package dev.finch.vm.value;

/** A {@code result<T,E>}: ok or err, with its payload (boxed). */
public record ResultValue(boolean isOk, Object value) {
    public static ResultValue ok(Object v) { return new ResultValue(true, v); }

    public static ResultValue err(Object v) { return new ResultValue(false, v); }

    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
