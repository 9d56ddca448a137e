package dev.finch.vm.boundary;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a word library keeps for one run beyond its values — the files family's open streams, say: held by the run's
 * boundary ({@link RunHost#state}), saved and restored with a paused run, closed when the run ends. Each kind is named,
 * and a library offers its kinds as extensions ({@code Library.extensions(RunState.Kind.class)}), so a run restored in
 * another process gets its state back from the same library there.
 */
public interface RunState {
    /** The state as a saved run keeps it (a JSON value), or null when there is nothing to keep. */
    JsonNode save();

    /** Closes what the state holds (the run ended: completed, failed, cancelled or dropped). */
    void close();

    /**
     * What this state staged for the run's commit (a JSON value), or null when nothing: taken when the run completes,
     * before the state is closed, and handed to whoever commits the run ({@code RunResult.Completed#staged}) — writes a
     * run makes only if it commits (memory writes) stage here, so a failed or cancelled run writes nothing.
     */
    default JsonNode staged() { return null; }

    /** How a library makes one kind of run state: new, or as a saved run had it. */
    interface Kind<S extends RunState> {
        /** The kind's stable name (what a saved run names it by). */
        String name();

        /** A new, empty state for a run. */
        S fresh();

        /**
         * The state a saved run had ({@code saved}, as {@link RunState#save} wrote it); an
         * {@link IllegalArgumentException} when it is not one.
         */
        S restore(JsonNode saved);
    }
}
