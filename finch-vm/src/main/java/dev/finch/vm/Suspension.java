package dev.finch.vm;

import java.util.List;

/**
 * A paused run: the value it published ({@code yield}'s payload) and its saved continuation (the frames of every
 * active word, innermost first, holding only typed values and resume-point numbers). Resume it once with
 * {@link Vm#resume}; resuming the same suspension twice is refused.
 */
public final class Suspension {
    private final String executionId;
    private final TypedValue payload;
    final dev.finch.vm.runtime.Continuation continuation;
    private final java.util.concurrent.atomic.AtomicBoolean consumed = new java.util.concurrent.atomic.AtomicBoolean();

    Suspension(String executionId, TypedValue payload, dev.finch.vm.runtime.Continuation continuation) {
        this.executionId = executionId;
        this.payload = payload;
        this.continuation = continuation;
    }

    public String executionId() { return executionId; }

    /** What the run published when it paused. */
    public TypedValue payload() { return payload; }

    /** The saved frames, outermost first, for inspection and tests. */
    public List<String> frames() { return continuation.describe(); }

    boolean consume() { return consumed.compareAndSet(false, true); }
}
