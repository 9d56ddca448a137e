package dev.finch;

import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.value.Values;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The displays of a list of values as an outcome or a report shows them, bounded as a whole: each value up to
 * {@link Values#DISPLAY_LIMIT} characters, all of them together up to {@link #TOTAL_CHARS} (the top of a stack
 * first: it is what a program just made), and never less than {@link #MIN_CHARS} each. So rendering an outcome costs
 * a bounded amount whatever the program left on the stack — a value of 2^30 shared elements or a hundred thousand
 * copies of a long string — and the full values stay available as typed values ({@link Outcome#values()}). The
 * displays of a committed stack are computed once per state (every outcome of a paused execution reports the same
 * committed stack).
 */
final class StackDisplay {
    /** All displays of one list together. */
    static final int TOTAL_CHARS = 1 << 20;

    /** The least each value gets, whatever the others took. */
    static final int MIN_CHARS = 256;

    /** Displays of states' stacks, by state (a state is immutable, and compared by identity). */
    private static final Map<VmState, List<StackEntry>> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

    private StackDisplay() { }

    /**
     * {@code state}'s stack entries, displayed when first read: most outcomes are looked at for their status or a
     * value, and spelling every type and display for each would cost every submission.
     */
    static List<StackEntry> lazy(VmState state) { return state.stack().isEmpty() ? List.of() : new Lazy(state); }

    /** An immutable list of one state's entries, computed (once per state, {@link #entries(VmState)}) on first read. */
    static final class Lazy extends java.util.AbstractList<StackEntry> implements java.util.RandomAccess {
        private final VmState state;
        private volatile List<StackEntry> entries;

        private Lazy(VmState state) { this.state = state; }

        private List<StackEntry> entries() {
            List<StackEntry> e = entries;
            if (e == null) entries = e = StackDisplay.entries(state);
            return e;
        }

        @Override public StackEntry get(int index) { return entries().get(index); }

        @Override public int size() { return state.stack().size(); }
    }

    /** The stack entries of {@code state}'s stack, computed once per state. */
    static List<StackEntry> entries(VmState state) {
        List<StackEntry> cached = CACHE.get(state);
        if (cached != null) return cached;
        List<StackEntry> entries = entries(state.stack());
        CACHE.put(state, entries);
        return entries;
    }

    /** The stack entries of {@code values} (bottom to top), displays bounded as the class says. */
    static List<StackEntry> entries(List<TypedValue> values) {
        String[] shown = displays(values);
        StackEntry[] out = new StackEntry[values.size()];
        for (int i = 0; i < out.length; i++) out[i] = new StackEntry(values.get(i).type().toString(), shown[i]);
        return List.copyOf(Arrays.asList(out));
    }

    /**
     * The display of {@code v} cut at {@code limit} characters — or, for a value that cannot be read (a defect of
     * Finch: a run commits no such value, and an image restores none), a display naming {@code E-SESSION-011} in its
     * place: an outcome, a session's stack and their JSON never throw for a state they cannot read.
     */
    static String display(TypedValue v, int limit) {
        try {
            if (v.value() == null) return UNREADABLE;
            return v.display(limit);
        } catch (RuntimeException | StackOverflowError e) {
            return UNREADABLE;
        }
    }

    /** What a value that cannot be read shows instead. */
    static final String UNREADABLE = "#<unreadable value: " + SessionCode.UNREADABLE.code() + ">";

    /** The displays of {@code values}, the last (the top) served first from the shared budget. */
    static String[] displays(List<TypedValue> values) {
        String[] out = new String[values.size()];
        long left = TOTAL_CHARS;
        for (int i = out.length - 1; i >= 0; i--) {
            int limit = (int) Math.max(MIN_CHARS, Math.min(Values.DISPLAY_LIMIT, left));
            out[i] = display(values.get(i), limit);
            left -= out[i].length();
        }
        return out;
    }
}
