package dev.finch.store.jdbc;

import dev.finch.store.Images;
import dev.finch.store.StoreChecks;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link Images} in table {@code finch_images}. */
final class SqlImages implements Images {
    private final Sql sql;
    private final StoreLimits limits;
    private final Clock clock;

    SqlImages(Sql sql, StoreLimits limits, Clock clock) {
        this.sql = sql;
        this.limits = limits;
        this.clock = clock;
    }

    @Override public long put(String sessionId, String image) {
        check(sessionId, image);
        long now = clock.millis();
        return sql.atomic("save the image of session " + sessionId, c -> {
            Sql.update(c, "INSERT INTO finch_images (session_id, version, saved_at, chars, image) VALUES (?, 1, ?, ?, ?) "
                    + "ON CONFLICT (session_id) DO UPDATE SET version = finch_images.version + 1, saved_at = excluded.saved_at, "
                    + "chars = excluded.chars, image = excluded.image", sessionId, now, (long) image.length(), image);
            return Sql.first(c, rs -> rs.getLong(1), "SELECT version FROM finch_images WHERE session_id = ?", sessionId).orElseThrow();
        });
    }

    @Override public boolean replace(String sessionId, long expectedVersion, String image) {
        check(sessionId, image);
        if (expectedVersion < 0) {
            throw new StoreException(StoreCode.BAD_KEY, "an image version is " + expectedVersion + "; 0 means none yet");
        }
        long now = clock.millis();
        return sql.run("replace the image of session " + sessionId, c -> expectedVersion == 0
                ? Sql.update(c, "INSERT INTO finch_images (session_id, version, saved_at, chars, image) VALUES (?, 1, ?, ?, ?) "
                        + "ON CONFLICT (session_id) DO NOTHING", sessionId, now, (long) image.length(), image) == 1
                : Sql.update(c, "UPDATE finch_images SET version = version + 1, saved_at = ?, chars = ?, image = ? "
                        + "WHERE session_id = ? AND version = ?", now, (long) image.length(), image, sessionId, expectedVersion) == 1);
    }

    @Override public Optional<Stored> get(String sessionId) {
        StoreChecks.id("a session id", sessionId);
        return sql.run("read the image of session " + sessionId, c -> Sql.first(c,
                rs -> new Stored(rs.getString(1), rs.getLong(2), Instant.ofEpochMilli(rs.getLong(3)), rs.getString(4)),
                "SELECT session_id, version, saved_at, image FROM finch_images WHERE session_id = ?", sessionId));
    }

    @Override public boolean delete(String sessionId) {
        StoreChecks.id("a session id", sessionId);
        return sql.run("delete the image of session " + sessionId,
                c -> Sql.update(c, "DELETE FROM finch_images WHERE session_id = ?", sessionId) == 1);
    }

    @Override public List<Entry> list(String afterSessionId, int limit) {
        if (afterSessionId != null) StoreChecks.id("a session id", afterSessionId);
        StoreChecks.listing(limits, limit);
        return sql.run("list the session images", c -> afterSessionId == null
                ? Sql.query(c, SqlImages::entry, "SELECT session_id, version, saved_at, chars FROM finch_images ORDER BY session_id LIMIT ?", limit)
                : Sql.query(c, SqlImages::entry, "SELECT session_id, version, saved_at, chars FROM finch_images WHERE session_id > ? "
                        + "ORDER BY session_id LIMIT ?", afterSessionId, limit));
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        return new Entry(rs.getString(1), rs.getLong(2), Instant.ofEpochMilli(rs.getLong(3)), rs.getLong(4));
    }

    private void check(String sessionId, String image) {
        StoreChecks.id("a session id", sessionId);
        StoreChecks.chars("the image of session " + sessionId, image, limits.maxImageChars());
    }
}
