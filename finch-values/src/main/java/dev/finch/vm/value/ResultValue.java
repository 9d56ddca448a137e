package dev.finch.vm.value;

/** A {@code result<T,E>}: ok or err, with its payload (boxed) and its logical size ({@link Sizes}). */
public final class ResultValue implements Sized {
    private final boolean ok;
    private final Object value;
    private final long bytes;

    public ResultValue(boolean isOk, Object value) {
        this.ok = isOk;
        this.value = value;
        this.bytes = Sizes.admit(Sizes.plus(Sizes.VALUE, Sizes.of(value)), "a result");
    }

    public static ResultValue ok(Object v) { return new ResultValue(true, v); }

    public static ResultValue err(Object v) { return new ResultValue(false, v); }

    public boolean isOk() { return ok; }

    /** The ok or err payload. */
    public Object value() { return value; }

    @Override public long logicalBytes() { return bytes; }

    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    @Override public String toString() { return (ok ? "ok(" : "err(") + value + ")"; }
}
