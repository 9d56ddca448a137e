package dev.finch.store;

import dev.finch.ContinuationLedger;

/** {@link Claims#ledger()}: a {@link ContinuationLedger} over a store's claims. */
record ClaimsLedger(Claims claims) implements ContinuationLedger {
    @Override public boolean claim(String executionId, long pause) { return claims.claim(executionId, pause); }
}
