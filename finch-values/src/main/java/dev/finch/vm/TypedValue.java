package dev.finch.vm;

import dev.finch.ir.type.Type;

/**
 * A VM value with its static type. Representation by type: int {@code Long}, float {@code Double}, bool
 * {@code Boolean}, string {@code String}, unit {@link dev.finch.vm.value.Unit}, and the classes of
 * {@code dev.finch.vm.value} for the rest. Values are immutable. {@link Value} is the public form an embedder holds.
 */
public record TypedValue(Type type, Object value) {
    /** The VM form of a public value. */
    public static TypedValue of(Value v) { return new TypedValue(v.type(), ValueConversion.toInternal(v)); }

    /**
     * The D4 display rendering, e.g. {@code 42}, {@code "text"}, {@code (some 1)}, cut at {@link
     * dev.finch.vm.value.Values#DISPLAY_LIMIT} characters with a note of the whole value's size.
     */
    public String display() { return dev.finch.vm.value.Values.display(type, value); }

    /** The display cut at {@code limit} characters (see {@link dev.finch.vm.value.Values#display(Type, Object, int)}). */
    public String display(int limit) { return dev.finch.vm.value.Values.display(type, value, limit); }

    /** This value in its public form. */
    public Value toValue() { return ValueConversion.fromInternal(type, value); }
}
