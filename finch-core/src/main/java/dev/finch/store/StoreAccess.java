package dev.finch.store;

/**
 * The parts of a store: what a {@link FinchStore} offers call by call, and what a
 * {@linkplain FinchStore#transaction transaction} offers for the work that must happen together.
 */
public interface StoreAccess {
    /** Session images by session id. */
    Images images();

    /** Continue-once claims. */
    Claims claims();

    /** The effect journal. */
    Journal journal();

    /** Remembered {@code project} and {@code global} grants, and their revocations. */
    RememberedGrants grants();

    /** Memory trees. */
    Memory memory();

    /** Schedules, and how far each got. */
    Schedules schedules();
}
