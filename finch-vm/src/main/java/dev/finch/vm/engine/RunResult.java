package dev.finch.vm.engine;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.Output;
import dev.finch.vm.OutputEvent;
import dev.finch.vm.OutputLog;
import java.util.List;

/** How a run ended. Only {@link Completed} carries a new state: the others leave the session's state as it was. */
public sealed interface RunResult {
    /** All {@code say} text the run produced (also streamed to the sink as it happened). */
    String output();

    /**
     * The same text, without joining it: a pause's is an {@link Output} snapshot, joined only when read (so a pause
     * reports it without copying what was said before it); a finished run's is its string.
     */
    default CharSequence text() { return output(); }

    /** The record of the response's events, in order: say chunks and output-handle events ({@link OutputLog}). */
    OutputLog log();

    /** The response's events, in order, say text cut from {@link #text()}. */
    default List<OutputEvent> events() { return log().events(text()); }

    /**
     * The run finished; {@code state} is the state to commit. A caller that does not commit it (the session moved on)
     * calls {@link #discard}: what the run did to fibers it shares with its base state is undone. {@code staged} is what
     * the run's states staged for its commit, by state kind ({@code RunState#staged}): the caller applies it only if it
     * commits the run.
     */
    record Completed(VmState state, String output, Runnable discard, OutputLog log,
                     java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> staged) implements RunResult {
        public Completed {
            staged = java.util.Map.copyOf(staged);
        }

        public Completed(VmState state, String output) { this(state, output, () -> { }, OutputLog.EMPTY, java.util.Map.of()); }

        public Completed(VmState state, String output, Runnable discard) { this(state, output, discard, OutputLog.EMPTY, java.util.Map.of()); }

        /** Undoes the run's changes to fibers of its base state, when its state is not committed. */
        public void discardChanges() { discard.run(); }
    }

    /** The run stopped with an error (execute phase); nothing is committed. */
    record Failed(List<Diagnostic> diagnostics, String output, OutputLog log) implements RunResult {
        public Failed { diagnostics = List.copyOf(diagnostics); }

        public Failed(List<Diagnostic> diagnostics, String output) { this(diagnostics, output, OutputLog.EMPTY); }
    }

    /**
     * The run paused (a {@code yield}, or the host boundary); resume it with {@link Vm#resume}. Its text is a snapshot:
     * pausing costs what the paused stretch said, not all the text so far.
     */
    record Suspended(Suspension suspension, Output text, OutputLog log) implements RunResult {
        public Suspended {
            java.util.Objects.requireNonNull(text, "text");
            java.util.Objects.requireNonNull(log, "log");
        }

        public Suspended(Suspension suspension, Output text) { this(suspension, text, OutputLog.EMPTY); }

        @Override public String output() { return text.toString(); }
    }

    /** The run was cancelled; nothing is committed. */
    record Cancelled(Diagnostic reason, String output, OutputLog log) implements RunResult {
        public Cancelled(Diagnostic reason, String output) { this(reason, output, OutputLog.EMPTY); }
    }
}
