package dev.finch.host;

/**
 * A tool capability as a run's value (IR type {@code capability}): the grant it comes from, which instance of that
 * tool it is (0 for the grant's own, a fresh number for each {@code fork} of a kernel) and whether the tool keeps
 * state between calls (a kernel or a filesystem: concurrent steps may not share one instance). It confers nothing
 * by itself: every call through it passes the host boundary with {@code tool.call(grant,op)}. It has no written form
 * ({@code show} refuses it) and is never askable.
 */
public record ToolCapability(String grant, long instance, boolean stateful) {
    /** A stateless tool's capability. */
    public ToolCapability(String grant, long instance) { this(grant, instance, false); }

    /** Another instance of the same tool (a fork). */
    public ToolCapability withInstance(long n) { return new ToolCapability(grant, n, stateful); }

    @Override public String toString() { return instance == 0 ? grant : grant + "#" + instance; }
}
