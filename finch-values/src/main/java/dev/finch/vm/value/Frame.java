package dev.finch.vm.value;

import dev.finch.ir.type.Type;
import java.util.List;

/**
 * One saved activation of a suspended word: which word, which resume point, and the values of its live stack
 * slots and locals (boxed, in the compiler's slot order) with their static types. Only values, types and
 * coordinates: it serializes ({@code dev.finch.vm.persist}).
 */
public record Frame(String word, int point, Object[] values, List<Type> types) {
    public Frame {
        types = List.copyOf(types);
    }
}
