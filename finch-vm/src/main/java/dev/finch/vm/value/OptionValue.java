package dev.finch.vm.value;

/** An {@code option<T>}: {@link #NONE} or a present payload (boxed). */
public final class OptionValue {
    public static final OptionValue NONE = new OptionValue(null, false);

    private final Object value;
    private final boolean present;

    private OptionValue(Object value, boolean present) { this.value = value; this.present = present; }

    public static OptionValue some(Object value) { return new OptionValue(value, true); }

    public boolean isSome() { return present; }

    /** The payload; only meaningful when {@link #isSome()}. */
    public Object value() { return value; }

    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
