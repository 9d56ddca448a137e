package dev.finch.vm;

import java.time.Duration;

/**
 * Per-run limits. Steps are charged at calls and loop back-edges, and by the words whose work grows with their
 * input (comparing, hashing, sorting, writing text) for the elements they touch; the deadline and cancellation
 * are checked at the same points; depth counts nested word calls; output counts {@code say} bytes (UTF-8); memory
 * bounds the logical size of every value a run builds (a shared part counted once per use: {@code
 * dev.finch.vm.value.Sizes}). {@code timeout} bounds one run — a submission, or one resume of a paused execution —
 * and {@code maxExecutionTime} the running time of an execution summed over its start and all its resumes (time
 * spent paused, waiting for an approval or a resume, does not count).
 */
public record Limits(long maxSteps, Duration timeout, long maxOutputBytes, int maxDepth, long maxMemoryBytes, Duration maxExecutionTime) {
    /** 10^8 steps, 30 s a run, 8 MiB of output, depth 10,000, 256 MiB a value, 10 min an execution. */
    public static final Limits DEFAULT = new Limits(100_000_000L, Duration.ofSeconds(30), 8L << 20, 10_000, 256L << 20, Duration.ofMinutes(10));

    public Limits {
        java.util.Objects.requireNonNull(timeout, "timeout");
        java.util.Objects.requireNonNull(maxExecutionTime, "maxExecutionTime");
    }

    /** Limits with the default {@code maxExecutionTime}. */
    public Limits(long maxSteps, Duration timeout, long maxOutputBytes, int maxDepth, long maxMemoryBytes) {
        this(maxSteps, timeout, maxOutputBytes, maxDepth, maxMemoryBytes, DEFAULT.maxExecutionTime());
    }

    public Limits withMaxSteps(long v) { return new Limits(v, timeout, maxOutputBytes, maxDepth, maxMemoryBytes, maxExecutionTime); }
    public Limits withTimeout(Duration v) { return new Limits(maxSteps, v, maxOutputBytes, maxDepth, maxMemoryBytes, maxExecutionTime); }
    public Limits withMaxOutputBytes(long v) { return new Limits(maxSteps, timeout, v, maxDepth, maxMemoryBytes, maxExecutionTime); }
    public Limits withMaxDepth(int v) { return new Limits(maxSteps, timeout, maxOutputBytes, v, maxMemoryBytes, maxExecutionTime); }
    public Limits withMaxMemoryBytes(long v) { return new Limits(maxSteps, timeout, maxOutputBytes, maxDepth, v, maxExecutionTime); }
    public Limits withMaxExecutionTime(Duration v) { return new Limits(maxSteps, timeout, maxOutputBytes, maxDepth, maxMemoryBytes, v); }
}
