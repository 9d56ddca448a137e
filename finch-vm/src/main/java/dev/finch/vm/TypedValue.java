package dev.finch.vm;

import dev.finch.ir.type.Type;

/**
 * A VM value with its static type. Representation by type: int {@code Long}, float {@code Double}, bool
 * {@code Boolean}, string {@code String}, unit {@link dev.finch.vm.value.Unit}, and the classes of
 * {@code dev.finch.vm.value} for the rest. Values are immutable.
 */
public record TypedValue(Type type, Object value) {
    /** The D4 display rendering, e.g. {@code 42}, {@code "text"}, {@code (some 1)}. */
    public String display() { return dev.finch.vm.value.Values.display(type, value); }
}
