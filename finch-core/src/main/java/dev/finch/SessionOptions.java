package dev.finch;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a host fixes when it opens a session: the workspace root that {@code path} values resolve against and
 * the capability grants given up front (canonical spellings such as {@code fs.read(${workspace}/**)}).
 * Capabilities are enforced once the capability layer lands (issue 6); until then they are recorded here.
 */
public record SessionOptions(Optional<Path> workspace, List<String> grants) {
    /** No workspace, no grants. */
    public static final SessionOptions DEFAULT = new SessionOptions(Optional.empty(), List.of());

    public SessionOptions {
        java.util.Objects.requireNonNull(workspace, "workspace");
        grants = List.copyOf(grants);
    }

    /** These options with {@code dir} as the workspace root. */
    public SessionOptions withWorkspace(Path dir) { return new SessionOptions(Optional.of(dir), grants); }

    /** These options with one more grant. */
    public SessionOptions withGrant(String grant) {
        java.util.List<String> g = new java.util.ArrayList<>(grants);
        g.add(grant);
        return new SessionOptions(workspace, g);
    }
}
