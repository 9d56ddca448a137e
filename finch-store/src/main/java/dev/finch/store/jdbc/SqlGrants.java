package dev.finch.store.jdbc;

import dev.finch.capabilities.Attempt;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import dev.finch.store.RememberedGrants;
import dev.finch.store.StoreChecks;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@link RememberedGrants} in table {@code finch_grants}, keyed by (scope, project id — empty for a global grant —,
 * grant id); a revocation sets {@code revoked_at}, and remembering the key again clears it.
 */
final class SqlGrants implements RememberedGrants {
    private static final String COLUMNS = "scope, project_id, grant_id, spec, granted_at, revoked_at";

    private final Sql sql;
    private final StoreLimits limits;

    SqlGrants(Sql sql, StoreLimits limits) {
        this.sql = sql;
        this.limits = limits;
    }

    @Override public void remember(Remembered grant) {
        if (grant == null) throw new StoreException(StoreCode.BAD_KEY, "a grant is missing");
        Key key = grant.key();
        String spec = StoreChecks.note("a grant's capability", grant.grant().spec().toString());
        sql.atomic("remember grant " + describe(key), c -> {
            boolean known = Sql.first(c, rs -> true, "SELECT 1 FROM finch_grants WHERE scope = ? AND project_id = ? AND grant_id = ?",
                    key.scope().spelling(), project(key), key.grantId()).isPresent();
            if (!known) {
                long count = Sql.first(c, rs -> rs.getLong(1), "SELECT COUNT(*) FROM finch_grants WHERE scope = ? AND project_id = ?",
                        key.scope().spelling(), project(key)).orElse(0L);
                if (count >= limits.maxGrantsPerScope()) {
                    throw new StoreException(StoreCode.TOO_LARGE, "the " + where(key.scope(), key.projectId()) + " already remembers "
                            + count + " grants; at most " + limits.maxGrantsPerScope() + " (revoked ones included)");
                }
            }
            Sql.update(c, "INSERT INTO finch_grants (scope, project_id, grant_id, spec, granted_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL) "
                    + "ON CONFLICT (scope, project_id, grant_id) DO UPDATE SET spec = excluded.spec, granted_at = excluded.granted_at, "
                    + "revoked_at = NULL", key.scope().spelling(), project(key), key.grantId(), spec, grant.grantedAt().toEpochMilli());
            return null;
        });
    }

    @Override public List<Remembered> active(Scope scope, String projectId) {
        Key any = new Key(scope, projectId, "_");
        return sql.run("read the grants of the " + where(scope, projectId), c -> Sql.query(c, SqlGrants::remembered,
                "SELECT " + COLUMNS + " FROM finch_grants WHERE scope = ? AND project_id = ? AND revoked_at IS NULL ORDER BY grant_id",
                scope.spelling(), project(any)));
    }

    @Override public Optional<Remembered> find(Key key) {
        return sql.run("read grant " + describe(key), c -> Sql.first(c, SqlGrants::remembered,
                "SELECT " + COLUMNS + " FROM finch_grants WHERE scope = ? AND project_id = ? AND grant_id = ? AND revoked_at IS NULL",
                key.scope().spelling(), project(key), key.grantId()));
    }

    @Override public boolean revoke(Key key, Instant when) {
        if (when == null) throw new StoreException(StoreCode.BAD_KEY, "a revocation's time is missing");
        return sql.run("revoke grant " + describe(key), c -> Sql.update(c,
                "UPDATE finch_grants SET revoked_at = ? WHERE scope = ? AND project_id = ? AND grant_id = ? AND revoked_at IS NULL",
                when.toEpochMilli(), key.scope().spelling(), project(key), key.grantId()) == 1);
    }

    @Override public List<Revoked> revoked(Scope scope, String projectId) {
        Key any = new Key(scope, projectId, "_");
        return sql.run("read the revocations of the " + where(scope, projectId), c -> Sql.query(c, SqlGrants::revocation,
                "SELECT " + COLUMNS + " FROM finch_grants WHERE scope = ? AND project_id = ? AND revoked_at IS NOT NULL ORDER BY grant_id",
                scope.spelling(), project(any)));
    }

    @Override public Optional<Revoked> revocation(Key key) {
        return sql.run("read the revocation of grant " + describe(key), c -> Sql.first(c, SqlGrants::revocation,
                "SELECT " + COLUMNS + " FROM finch_grants WHERE scope = ? AND project_id = ? AND grant_id = ? AND revoked_at IS NOT NULL",
                key.scope().spelling(), project(key), key.grantId()));
    }

    private static String project(Key key) { return key.projectId() == null ? "" : key.projectId(); }

    private static String where(Scope scope, String projectId) { return scope == Scope.GLOBAL ? "store" : "project " + projectId; }

    private static String describe(Key key) { return key.grantId() + " of the " + where(key.scope(), key.projectId()); }

    private static Remembered remembered(ResultSet rs) throws SQLException {
        String scopeText = rs.getString(1), projectId = rs.getString(2), grantId = rs.getString(3), spec = rs.getString(4);
        Scope scope = Scope.bySpelling(scopeText).orElseThrow(() -> corrupt(grantId, "an unknown scope"));
        Attempt<Grant> grant = Grant.of(grantId, spec, scope);
        if (!grant.isOk()) throw corrupt(grantId, "a capability that no longer parses");
        return new Remembered(scope == Scope.GLOBAL ? null : projectId, grant.value(), Instant.ofEpochMilli(rs.getLong(5)));
    }

    private static Revoked revocation(ResultSet rs) throws SQLException {
        return new Revoked(remembered(rs), Instant.ofEpochMilli(rs.getLong(6)));
    }

    private static StoreException corrupt(String grantId, String what) {
        return new StoreException(StoreCode.CORRUPT, "remembered grant " + grantId + " has " + what);
    }
}
