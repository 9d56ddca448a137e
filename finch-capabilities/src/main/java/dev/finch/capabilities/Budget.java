package dev.finch.capabilities;

/**
 * A work allowance for one containment decision, so a hostile selector cannot make authorization slow; when it runs
 * out the decision is "not contained", which is always sound.
 */
final class Budget {
    /** Enough for any selector a person writes; pathological ones fail closed. */
    static final int DEFAULT = 100_000;

    private long left;

    Budget(long steps) { this.left = steps; }

    /** Spends one step; false once the allowance is gone. */
    boolean spend() { return --left >= 0; }
}
