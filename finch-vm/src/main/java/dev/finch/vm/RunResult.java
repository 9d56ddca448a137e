package dev.finch.vm;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;

/** How a run ended. Only {@link Completed} carries a new state: the others leave the session's state as it was. */
public sealed interface RunResult {
    /** All {@code say} text the run produced (also streamed to the sink as it happened). */
    String output();

    /** The run finished; {@code state} is the state to commit. */
    record Completed(VmState state, String output) implements RunResult { }

    /** The run stopped with an error (execute phase); nothing is committed. */
    record Failed(List<Diagnostic> diagnostics, String output) implements RunResult {
        public Failed { diagnostics = List.copyOf(diagnostics); }
    }

    /** The run paused (a {@code yield}); resume it with {@link Vm#resume}. */
    record Suspended(Suspension suspension, String output) implements RunResult { }

    /** The run was cancelled; nothing is committed. */
    record Cancelled(Diagnostic reason, String output) implements RunResult { }
}
