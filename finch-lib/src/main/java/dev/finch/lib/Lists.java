package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Calls;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Sizes;
import dev.finch.vm.value.Values;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists: homogeneous, immutable and persistent ({@link ListValue}), so building one element by element is not
 * quadratic. Positions are zero-based. A word that builds a list checks its logical size ({@link Sizes}: a shared
 * element counted once per use) against the run's memory limit before building it (E-LIMIT-005), and charges
 * steps for the elements it copies, compares or generates ({@link #ELEMENTS_PER_STEP} a step; closures charge their
 * own calls).
 */
public final class Lists {
    private Lists() { }

    /** What one element costs at least against the memory limit: its slot and a scalar. */
    static final long ELEMENT_BYTES = Sizes.SLOT + Sizes.VALUE;

    @Word(name = "list-append", category = Category.LIST, doc = "A new list with the value added at the end.")
    @Overload(sig = "list<a> a -> list<a>")
    public static Object listAppend(Ctx ctx, ListValue l, Object item, Origin o) {
        reserveBytes(ctx, l.bytesWith(item), "list-append", o);
        return l.append(item);
    }

    @Word(name = "list-prepend", aka = {"cons"}, category = Category.LIST, doc = "A new list with the value added at the front (cons).")
    @Overload(sig = "a list<a> -> list<a>")
    public static Object listPrepend(Ctx ctx, Object item, ListValue l, Origin o) {
        reserveBytes(ctx, l.bytesWith(item), "list-prepend", o);
        return l.prepend(item);
    }

    @Word(name = "list-get", aka = {"list-ref", "nth", "elt", "vector-ref"}, category = Category.LIST, doc = "The element at a zero-based index, or none.")
    @Overload(sig = "list<a> int -> option<a>")
    public static Object listGet(ListValue l, long index) {
        return index >= 0 && index < l.size() ? OptionValue.some(l.get((int) index)) : OptionValue.NONE;
    }

    @Word(name = "list-length", aka = {"length", "len"}, category = Category.LIST, doc = "The number of elements.")
    @Overload(sig = "list<a> -> int")
    public static long listLength(ListValue l) { return l.size(); }

    @Word(name = "list-uncons", aka = {"car", "cdr", "cadr", "first", "rest", "head", "tail", "null?", "empty?", "pair?"}, category = Category.LIST, doc = "Split off the first element, or none for an empty list.")
    @Overload(sig = "list<a> -> option<record{head:a,tail:list<a>}>")
    public static Object listUncons(ListValue l) {
        if (l.isEmpty()) return OptionValue.NONE;
        // Record fields in canonical (sorted) order: head, tail.
        return OptionValue.some(new RecordValue(new Object[] {l.get(0), l.tail()}));
    }

    // ---- higher-order words: the closure is the last argument and must be pure ----

    @Word(name = "list-map", aka = {"mapcar", "for-each"}, category = Category.LIST,
            doc = "A new list of the closure's answer for each element, in order (the empty list for an empty list).")
    @Overload(sig = "list<a> (a -> b) -> list<b>")
    public static Object listMap(Ctx ctx, int depth, ListValue l, Object fn, Origin o) {
        reserve(ctx, l.size(), "list-map", o);
        List<Object> out = new ArrayList<>(l.size());
        long bytes = Sizes.VALUE;
        for (Object x : l) {
            Object y = Calls.execute(ctx, depth, fn, new Object[] {x});
            // Refused as soon as the answers pass the limit: answers may share a large value.
            bytes = Sizes.plus(bytes, Sizes.element(y));
            reserveBytes(ctx, bytes, "list-map", o);
            out.add(y);
        }
        return ListValue.from(out);
    }

    @Word(name = "list-filter", aka = {"filter", "select", "remove-if-not"}, category = Category.LIST,
            doc = "A new list of the elements the closure answers true for, in their order (the empty list when none is kept).")
    @Overload(sig = "list<a> (a -> bool) -> list<a>")
    public static Object listFilter(Ctx ctx, int depth, ListValue l, Object fn, Origin o) {
        reserve(ctx, l.size(), "list-filter", o);
        List<Object> out = new ArrayList<>();
        for (Object x : l) if ((Boolean) Calls.execute(ctx, depth, fn, new Object[] {x})) out.add(x);
        return out.size() == l.size() ? l : ListValue.from(out);
    }

    @Word(name = "list-fold", aka = {"fold", "foldl", "fold-left", "foldr", "fold-right", "reduce"}, category = Category.LIST,
            doc = "Left fold: the closure gets the accumulator first and each element second, from the first element on; "
                    + "the initial value for an empty list.")
    @Overload(sig = "list<a> b (b a -> b) -> b")
    public static Object listFold(Ctx ctx, int depth, ListValue l, Object init, Object fn) {
        Object acc = init;
        for (Object x : l) acc = Calls.execute(ctx, depth, fn, new Object[] {acc, x});
        return acc;
    }

    @Word(name = "list-any", category = Category.LIST,
            doc = "True when the closure answers true for some element, stopping at the first; false for an empty list.")
    @Overload(sig = "list<a> (a -> bool) -> bool")
    public static boolean listAny(Ctx ctx, int depth, ListValue l, Object fn) {
        for (Object x : l) if ((Boolean) Calls.execute(ctx, depth, fn, new Object[] {x})) return true;
        return false;
    }

    @Word(name = "list-all", category = Category.LIST,
            doc = "True when the closure answers true for every element, stopping at the first false; true for an empty list.")
    @Overload(sig = "list<a> (a -> bool) -> bool")
    public static boolean listAll(Ctx ctx, int depth, ListValue l, Object fn) {
        for (Object x : l) if (!(Boolean) Calls.execute(ctx, depth, fn, new Object[] {x})) return false;
        return true;
    }

    // ---- shape ----

    @Word(name = "list-reverse", aka = {"reverse"}, category = Category.LIST, doc = "The elements in reverse order.")
    @Overload(sig = "list<a> -> list<a>")
    public static Object listReverse(Ctx ctx, ListValue l, Origin o) {
        reserve(ctx, l.size(), "list-reverse", o);
        charge(ctx, l.size());
        return l.reverse();
    }

    @Word(name = "list-concat", aka = {"append"}, category = Category.LIST, foldsLeft = true,
            doc = "The first list followed by the second (Lisp: (list-concat a b c) joins them all).")
    @Overload(sig = "list<a> list<a> -> list<a>")
    public static Object listConcat(Ctx ctx, ListValue a, ListValue b, Origin o) {
        reserve(ctx, (long) a.size() + b.size(), "list-concat", o);
        reserveBytes(ctx, a.concatBytes(b), "list-concat", o);
        if (b.isEmpty()) return a;
        if (a.isEmpty()) return b;
        charge(ctx, b.size());
        return a.concat(b);
    }

    @Word(name = "list-range", aka = {"range", "iota"}, category = Category.LIST,
            doc = "The ints from the first (inclusive) to the second (exclusive); empty when the end is not above "
                    + "the start; E-LIMIT-005, before it is built, for a range over the memory limit.")
    @Overload(sig = "int int -> list<int>")
    public static Object listRange(Ctx ctx, long start, long end, Origin o) {
        if (end <= start) return ListValue.empty();
        long n;
        try {
            n = Math.subtractExact(end, start);
        } catch (ArithmeticException e) {
            n = Long.MAX_VALUE; // more than 2^63 ints: over any memory limit
        }
        reserve(ctx, n, "list-range", o);
        charge(ctx, n);
        List<Object> out = new ArrayList<>((int) n);
        for (long i = start; i < end; i++) out.add(i);
        return ListValue.from(out);
    }

    @Word(name = "list-take", aka = {"take"}, category = Category.LIST,
            doc = "The first n elements: a negative count takes none, a count beyond the length takes the whole list.")
    @Overload(sig = "list<a> int -> list<a>")
    public static Object listTake(Ctx ctx, ListValue l, long n, Origin o) {
        int k = clamp(n, l.size());
        if (k == l.size()) return l;
        charge(ctx, Math.min(k, l.size() - k));
        return l.take(k);
    }

    @Word(name = "list-drop", aka = {"list-tail"}, category = Category.LIST,
            doc = "All but the first n elements: a negative count drops none, a count beyond the length answers the empty list.")
    @Overload(sig = "list<a> int -> list<a>")
    public static Object listDrop(Ctx ctx, ListValue l, long n, Origin o) {
        int k = clamp(n, l.size());
        if (k == 0) return l;
        charge(ctx, Math.min(k, l.size() - k));
        return l.drop(k);
    }

    // ---- search and update (Finch's equality: -0.0 = 0.0, nan = nan, structural) ----

    @Word(name = "list-contains", aka = {"member", "memq", "memv", "contains?"}, category = Category.LIST,
            doc = "True when some element equals the value (Finch's equality: -0.0 = 0.0, nan = nan, structural); false for an empty list.")
    @Overload(sig = "list<a> a -> bool")
    public static boolean listContains(Ctx ctx, ListValue l, Object x) {
        return indexOf(ctx, l, x) >= 0;
    }

    @Word(name = "list-index-of", category = Category.LIST,
            doc = "The zero-based position of the first element equal to the value (Finch's equality), or none.")
    @Overload(sig = "list<a> a -> option<int>")
    public static Object listIndexOf(Ctx ctx, ListValue l, Object x) {
        int i = indexOf(ctx, l, x);
        return i < 0 ? OptionValue.NONE : OptionValue.some((long) i);
    }

    @Word(name = "list-set", category = Category.LIST,
            doc = "A new list with the element at a zero-based index replaced, or none when the index is out of range.")
    @Overload(sig = "list<a> int a -> option<list<a>>")
    public static Object listSet(Ctx ctx, ListValue l, long index, Object x, Origin o) {
        if (index < 0 || index >= l.size()) return OptionValue.NONE;
        reserveBytes(ctx, Sizes.plus(l.logicalBytes() - Sizes.element(l.get((int) index)), Sizes.element(x)), "list-set", o);
        return OptionValue.some(l.set((int) index, x));
    }

    // ---- sorting: a stable merge sort (equal elements keep their order) ----

    @Word(name = "list-sort", aka = {"sort"}, category = Category.LIST,
            doc = "The elements in ascending natural order, stable: ints numerically; floats in Finch's total order "
                    + "(-0.0 = 0.0, nan last); strings by code points.")
    @Overload(id = "list-sort-int", sig = "list<int> -> list<int>")
    public static Object listSortInt(Ctx ctx, ListValue l, Origin o) {
        return sorted(ctx, l, (x, y) -> (Long) x > (Long) y, "list-sort", o);
    }

    @Overload(word = "list-sort", id = "list-sort-float", order = 1, sig = "list<float> -> list<float>")
    public static Object listSortFloat(Ctx ctx, ListValue l, Origin o) {
        return sorted(ctx, l, (x, y) -> Values.compareFloats((Double) x, (Double) y) > 0, "list-sort", o);
    }

    @Overload(word = "list-sort", id = "list-sort-string", order = 2, sig = "list<string> -> list<string>")
    public static Object listSortString(Ctx ctx, ListValue l, Origin o) {
        return sorted(ctx, l, (x, y) -> Values.compareStrings((String) x, (String) y) > 0, "list-sort", o);
    }

    @Word(name = "list-sort-by", category = Category.LIST,
            doc = "The elements ordered by a comparator closure answering an int (negative when its first argument sorts "
                    + "first, zero to keep their order: stable); an inconsistent comparator never fails.")
    @Overload(sig = "list<a> (a a -> int) -> list<a>")
    public static Object listSortBy(Ctx ctx, int depth, ListValue l, Object fn, Origin o) {
        return sorted(ctx, l, (x, y) -> (Long) Calls.execute(ctx, depth, fn, new Object[] {x, y}) > 0, "list-sort-by", o);
    }

    /** Whether {@code x} must come after {@code y}; any answer at all leaves the merge sort a permutation. */
    interface After {
        boolean test(Object x, Object y);
    }

    /**
     * A bottom-up merge sort: stable (an element of the right run goes first only when the left one must come after
     * it), and it never checks the order's consistency, so no answer of {@code after} makes it fail — each pass merges
     * two runs into one by taking every element of both exactly once.
     */
    static Object sorted(Ctx ctx, ListValue l, After after, String word, Origin o) {
        int n = l.size();
        if (n < 2) return l;
        reserve(ctx, n, word, o);
        charge(ctx, (long) n * (64 - Long.numberOfLeadingZeros(n - 1)));
        Object[] a = l.asJava().toArray();
        Object[] b = new Object[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) b[k++] = after.test(a[i], a[j]) ? a[j++] : a[i++];
                while (i < mid) b[k++] = a[i++];
                while (j < hi) b[k++] = a[j++];
            }
            Object[] t = a;
            a = b;
            b = t;
        }
        return ListValue.of(a);
    }

    private static int indexOf(Ctx ctx, ListValue l, Object x) {
        int i = 0;
        for (Object e : l) {
            if (Values.equal(e, x, ctx)) {
                charge(ctx, i);
                return i;
            }
            i++;
        }
        charge(ctx, i);
        return -1;
    }

    /** A count clamped to {@code [0, size]}. */
    private static int clamp(long n, int size) { return (int) Math.max(0, Math.min(n, size)); }

    /** Work done per step charged: copying, comparing or generating this many elements costs one step. */
    static final long ELEMENTS_PER_STEP = 8;

    /** Charges the steps for {@code work} element operations that do not go through closures. */
    static void charge(Ctx ctx, long work) {
        if (work >= ELEMENTS_PER_STEP) ctx.charge(work / ELEMENTS_PER_STEP);
    }

    /** The most elements a list can hold at all, whatever the memory limit (a Java array's bound). */
    static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    /**
     * Refuses a list of {@code elements} that would exceed the run's memory limit (or the most a list can hold),
     * before it is built (E-LIMIT-005).
     */
    static void reserve(Ctx ctx, long elements, String word, Origin o) {
        // Divide rather than multiply, so a huge count cannot overflow into a small one.
        if (elements > ctx.maxMemoryBytes() / ELEMENT_BYTES || elements > MAX_ELEMENTS) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a list of " + elements + " elements, over the memory limit of "
                    + ctx.maxMemoryBytes() + " bytes (" + ELEMENT_BYTES + " bytes an element at least)");
        }
    }

    /**
     * Refuses a value of logical size {@code bytes} ({@link Sizes}) that would exceed the run's memory limit, before
     * it is built (E-LIMIT-005).
     */
    static void reserveBytes(Ctx ctx, long bytes, String word, Origin o) {
        if (bytes > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build a list of " + (bytes == Long.MAX_VALUE ? "more than 2^63" : Long.toString(bytes))
                    + " bytes (a shared element counted once per use), over the memory limit of " + ctx.maxMemoryBytes() + " bytes");
        }
    }
}
