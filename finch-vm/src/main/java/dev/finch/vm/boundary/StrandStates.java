package dev.finch.vm.boundary;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A host that keeps state of its own for each strand of a run — the root and each concurrent step (the model host's
 * open budget scopes): saved with a paused run as what is left of it, and rebuilt by the restoring run's host, never
 * trusted from the image alone. The engine finds it among the run's bindings ({@link HostConfig#binding}).
 */
public interface StrandStates {
    /**
     * The durable form of {@code local} (a strand's state, as this host made it), or null when there is none. A host that
     * keeps such state and cannot save it throws, and the run is not saved.
     */
    default JsonNode saveLocal(Object local) throws HostFailure {
        if (local == null) return null;
        throw new HostFailure(HostCode.NO_BINDING, "this host cannot save its per-step state (an open budget scope)");
    }

    /** The strand state {@link #saveLocal} saved, rebuilt in this host for the restored run. */
    default Object restoreLocal(JsonNode saved) throws HostFailure {
        throw new HostFailure(HostCode.NO_BINDING, "this host cannot restore a saved budget scope");
    }
}
