package dev.finch.vm.runtime;

/**
 * A run's side of the host boundary, as its context holds it ({@link Ctx#host}): the engine's run loop needs of it only
 * that everything it still holds is closed when the run ends. The boundary itself ({@code dev.finch.vm.boundary.RunHost}:
 * grants, journal, the request a run waits at, what the word libraries keep for the run) lives above the runtime and
 * implements this.
 */
public interface Boundary {
    /** Closes everything the run still holds (the run ended: completed, failed or cancelled). */
    void closeAll();

    /** What the run's states staged for its commit, by state kind (taken when the run completes, before {@link #closeAll}). */
    default java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> staged() { return java.util.Map.of(); }
}
