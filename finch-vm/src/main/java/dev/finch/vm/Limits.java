package dev.finch.vm;

import java.time.Duration;

/**
 * Per-run limits. Steps are charged at calls and loop back-edges; the deadline and cancellation are checked at
 * the same points; depth counts nested word calls; output counts {@code say} bytes (UTF-8); memory bounds the
 * size of values a run may build.
 */
public record Limits(long maxSteps, Duration timeout, long maxOutputBytes, int maxDepth, long maxMemoryBytes) {
    public static final Limits DEFAULT = new Limits(100_000_000L, Duration.ofSeconds(30), 8L << 20, 10_000, 256L << 20);

    public Limits withMaxSteps(long v) { return new Limits(v, timeout, maxOutputBytes, maxDepth, maxMemoryBytes); }
    public Limits withTimeout(Duration v) { return new Limits(maxSteps, v, maxOutputBytes, maxDepth, maxMemoryBytes); }
    public Limits withMaxOutputBytes(long v) { return new Limits(maxSteps, timeout, v, maxDepth, maxMemoryBytes); }
    public Limits withMaxDepth(int v) { return new Limits(maxSteps, timeout, maxOutputBytes, v, maxMemoryBytes); }
    public Limits withMaxMemoryBytes(long v) { return new Limits(maxSteps, timeout, maxOutputBytes, maxDepth, v); }
}
