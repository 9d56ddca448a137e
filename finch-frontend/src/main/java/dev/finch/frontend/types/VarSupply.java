package dev.finch.frontend.types;

/**
 * The fresh type variables of one inference: each variable it makes gets the next number (1, 2, 3, …). A supply
 * belongs to one inference, which runs on one thread, so no counter is shared: two inferences on two threads number
 * their variables independently, and the numbers of one never depend on what another did (which a static counter
 * would make them, and race on).
 */
public final class VarSupply {
    private long last;

    /** The next variable's number. */
    long next() { return ++last; }

    /** How many variables this supply has numbered. */
    public long issued() { return last; }
}
