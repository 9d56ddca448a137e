package dev.finch.vm.runtime;

/**
 * One saved activation of a suspended word: which word, which resume point, and the typed values of its live
 * stack slots and locals (boxed, in the compiler's slot order). Only values and coordinates: it serializes.
 */
public record Frame(String word, int point, Object[] values) { }
