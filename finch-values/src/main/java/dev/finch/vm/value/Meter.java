package dev.finch.vm.value;

/**
 * Where the work of a value operation is charged and what bounds the values it builds: a run's context while a
 * run executes, {@link #NONE} otherwise.
 *
 * <p>Equality, hashing, {@code show}, JSON and the list and string words touch as many elements as a value has,
 * and a value can share structure (a list holding one list twice is twice as large as it looks), so each of them
 * counts what it touches in a {@link Work} and charges the run's steps as it goes: the step limit holds for one
 * comparison as for many words, and the deadline and cancellation are checked inside a long comparison, not only
 * after it. The path is explicit where the caller holds the run's context (a word's {@code Ctx} parameter, compiled
 * {@code =}), and otherwise the meter {@link #current() bound to the calling thread}: the VM binds each run's context
 * to the thread running it (and each concurrent step's to its own thread), so {@code ListValue.equals} called from
 * inside a persistent map, or a value built by a host word, is charged to the run too.
 *
 * <p>Off a run thread (an embedder comparing values, a session displaying its stack) the meter is {@link #NONE}:
 * nothing is charged, and the work is bounded by the values themselves — every value that exists was bounded in
 * logical size when a run built it ({@link Sizes}), hashing caches per container and equality remembers the pairs
 * it proved equal (so both are linear in the distinct nodes of a shared structure), and display is cut at a length
 * ({@link Values#DISPLAY_LIMIT}).
 */
public interface Meter {
    /** Elements touched per step charged (copying, comparing, hashing, writing one element is one unit). */
    long ELEMENTS_PER_STEP = 8;

    /** Characters touched per step charged. */
    long CHARS_PER_STEP = 64;

    /**
     * Charges {@code steps} steps; throws the run's trap when its steps are used up, its deadline has passed or it
     * was cancelled.
     */
    void charge(long steps);

    /** The largest logical size, in bytes, of a value a run may build ({@code Limits.maxMemoryBytes}). */
    long maxBytes();

    /** The exception that stops the run because a value would exceed {@link #maxBytes()} (E-LIMIT-005). */
    RuntimeException overLimit(String message);

    /** No run: nothing is charged and no size is refused. */
    Meter NONE = new Meter() {
        @Override public void charge(long steps) { }

        @Override public long maxBytes() { return Long.MAX_VALUE; }

        @Override public RuntimeException overLimit(String message) { return new IllegalStateException(message); }

        @Override public String toString() { return "Meter.NONE"; }
    };

    /** The meter bound to the calling thread: its run's context, or {@link #NONE} off a run thread. */
    static Meter current() {
        Meter m = MeterBinding.SLOT.get();
        return m == null ? NONE : m;
    }

    /** Binds {@code meter} to the calling thread (the VM does, when a run or one of its steps starts on it). */
    static void bind(Meter meter) { MeterBinding.SLOT.set(meter); }

    /** Unbinds the calling thread's meter (when its run or step ends); the slot stays, holding nothing (see Strands.leave). */
    static void unbind() { MeterBinding.SLOT.set(null); }
}
