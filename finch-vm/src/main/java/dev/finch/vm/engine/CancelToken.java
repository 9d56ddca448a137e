package dev.finch.vm.engine;

/**
 * Cancels a run from another thread; the run stops at its next call, loop back-edge or charged step of work. It
 * remembers when it was cancelled, so a run that notices late still tells a cancellation from a deadline that
 * passed first.
 */
public final class CancelToken {
    private volatile boolean cancelled;
    private volatile String reason;
    private volatile long atNanos;

    public void cancel(String why) {
        if (!cancelled) {
            reason = why;
            atNanos = System.nanoTime();
        }
        cancelled = true;
    }

    public boolean isCancelled() { return cancelled; }

    public String reason() { return reason; }

    /** When it was cancelled ({@link System#nanoTime()}); only meaningful once {@link #isCancelled()}. */
    public long cancelledAtNanos() { return atNanos; }
}
