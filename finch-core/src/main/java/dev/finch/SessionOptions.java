package dev.finch;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a host fixes when it opens a session: the workspace root that {@code path} values resolve against and
 * the capability grants given up front (canonical spellings such as {@code fs.read(${workspace}/**)}).
 * Grants are parsed when the session opens ({@link Session}); a malformed one is refused there. Installing the
 * workspace root grants nothing: every file operation still needs its own grant or an approval.
 * {@code deferred} selects the contract's deferred-host mode: every approved host request suspends and waits
 * for the embedder's {@link Session#respond} instead of being dispatched by Finch's local bindings.
 */
public record SessionOptions(Optional<Path> workspace, List<String> grants, boolean deferred) {
    /** No workspace, no grants. */
    public static final SessionOptions DEFAULT = new SessionOptions(Optional.empty(), List.of(), false);

    public SessionOptions(Optional<Path> workspace, List<String> grants) { this(workspace, grants, false); }

    public SessionOptions {
        java.util.Objects.requireNonNull(workspace, "workspace");
        grants = List.copyOf(grants);
    }

    /** These options with {@code dir} as the workspace root. */
    public SessionOptions withWorkspace(Path dir) { return new SessionOptions(Optional.of(dir), grants, deferred); }

    /** These options in deferred-host mode (or not). */
    public SessionOptions withDeferredHost(boolean on) { return new SessionOptions(workspace, grants, on); }

    /** These options with one more grant. */
    public SessionOptions withGrant(String grant) {
        java.util.List<String> g = new java.util.ArrayList<>(grants);
        g.add(grant);
        return new SessionOptions(workspace, g, deferred);
    }
}
