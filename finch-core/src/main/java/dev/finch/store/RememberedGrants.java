package dev.finch.store;

import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Grants that outlive a session: a {@code project} grant is remembered for one project (an id the host gives: a
 * project directory, a workspace), a {@code global} grant for everything sharing the store. A revocation is
 * remembered too — a revoked grant stays in the store, marked, so a session that restores an image holding it can
 * tell — until the same key is granted again, which is a new decision.
 */
public interface RememberedGrants {
    /**
     * The key of a remembered grant: its scope ({@code project} or {@code global}), the project id for a project grant
     * (null for a global one) and the grant's id.
     */
    record Key(Scope scope, String projectId, String grantId) {
        public Key {
            Objects.requireNonNull(scope, "scope");
            switch (scope) {
                case PROJECT -> StoreChecks.id("a project id", projectId);
                case GLOBAL -> {
                    if (projectId != null) throw new StoreException(StoreCode.BAD_KEY, "a global grant belongs to no project");
                }
                case ONCE, TASK, SESSION -> throw new StoreException(StoreCode.BAD_KEY,
                        "a " + scope + " grant is not remembered: only project and global grants are");
            }
            if (!Grant.isValidId(grantId)) {
                throw new StoreException(StoreCode.BAD_KEY, "a grant id is 1 to 64 of A-Z a-z 0-9 _ . -, not " + describe(grantId));
            }
        }

        /** The key of project {@code projectId}'s grant {@code grantId}. */
        public static Key project(String projectId, String grantId) { return new Key(Scope.PROJECT, projectId, grantId); }

        /** The key of the global grant {@code grantId}. */
        public static Key global(String grantId) { return new Key(Scope.GLOBAL, null, grantId); }

        private static String describe(String id) {
            if (id == null) return "nothing";
            return id.length() > 80 ? "an id of " + id.length() + " characters" : "\"" + id + "\"";
        }
    }

    /** A remembered grant: {@code grant}'s scope is {@code project} or {@code global}; {@code projectId} as in {@link Key}. */
    record Remembered(String projectId, Grant grant, Instant grantedAt) {
        public Remembered {
            Objects.requireNonNull(grant, "grant");
            Objects.requireNonNull(grantedAt, "grantedAt");
            new Key(grant.scope(), projectId, grant.id());
        }

        /** A project grant. */
        public static Remembered project(String projectId, Grant grant, Instant grantedAt) { return new Remembered(projectId, grant, grantedAt); }

        /** A global grant. */
        public static Remembered global(Grant grant, Instant grantedAt) { return new Remembered(null, grant, grantedAt); }

        /** Its key. */
        public Key key() { return new Key(grant.scope(), projectId, grant.id()); }
    }

    /** A remembered grant that was revoked at {@code revokedAt}. */
    record Revoked(Remembered grant, Instant revokedAt) {
        public Revoked {
            Objects.requireNonNull(grant, "grant");
            Objects.requireNonNull(revokedAt, "revokedAt");
        }
    }

    /**
     * Remembers {@code grant} under its key, replacing what was remembered there (a revoked grant of the same key
     * included: granting it again is a new decision). The canonical spelling of its capability is what is kept.
     */
    void remember(Remembered grant);

    /** The grants in force for {@code scope} (and {@code projectId}, for {@code project}; null for {@code global}), by id. */
    List<Remembered> active(Scope scope, String projectId);

    /** The grant under {@code key}, if it is remembered and not revoked. */
    Optional<Remembered> find(Key key);

    /** Revokes the grant under {@code key} at {@code when}; true when it was in force (false: unknown, or revoked before). */
    boolean revoke(Key key, Instant when);

    /** The revocations remembered for {@code scope} (and {@code projectId}), by id. */
    List<Revoked> revoked(Scope scope, String projectId);

    /** The revocation of the grant under {@code key}, if it was revoked and not granted again since. */
    Optional<Revoked> revocation(Key key);
}
