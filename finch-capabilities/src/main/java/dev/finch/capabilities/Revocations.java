package dev.finch.capabilities;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The grant ids a session has revoked, shared with every run of that session while it runs or waits. A run's grants
 * are the set it was authorized with ({@link GrantSet} is immutable); this is the one live thing it consults: at each
 * capability boundary, and when it lists or delegates grants, a revoked grant is gone from its set. Ids are never
 * reused within a session, so a revocation names exactly one grant. A child agent's session follows its parent's
 * revocations ({@link #onRevoke}): a grant revoked here is revoked there too. Safe for concurrent use.
 */
public final class Revocations {
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    private final List<Consumer<String>> followers = new CopyOnWriteArrayList<>();

    /** Records {@code grantId} as revoked, and tells those that follow; true when it was not revoked before. */
    public boolean revoke(String grantId) {
        if (!ids.add(grantId)) return false;
        for (Consumer<String> f : followers) {
            try {
                f.accept(grantId);
            } catch (RuntimeException ignored) {
                // A follower's failure does not undo the revocation here.
            }
        }
        return true;
    }

    /**
     * Tells {@code follower} each grant id revoked from now on; closing the answer stops it. (A revocation made before
     * is {@link #isRevoked}: subscribe first, then look, and nothing is missed.)
     */
    public AutoCloseable onRevoke(Consumer<String> follower) {
        followers.add(follower);
        return () -> followers.remove(follower);
    }

    /** Whether {@code grantId} was revoked. */
    public boolean isRevoked(String grantId) { return ids.contains(grantId); }

    /** {@code grants} without every revoked grant: the same instance when none of them was revoked. */
    public GrantSet strip(GrantSet grants) {
        if (ids.isEmpty()) return grants;
        List<Grant> kept = new ArrayList<>(grants.size());
        for (Grant g : grants.grants()) if (!ids.contains(g.id())) kept.add(g);
        return kept.size() == grants.size() ? grants : GrantSet.of(kept).value();
    }
}
