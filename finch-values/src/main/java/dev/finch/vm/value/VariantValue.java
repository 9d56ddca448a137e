package dev.finch.vm.value;

/**
 * A closed-variant value: its tag and payload ({@link Unit#INSTANCE} for a payload-free tag), with its logical
 * size ({@link Sizes}).
 */
public final class VariantValue implements Sized {
    private final String tag;
    private final Object payload;
    private final long bytes;

    public VariantValue(String tag, Object payload) {
        this.tag = tag;
        this.payload = payload;
        this.bytes = Sizes.admit(Sizes.plus(Sizes.VALUE, Sizes.of(payload)), "a variant");
    }

    public String tag() { return tag; }

    public Object payload() { return payload; }

    @Override public long logicalBytes() { return bytes; }

    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }

    @Override public String toString() { return tag + "(" + payload + ")"; }
}
