package dev.finch.vm;

import dev.finch.ir.checked.Checked.CheckedModule;

/**
 * Compiles verified modules to JVM bytecode and runs them with limits. One {@code Vm} is shared by every session
 * of a {@code Finch}; it is thread-safe. A run never changes the {@link VmState} it started from.
 */
public final class Vm {
    public Vm() { }

    /**
     * Runs {@code module} (verified against {@code state.environment()}) on a snapshot of {@code state}.
     * {@code executionId} names the run in outcomes and suspensions.
     */
    public RunResult run(String executionId, CheckedModule module, VmState state, Limits limits, OutputSink sink, CancelToken cancel) {
        throw new UnsupportedOperationException("in progress");
    }

    /** Resumes a suspended run once, giving {@code yield} its resume value (unit). */
    public RunResult resume(Suspension suspension, Limits limits, OutputSink sink, CancelToken cancel) {
        throw new UnsupportedOperationException("in progress");
    }
}
