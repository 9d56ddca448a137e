package dev.finch.host.words;

import dev.finch.capabilities.Grant;
import java.util.Objects;

/**
 * A {@code resource<capability-grant>} value (contract: "capability-list returns the reusable grants visible within the
 * current ProgramRun ceiling as typed metadata paired with opaque resource&lt;capability-grant&gt; values"). Only
 * {@code capability-list} makes one; a program cannot build one from text or JSON, so a printed id confers nothing. It
 * is saved with a paused run or a session as what it names (an image is signed), and holding one is not authority
 * either: {@code agent-spawn-with} revalidates it against the spawning run's grants when the child is created — a
 * restored run's are its restoring host's.
 */
public final class GrantResource {
    private final Grant grant;
    private final String issuer;

    GrantResource(Grant grant, String issuer) {
        this.grant = Objects.requireNonNull(grant, "grant");
        this.issuer = Objects.requireNonNull(issuer, "issuer");
    }

    /** The resource a saved run or session held, as it was saved. */
    public static GrantResource restored(Grant grant, String issuer) { return new GrantResource(grant, issuer); }

    /** The grant it names (as it was when listed). */
    public Grant grant() { return grant; }

    /** The agent-tree node whose run listed it: only that node may delegate it. */
    public String issuer() { return issuer; }

    @Override public String toString() { return "grant " + grant.id(); }
}
