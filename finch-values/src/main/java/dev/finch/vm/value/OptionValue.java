package dev.finch.vm.value;

/** An {@code option<T>}: {@link #NONE} or a present payload (boxed), with its logical size ({@link Sizes}). */
public final class OptionValue implements Sized {
    public static final OptionValue NONE = new OptionValue(null, false, Sizes.VALUE);

    private final Object value;
    private final boolean present;
    private final long bytes;

    private OptionValue(Object value, boolean present, long bytes) {
        this.value = value;
        this.present = present;
        this.bytes = bytes;
    }

    public static OptionValue some(Object value) {
        return new OptionValue(value, true, Sizes.admit(Sizes.plus(Sizes.VALUE, Sizes.of(value)), "an option"));
    }

    public boolean isSome() { return present; }

    /** The payload; only meaningful when {@link #isSome()}. */
    public Object value() { return value; }

    @Override public long logicalBytes() { return bytes; }

    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
