package dev.finch.temporal;

import dev.finch.ContinuationLedger;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@link ContinuationLedger} of a worker's Finch. A pause of a saved execution is still continued at most once,
 * except by a retry of the very activity that claimed it: Temporal runs an activity again when an attempt failed or
 * timed out, and a step is computation only (deferred-host mode), so its retry continues the same pause of the same
 * image for the same workflow and must not be turned away with {@code E-SESSION-008}. The claimant is the activity
 * (workflow id, run id, activity id), bound on the step's thread with {@link #as}; a claim made outside a step
 * (another use of the same Finch) is an ordinary, one-time claim.
 */
public final class StepLedger implements ContinuationLedger {
    private static final ThreadLocal<String> CLAIMANT = new ThreadLocal<>();
    /** The claims of this worker process alone, or null when a store keeps them. */
    private final ConcurrentHashMap<String, String> claims;
    /** The store's claims, shared by every worker on it, or null. */
    private final dev.finch.store.Claims stored;

    /** Claims this worker process keeps itself: enough for one worker, not for several on a task queue. */
    public StepLedger() {
        this.claims = new ConcurrentHashMap<>();
        this.stored = null;
    }

    private StepLedger(dev.finch.store.Claims stored) {
        this.claims = null;
        this.stored = stored;
    }

    /** Claims kept in a Finch store's claims, which every worker on the store shares (the claimant recorded with each). */
    public static StepLedger over(dev.finch.store.Claims claims) { return new StepLedger(java.util.Objects.requireNonNull(claims, "claims")); }

    @Override public boolean claim(String executionId, long pause) {
        String who = CLAIMANT.get();
        String claimant = who != null ? who : UUID.randomUUID().toString();
        if (stored != null) return stored.claim(executionId, pause, claimant);
        String first = claims.putIfAbsent(pause + "@" + executionId, claimant);
        return first == null || (who != null && first.equals(who));
    }

    /** Runs {@code body} with claims made by {@code claimant} (an activity's identity, the same across its retries). */
    public static <T> T as(String claimant, Supplier<T> body) {
        String outer = CLAIMANT.get();
        CLAIMANT.set(claimant);
        try {
            return body.get();
        } finally {
            if (outer == null) CLAIMANT.remove();
            else CLAIMANT.set(outer);
        }
    }
}
