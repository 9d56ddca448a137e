package dev.finch.vm.boundary;

/**
 * Receives every awaited request before authorization or dispatch, and every terminal journal state, so a host
 * can persist or route the boundary without waiting for a synchronous adapter.
 */
public interface EffectObserver {
    void requested(EffectRequest request);

    /**
     * The request was authorized and is about to be performed by its binding (not called in deferred mode, where the
     * host performs it). A durable journal records its intent here, before the effect; throwing refuses the effect — it
     * is not performed and the run fails with the failure's code (an intent another copy of the run already recorded:
     * the effect was performed, or begun, there).
     */
    default void dispatching(EffectRequest request) throws HostFailure { }

    default void settled(EffectJournal.Entry entry) { }
}
