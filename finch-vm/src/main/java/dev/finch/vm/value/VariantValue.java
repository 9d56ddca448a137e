package dev.finch.vm.value;

/** A closed-variant value: its tag and payload ({@link Unit#INSTANCE} for a payload-free tag). */
public record VariantValue(String tag, Object payload) {
    /** Finch's equality ({@link Values#equal}). */
    @Override public boolean equals(Object o) { return Values.equal(this, o); }

    @Override public int hashCode() { return Values.hash(this); }
}
