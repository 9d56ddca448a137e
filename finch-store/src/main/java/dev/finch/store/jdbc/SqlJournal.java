package dev.finch.store.jdbc;

import dev.finch.store.Journal;
import dev.finch.store.StoreChecks;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@link Journal} in table {@code finch_effects}: recording is an insert that does nothing on a duplicate key, settling
 * an update of a row whose receipt is still null — each won by exactly one caller.
 */
final class SqlJournal implements Journal {
    private static final String COLUMNS = "execution_id, seq, requirement, operation, arguments_digest, recorded_at, receipt, result, code, note, settled_at";

    private final Sql sql;
    private final StoreLimits limits;
    private final Clock clock;

    SqlJournal(Sql sql, StoreLimits limits, Clock clock) {
        this.sql = sql;
        this.limits = limits;
        this.clock = clock;
    }

    @Override public Recording record(Intent intent) {
        StoreChecks.note("an effect's requirement", intent.requirement());
        StoreChecks.note("an effect's operation", intent.operation());
        StoreChecks.note("an effect's arguments digest", intent.argumentsDigest());
        long now = clock.millis();
        return sql.atomic("record request " + intent.sequence() + " of execution " + intent.executionId(), c -> {
            int inserted = Sql.update(c, "INSERT INTO finch_effects (execution_id, seq, requirement, operation, arguments_digest, recorded_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (execution_id, seq) DO NOTHING", intent.executionId(), intent.sequence(),
                    intent.requirement(), intent.operation(), intent.argumentsDigest(), now);
            if (inserted == 1) return new Recording.Recorded(intent, Instant.ofEpochMilli(now));
            Status existing = read(c, intent.executionId(), intent.sequence());
            Intent was = switch (existing.kind()) {
                case PENDING -> ((Status.Pending) existing).intent();
                case SETTLED -> ((Status.Settled) existing).intent();
                case UNRECORDED -> throw new StoreException(StoreCode.FAILED, "request " + intent.sequence() + " of execution "
                        + intent.executionId() + " was neither recorded nor found");
            };
            return was.equals(intent) ? new Recording.Duplicate(existing) : new Recording.Conflict(existing);
        });
    }

    @Override public boolean settle(String executionId, long sequence, Receipt receipt) {
        check(executionId, sequence);
        if (receipt == null) throw new StoreException(StoreCode.BAD_KEY, "a receipt is missing");
        String result = null, code = null, note = null;
        switch (receipt.kind()) {
            case ACKNOWLEDGED -> result = StoreChecks.chars("an effect's result", ((Receipt.Acknowledged) receipt).result(), limits.maxResultChars());
            case FAILED -> {
                code = StoreChecks.note("a failed effect's code", ((Receipt.Failed) receipt).code());
                note = StoreChecks.note("a failed effect's message", ((Receipt.Failed) receipt).message());
            }
            case DENIED -> note = StoreChecks.note("a denial's reason", ((Receipt.Denied) receipt).reason());
            case CANCELLED -> note = StoreChecks.note("a cancellation's reason", ((Receipt.Cancelled) receipt).reason());
        }
        String kind = receipt.kind().name().toLowerCase(Locale.ROOT);
        long now = clock.millis();
        String r = result, cd = code, n = note;
        return sql.atomic("settle request " + sequence + " of execution " + executionId, c -> {
            int updated = Sql.update(c, "UPDATE finch_effects SET receipt = ?, result = ?, code = ?, note = ?, settled_at = ? "
                    + "WHERE execution_id = ? AND seq = ? AND receipt IS NULL", kind, r, cd, n, now, executionId, sequence);
            if (updated == 1) return true;
            if (read(c, executionId, sequence).kind() == Status.Kind.UNRECORDED) {
                throw new StoreException(StoreCode.UNKNOWN_EFFECT, "request " + sequence + " of execution " + executionId
                        + " was never recorded, so it cannot be settled");
            }
            return false;
        });
    }

    @Override public Status status(String executionId, long sequence) {
        check(executionId, sequence);
        return sql.run("read request " + sequence + " of execution " + executionId, c -> read(c, executionId, sequence));
    }

    @Override public List<Status> entries(String executionId, long afterSequence, int limit) {
        StoreChecks.id("an execution id", executionId);
        StoreChecks.listing(limits, limit);
        return sql.run("read the journal of execution " + executionId, c -> Sql.query(c, SqlJournal::status,
                "SELECT " + COLUMNS + " FROM finch_effects WHERE execution_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                executionId, afterSequence, limit));
    }

    @Override public List<Status.Pending> pending(String executionId) {
        StoreChecks.id("an execution id", executionId);
        return sql.run("read the unsettled requests of execution " + executionId, c -> Sql.query(c, rs -> (Status.Pending) status(rs),
                "SELECT " + COLUMNS + " FROM finch_effects WHERE execution_id = ? AND receipt IS NULL ORDER BY seq LIMIT ?",
                executionId, limits.maxListing()));
    }

    @Override public int forget(String executionId) {
        StoreChecks.id("an execution id", executionId);
        return sql.run("forget the journal of execution " + executionId,
                c -> Sql.update(c, "DELETE FROM finch_effects WHERE execution_id = ?", executionId));
    }

    private static void check(String executionId, long sequence) {
        StoreChecks.id("an execution id", executionId);
        StoreChecks.positive("a request's sequence", sequence);
    }

    private static Status read(Connection c, String executionId, long sequence) throws SQLException {
        return Sql.first(c, SqlJournal::status, "SELECT " + COLUMNS + " FROM finch_effects WHERE execution_id = ? AND seq = ?",
                executionId, sequence).orElseGet(() -> new Status.Unrecorded(executionId, sequence));
    }

    private static Status status(ResultSet rs) throws SQLException {
        Intent intent = new Intent(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5));
        Instant recordedAt = Instant.ofEpochMilli(rs.getLong(6));
        String kind = rs.getString(7);
        if (kind == null) return new Status.Pending(intent, recordedAt);
        Receipt receipt = switch (kind) {
            case "acknowledged" -> new Receipt.Acknowledged(rs.getString(8) == null ? "" : rs.getString(8));
            case "failed" -> new Receipt.Failed(String.valueOf(rs.getString(9)), String.valueOf(rs.getString(10)));
            case "denied" -> new Receipt.Denied(rs.getString(10));
            case "cancelled" -> new Receipt.Cancelled(rs.getString(10));
            default -> throw new StoreException(StoreCode.CORRUPT, "request " + intent.sequence() + " of execution "
                    + intent.executionId() + " has a receipt of an unknown kind");
        };
        return new Status.Settled(intent, recordedAt, receipt, Instant.ofEpochMilli(rs.getLong(11)));
    }
}
