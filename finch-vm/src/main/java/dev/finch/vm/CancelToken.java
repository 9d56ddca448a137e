package dev.finch.vm;

/** Cancels a run from another thread; the run stops at its next call or loop back-edge. */
public final class CancelToken {
    private volatile boolean cancelled;
    private volatile String reason;

    public void cancel(String why) { reason = why; cancelled = true; }

    public boolean isCancelled() { return cancelled; }

    public String reason() { return reason; }
}
