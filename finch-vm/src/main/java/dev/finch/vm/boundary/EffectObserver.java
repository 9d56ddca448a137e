package dev.finch.vm.boundary;

/**
 * Receives every awaited request before authorization or dispatch, and every terminal journal state, so a host
 * can persist or route the boundary without waiting for a synchronous adapter.
 */
public interface EffectObserver {
    void requested(EffectRequest request);

    default void settled(EffectJournal.Entry entry) { }
}
