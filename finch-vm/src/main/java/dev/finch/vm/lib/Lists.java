package dev.finch.vm.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;

/**
 * Lists: homogeneous, immutable and persistent ({@link ListValue}), so building one element by element is not
 * quadratic. Positions are zero-based; a word that builds a list checks its size against the run's memory limit
 * before building it.
 */
public final class Lists {
    private Lists() { }

    /** What one element is charged against the memory limit. */
    static final long ELEMENT_BYTES = 16;

    @Word(name = "list-append", category = Category.LIST, doc = "A new list with the value added at the end.")
    @Overload(sig = "list<a> a -> list<a>")
    public static Object listAppend(Ctx ctx, ListValue l, Object item, Origin o) {
        reserve(ctx, l.size() + 1L, "list-append", o);
        return l.append(item);
    }

    @Word(name = "list-prepend", category = Category.LIST, doc = "A new list with the value added at the front (cons).")
    @Overload(sig = "a list<a> -> list<a>")
    public static Object listPrepend(Ctx ctx, Object item, ListValue l, Origin o) {
        reserve(ctx, l.size() + 1L, "list-prepend", o);
        return l.prepend(item);
    }

    @Word(name = "list-get", category = Category.LIST, doc = "The element at a zero-based index, or none.")
    @Overload(sig = "list<a> int -> option<a>")
    public static Object listGet(ListValue l, long index) {
        return index >= 0 && index < l.size() ? OptionValue.some(l.get((int) index)) : OptionValue.NONE;
    }

    @Word(name = "list-length", category = Category.LIST, doc = "The number of elements.")
    @Overload(sig = "list<a> -> int")
    public static long listLength(ListValue l) { return l.size(); }

    @Word(name = "list-uncons", category = Category.LIST, doc = "Split off the first element, or none for an empty list.")
    @Overload(sig = "list<a> -> option<record{head:a,tail:list<a>}>")
    public static Object listUncons(ListValue l) {
        if (l.isEmpty()) return OptionValue.NONE;
        // Record fields in canonical (sorted) order: head, tail.
        return OptionValue.some(new RecordValue(new Object[] {l.get(0), l.tail()}));
    }

    /** Refuses a list of {@code elements} that would exceed the run's memory limit, before it is built (E-LIMIT-005). */
    static void reserve(Ctx ctx, long elements, String word, Origin o) {
        if (elements * ELEMENT_BYTES > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a list of " + elements + " elements, over the memory limit");
        }
    }
}
