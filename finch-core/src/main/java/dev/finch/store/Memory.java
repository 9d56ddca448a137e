package dev.finch.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.capabilities.SegmentPattern;
import dev.finch.host.MemoryWrites.Tree;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Memory trees: JSON values under paths, in three trees — a session's ({@code session}), a project's ({@code project})
 * and the store's own ({@code global}) — the trees the capabilities {@code memory.read(tree=…,path=…)} and
 * {@code memory.write(tree=…,path=…)} name. A path is a concrete relative path of segments ({@code notes/2026/todo}),
 * spelled as a capability's path selector is (no {@code ..}, no empty segment, no wildcard); a value is at most
 * {@link StoreLimits#maxValueBytes()} of compact JSON, and a tree of one owner holds at most
 * {@link StoreLimits#maxEntriesPerTree()} entries.
 */
public interface Memory {
    /**
     * One owner's tree: a session's ({@code owner} its session id), a project's (its project id) or the global one
     * ({@code owner} empty). The trees are the host words' {@link Tree}: one definition for programs, capabilities and
     * stores.
     */
    record Space(Tree tree, String owner) {
        public Space {
            Objects.requireNonNull(tree, "tree");
            if (tree == Tree.GLOBAL) {
                if (owner != null && !owner.isEmpty()) throw new StoreException(StoreCode.BAD_KEY, "the global memory tree has no owner");
                owner = "";
            } else {
                StoreChecks.id(tree == Tree.SESSION ? "a session id" : "a project id", owner);
            }
        }

        /** Session {@code sessionId}'s tree. */
        public static Space session(String sessionId) { return new Space(Tree.SESSION, sessionId); }

        /** Project {@code projectId}'s tree. */
        public static Space project(String projectId) { return new Space(Tree.PROJECT, projectId); }

        /** The global tree. */
        public static Space global() { return new Space(Tree.GLOBAL, ""); }

        /** The entry at {@code path} of this tree. */
        public Key at(String path) { return new Key(this, path); }
    }

    /** An entry's key: a tree of one owner and a path in it, canonical ({@code a/b}, whatever spelling was given). */
    record Key(Space space, String path) {
        public Key {
            Objects.requireNonNull(space, "space");
            path = canonicalPath(path, false);
        }
    }

    /** The paths a listing found, in order (by code point), and whether more matched than it returns. */
    record Listing(List<String> paths, boolean truncated) {
        public Listing { paths = List.copyOf(paths); }
    }

    /**
     * {@code path} as a canonical concrete path ({@code a/b}), or the empty path when {@code prefix} allows it (a listing
     * of a whole tree); else {@code E-STORE-004}. The capabilities' own path syntax decides what a path is.
     */
    static String canonicalPath(String path, boolean prefix) {
        if (path == null) throw new StoreException(StoreCode.BAD_KEY, "a memory path is missing");
        if (prefix && path.isEmpty()) return "";
        StoreChecks.chars("a memory path", path, Integer.MAX_VALUE);
        int bytes = path.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > StoreLimits.MAX_PATH_BYTES) {
            throw new StoreException(StoreCode.TOO_LARGE, "a memory path is " + bytes + " bytes long; at most " + StoreLimits.MAX_PATH_BYTES);
        }
        var parsed = SegmentPattern.parse(path);
        if (!parsed.isOk()) {
            throw new StoreException(StoreCode.BAD_KEY, "\"" + abbreviate(path) + "\" is not a memory path: " + parsed.refusals().get(0).message());
        }
        SegmentPattern p = parsed.value();
        if (p.isEmpty()) throw new StoreException(StoreCode.BAD_KEY, "a memory path names at least one segment");
        if (!p.isConcrete()) {
            throw new StoreException(StoreCode.BAD_KEY, "\"" + abbreviate(path) + "\" is a pattern; a memory path names one entry (no * or ?)");
        }
        return String.join("/", p.segments());
    }

    private static String abbreviate(String s) { return s.length() <= 80 ? s : s.substring(0, 80) + "…"; }

    /** The value at {@code key}, if there is one. */
    Optional<JsonNode> get(Key key);

    /** Sets the value at {@code key} (JSON {@code null} included), replacing what was there. */
    void put(Key key, JsonNode value);

    /** Deletes the entry at {@code key}; true when there was one. */
    boolean delete(Key key);

    /**
     * The paths of {@code space} at or under {@code prefix} — the path itself and every path that continues it with
     * {@code /} (the empty prefix: the whole tree) — in order, at most {@code limit} of them (1 to
     * {@link StoreLimits#maxListing()}).
     */
    Listing list(Space space, String prefix, int limit);

    /** Deletes every entry of {@code space} (a session's tree when the session is gone); how many there were. */
    int clear(Space space);
}
