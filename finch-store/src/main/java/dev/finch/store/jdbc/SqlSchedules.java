package dev.finch.store.jdbc;

import dev.finch.store.Schedules;
import dev.finch.store.StoreChecks;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link Schedules} in table {@code finch_schedules}, keyed by schedule id. */
final class SqlSchedules implements Schedules {
    private static final String COLUMNS = "schedule_id, policy, when_spec, program, created_at, runs, last_run_at, language, word";

    private final Sql sql;
    private final StoreLimits limits;

    SqlSchedules(Sql sql, StoreLimits limits) {
        this.sql = sql;
        this.limits = limits;
    }

    @Override public void add(Schedule s) {
        if (s == null) throw new StoreException(StoreCode.BAD_KEY, "a schedule is missing");
        sql.atomic("keep schedule " + s.id(), c -> {
            if (Sql.first(c, rs -> true, "SELECT 1 FROM finch_schedules WHERE schedule_id = ?", s.id()).isPresent()) {
                throw new StoreException(StoreCode.BAD_KEY, "schedule id " + s.id() + " is already kept");
            }
            long count = Sql.first(c, rs -> rs.getLong(1), "SELECT COUNT(*) FROM finch_schedules").orElse(0L);
            if (count >= limits.maxSchedules()) {
                throw new StoreException(StoreCode.TOO_LARGE, "the store already keeps " + count + " schedules; at most " + limits.maxSchedules());
            }
            // A missing value is the literal NULL: a parameter bound as null has a text type, which PostgreSQL will not put in a BIGINT.
            List<Object> values = new ArrayList<>(List.of(s.id(), s.policy(), s.when(), s.program(), s.created().toEpochMilli(), s.runs()));
            StringBuilder marks = new StringBuilder("?, ?, ?, ?, ?, ?");
            for (Optional<?> v : List.of(s.lastRun().map(Instant::toEpochMilli), s.language(), s.word())) {
                if (v.isPresent()) {
                    values.add(v.get());
                    marks.append(", ?");
                } else {
                    marks.append(", NULL");
                }
            }
            Sql.update(c, "INSERT INTO finch_schedules (" + COLUMNS + ") VALUES (" + marks + ")", values.toArray());
            return null;
        });
    }

    @Override public Optional<Schedule> find(String id) {
        StoreChecks.id("a schedule id", id);
        return sql.run("read schedule " + id, c -> Sql.first(c, SqlSchedules::schedule,
                "SELECT " + COLUMNS + " FROM finch_schedules WHERE schedule_id = ?", id));
    }

    @Override public List<Schedule> all() {
        return sql.run("read the schedules", c -> Sql.query(c, SqlSchedules::schedule,
                "SELECT " + COLUMNS + " FROM finch_schedules ORDER BY schedule_id LIMIT " + limits.maxSchedules()));
    }

    @Override public boolean ran(String id, long runs, Instant at) {
        StoreChecks.id("a schedule id", id);
        StoreChecks.positive("a schedule's run", runs);
        if (at == null) throw new StoreException(StoreCode.BAD_KEY, "a run's time is missing");
        return sql.run("record a run of schedule " + id, c -> Sql.update(c,
                "UPDATE finch_schedules SET runs = ?, last_run_at = ? WHERE schedule_id = ? AND runs = ?", runs, at.toEpochMilli(), id, runs - 1) == 1);
    }

    @Override public boolean remove(String id) {
        StoreChecks.id("a schedule id", id);
        return sql.run("delete schedule " + id, c -> Sql.update(c, "DELETE FROM finch_schedules WHERE schedule_id = ?", id) == 1);
    }

    private static Schedule schedule(ResultSet rs) throws SQLException {
        String id = rs.getString(1);
        long last = rs.getLong(7);
        Optional<Instant> lastRun = rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(last));
        try {
            return new Schedule(id, rs.getString(2), rs.getString(3), rs.getString(4), Optional.ofNullable(rs.getString(8)),
                    Optional.ofNullable(rs.getString(9)), Instant.ofEpochMilli(rs.getLong(5)), rs.getLong(6), lastRun);
        } catch (StoreException e) {
            throw new StoreException(StoreCode.CORRUPT, "schedule " + id + " cannot be read back", e);
        }
    }
}
