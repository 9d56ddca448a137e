package dev.finch.store.jdbc;

import dev.finch.store.Claims;
import dev.finch.store.StoreChecks;
import java.time.Clock;

/** {@link Claims} in table {@code finch_claims}: a claim is an insert that does nothing on a duplicate key. */
final class SqlClaims implements Claims {
    private final Sql sql;
    private final Clock clock;

    SqlClaims(Sql sql, Clock clock) {
        this.sql = sql;
        this.clock = clock;
    }

    @Override public boolean claim(String executionId, long pause) {
        check(executionId, pause);
        long now = clock.millis();
        return sql.run("claim pause " + pause + " of execution " + executionId, c -> Sql.update(c,
                "INSERT INTO finch_claims (execution_id, pause, claimed_at) VALUES (?, ?, ?) ON CONFLICT (execution_id, pause) DO NOTHING",
                executionId, pause, now) == 1);
    }

    @Override public boolean claim(String executionId, long pause, String claimant) {
        check(executionId, pause);
        StoreChecks.id("a claimant", claimant);
        long now = clock.millis();
        return sql.run("claim pause " + pause + " of execution " + executionId, c -> Sql.update(c,
                "INSERT INTO finch_claims (execution_id, pause, claimed_at, claimant) VALUES (?, ?, ?, ?) ON CONFLICT (execution_id, pause) DO NOTHING",
                executionId, pause, now, claimant) == 1
                || Sql.first(c, rs -> true, "SELECT 1 FROM finch_claims WHERE execution_id = ? AND pause = ? AND claimant = ?",
                        executionId, pause, claimant).isPresent());
    }

    @Override public boolean isClaimed(String executionId, long pause) {
        check(executionId, pause);
        return sql.run("read the claim of pause " + pause + " of execution " + executionId, c -> Sql.first(c, rs -> true,
                "SELECT 1 FROM finch_claims WHERE execution_id = ? AND pause = ?", executionId, pause).isPresent());
    }

    private static void check(String executionId, long pause) {
        StoreChecks.id("an execution id", executionId);
        StoreChecks.positive("a pause", pause);
    }
}
