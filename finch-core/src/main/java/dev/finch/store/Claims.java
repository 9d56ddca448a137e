package dev.finch.store;

import dev.finch.ContinuationLedger;

/**
 * Continue-once claims: the right to continue an execution from one of its pauses, granted to exactly one caller
 * among every thread and process that shares the store — an insert that fails on a duplicate key. A claim is never
 * released: a pause, once continued (or cancelled), stays continued.
 */
public interface Claims {
    /**
     * Claims {@code executionId}'s {@code pause}-th suspension (1 for the first); true for exactly one claim of each pair
     * among everything sharing this store. Inside a {@link FinchStore#transaction transaction} the claim is made with the
     * transaction's other writes, or not at all.
     */
    boolean claim(String executionId, long pause);

    /**
     * Claims the pair for {@code claimant} (1 to 200 characters): true for the one claimant whose claim was first, and
     * again for that claimant whenever it asks — a retry of the very step that claimed it (a Temporal activity's next
     * attempt) — and false for every other. A claim made by {@link #claim(String, long)} has no claimant: nobody's.
     */
    boolean claim(String executionId, long pause, String claimant);

    /** Whether the pair was claimed. */
    boolean isClaimed(String executionId, long pause);

    /**
     * These claims as the {@link ContinuationLedger} a {@link dev.finch.Finch} installs, so that images restored in
     * several processes are continued at most once between them. A claim the store cannot make throws
     * {@link StoreException}: the ledger fails closed, never answering true without a claim.
     */
    default ContinuationLedger ledger() { return new ClaimsLedger(this); }
}
