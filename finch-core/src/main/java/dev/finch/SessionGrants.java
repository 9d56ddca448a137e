package dev.finch;

import dev.finch.capabilities.CapabilitySpec;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Revocations;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A session's authority: the grants in force for its new runs (those it opened with, and approvals of session scope
 * or wider), the ids it gave them ({@code g1}, {@code g2}, … in order) and the revocations every run consults at its
 * capability boundaries. One per {@link Session}; safe to read from any thread.
 */
final class SessionGrants {
    private final AtomicLong ids = new AtomicLong();
    private final Revocations revocations = new Revocations();
    private final Remembering remembering;
    private final String project;
    private volatile GrantSet current;

    /**
     * The grants {@code specs} name, each of session scope, and — with {@code remembered} — those {@code remembering}
     * keeps for every session ({@code global}) and for {@code project}'s (null: none). A store that cannot be read leaves the remembered ones
     * out: the session opens, and a person is asked again.
     *
     * @throws IllegalArgumentException when a spec is malformed or the set refuses it
     */
    SessionGrants(List<String> specs, Remembering remembering, String project, boolean remembered) {
        this.remembering = remembering;
        this.project = project;
        GrantSet g = GrantSet.EMPTY;
        for (String spec : specs) {
            var parsed = CapabilitySpec.parse(spec);
            if (!parsed.isOk()) throw new IllegalArgumentException("malformed grant '" + spec + "': " + parsed.refusal().orElseThrow().message());
            var added = g.add(Grant.of(nextId(), parsed.value(), Scope.SESSION).value());
            if (!added.isOk()) throw new IllegalArgumentException("grant '" + spec + "' refused: " + added.refusal().orElseThrow().message());
            g = added.value();
        }
        List<Grant> kept;
        try {
            kept = remembered ? remembering.grants(project) : List.of();
        } catch (RuntimeException storeFailed) {
            kept = List.of();
        }
        for (Grant r : kept) g = g.add(r).toOptional().orElse(g);
        this.current = g;
    }

    /** The grants in force for new runs (session scope and wider). */
    GrantSet current() { return current; }

    /** The grants revoked so far: every run of the session consults them at its capability boundaries. */
    Revocations revocations() { return revocations; }

    /**
     * Revokes {@code grantId}: true when it names a grant this session gave, or a remembered one, that was not revoked
     * before. A remembered grant's revocation is remembered too: no later session has it.
     */
    boolean revoke(String grantId) {
        var r = current.revoke(grantId);
        if (r.isOk()) current = r.value();
        boolean forgotten = false;
        if (RememberedId.PATTERN.matcher(grantId).matches()) {
            try {
                forgotten = remembering.revoke(project, grantId);
            } catch (RuntimeException storeFailed) {
                forgotten = false;
            }
        }
        return (issued(grantId) || forgotten) && revocations.revoke(grantId) || forgotten;
    }

    /**
     * The ids of remembered grants: {@code r-} and a random UUID, unique across sessions and processes. In a holder, so
     * that a new session compiles no regular expression until one is asked for.
     */
    private static final class RememberedId {
        static final java.util.regex.Pattern PATTERN = java.util.regex.Pattern.compile("r-[0-9a-f-]{36}");
    }

    /** An approval's answer: the grant that approves {@code request} with {@code scope}, or why none can. */
    sealed interface Approval permits Approval.Granted, Approval.Refused {
        /** The grant to give the run (and, once it is taken, to keep: {@link #accepted}). */
        record Granted(Grant grant) implements Approval { }

        /** No grant can approve this request. */
        record Refused(Diagnostic why) implements Approval { }
    }

    /**
     * The grant approving {@code request} with {@code scope}, under a new id. A requirement no grant can name, or a
     * pattern (only a host's grants may name more than one thing), is refused.
     */
    Approval approval(EffectRequest request, Scope scope) {
        var spec = CapabilitySpec.of(request.requirement());
        if (!spec.isOk()) {
            return new Approval.Refused(HostCode.STALE_RESUME.at(request.origin(), "request " + request.sequence()
                    + " needs " + request.requirement() + ", which no grant can name; deny or cancel it"));
        }
        if (isPattern(spec.value())) {
            // A concrete call's approval is concrete: approving would otherwise write a pattern grant no host wrote.
            return new Approval.Refused(HostCode.STALE_RESUME.at(request.origin(), "request " + request.sequence()
                    + " needs " + request.requirement() + ", which is a pattern; an approval never grants a pattern (only the host's"
                    + " grants do), so deny or cancel it"));
        }
        String id = scope.compareTo(Scope.PROJECT) >= 0 && (scope == Scope.GLOBAL || project != null) ? "r-" + java.util.UUID.randomUUID() : nextId();
        return new Approval.Granted(Grant.of(id, spec.value(), scope).value());
    }

    /**
     * An approval was taken by its run: a grant of session scope or wider is in force for every later run too; a
     * {@code project} grant (with a project) and a {@code global} one are remembered for later sessions, in this process
     * or — with a store — any other. A store that cannot be written leaves it in force for this session only.
     */
    void accepted(Grant grant) {
        if (grant.scope().compareTo(Scope.SESSION) >= 0) current.add(grant).toOptional().ifPresent(g -> current = g);
        if (RememberedId.PATTERN.matcher(grant.id()).matches()) {
            try {
                remembering.remember(project, grant);
            } catch (RuntimeException storeFailed) {
                // Still in force for this session; the next one asks again.
            }
        }
    }

    private String nextId() { return "g" + ids.incrementAndGet(); }

    /** Whether {@code grantId} is an id this session gave a grant. */
    private boolean issued(String grantId) {
        if (!grantId.matches("g[1-9][0-9]{0,17}")) return false;
        return Long.parseLong(grantId.substring(1)) <= ids.get();
    }

    /** Whether {@code spec} names more than one thing (a glob or a wildcard): what only a host's grant may do. */
    private static boolean isPattern(CapabilitySpec spec) {
        String text = spec.toString().replace("${", "");
        // A subtree a word declares (fs.read($0/**) of tree-list) is the word's shape, not a pattern its caller chose.
        if (text.endsWith("/**)")) text = text.substring(0, text.length() - 4);
        for (char c : new char[] {'*', '?', '[', '{'}) if (text.indexOf(c) >= 0) return true;
        return false;
    }
}
