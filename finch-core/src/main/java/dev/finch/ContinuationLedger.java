package dev.finch;


/**
 * Where "a suspended execution is continued at most once" is enforced once its suspension has left the session as an
 * image ({@link Session#save}) or come back from one ({@link Finch#restore}): such an image can be restored more than
 * once — in this process or another — and every copy would otherwise approve, answer or resume the same pause.
 * Before any copy continues, the session claims the pause here; only the first claim of a pause succeeds, and a copy
 * whose claim fails is discarded with {@code E-SESSION-008} before anything is dispatched. Cancelling a saved
 * execution claims it too, so no copy of its image continues after it.
 *
 * <p>The default ({@link #inMemory()}, one per {@link Finch}) enforces this across the sessions of one Finch. When
 * images travel between processes, install one ledger that all of them share ({@link Finch.Builder#continuations}) —
 * typically a table with a unique key on (execution id, pause), where {@code claim} is an insert that fails on
 * conflict.
 */
@FunctionalInterface
public interface ContinuationLedger {
    /**
     * Claims the right to continue {@code executionId} from its {@code pause}-th suspension (1 for the first); true for
     * exactly one claim of each pair among every session sharing this ledger.
     */
    boolean claim(String executionId, long pause);

    /** A ledger in this process's memory. */
    static ContinuationLedger inMemory() {
        return new InMemoryLedger();
    }
}
