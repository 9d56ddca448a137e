package dev.finch.capabilities;

import dev.finch.ir.diag.Origin;

import java.util.ArrayList;
import java.util.List;

/**
 * A canonical concrete path: a root and literal segment names, none of them {@code .}, {@code ..}, empty, or holding
 * NUL, wildcards or invisible characters. Names are kept byte-for-byte (NFC and NFD spellings stay distinct, a
 * backslash is an ordinary character, {@code ~} is a name). It denotes where a file would be, not that it exists.
 */
public final class ConcretePath {
    private final Root root;
    private final List<String> segments;

    private ConcretePath(Root root, List<String> segments) {
        this.root = root;
        this.segments = List.copyOf(segments);
    }

    /** The root itself. */
    public static ConcretePath rootOf(Root root) { return new ConcretePath(root, List.of()); }

    /** Parses {@code ${root}/a/b}. */
    public static Attempt<ConcretePath> parse(String text) { return parse(text, Origin.UNKNOWN); }

    /** Parses {@code ${root}/a/b}, reporting refusals at {@code origin}. */
    public static Attempt<ConcretePath> parse(String text, Origin origin) {
        return PathSyntax.splitRoot(text, origin).flatMap(r -> r.bare()
                ? Attempt.ok(rootOf(r.root()))
                : PathSyntax.splitRelative(r.rest(), false, origin).map(s -> new ConcretePath(r.root(), s)));
    }

    /**
     * Refines a program's relative path text under {@code root}, as {@code (path "notes/n.txt")} does. The text
     * {@code "."} alone names the root itself; any other {@code .} or {@code ..} segment is refused.
     */
    public static Attempt<ConcretePath> of(Root root, String relative) { return of(root, relative, Origin.UNKNOWN); }

    /** Refines relative path text under {@code root}, reporting refusals at {@code origin}. */
    public static Attempt<ConcretePath> of(Root root, String relative, Origin origin) {
        if (relative.equals(".")) return Attempt.ok(rootOf(root));
        return PathSyntax.splitRelative(relative, false, origin).map(s -> new ConcretePath(root, s));
    }

    /** The root. */
    public Root root() { return root; }

    /** The literal segment names; empty for the root itself. */
    public List<String> segments() { return segments; }

    /** The path relative to its root, segments joined by {@code /}; {@code "."} for the root itself. */
    public String relative() { return segments.isEmpty() ? "." : String.join("/", segments); }

    /** This path with {@code more} segments appended (each validated). */
    public Attempt<ConcretePath> resolve(ConcretePath more) {
        if (more.root != root)
            return Attempt.refused(CapabilityCode.TEMPLATE_ROOT_MISMATCH.at(Origin.UNKNOWN,
                    "cannot append a path under another root", root.prefix(), more.root.prefix()));
        List<String> all = new ArrayList<>(segments);
        all.addAll(more.segments);
        return checkedLength(root, all);
    }

    static Attempt<ConcretePath> checkedLength(Root root, List<String> segments) {
        String rel = String.join("/", segments);
        if (PathSyntax.utf8Length(rel) > PathSyntax.MAX_PATH_BYTES)
            return Attempt.refused(CapabilityCode.PATH_TOO_LONG.at(Origin.UNKNOWN, "path longer than " + PathSyntax.MAX_PATH_BYTES + " bytes"));
        return Attempt.ok(new ConcretePath(root, segments));
    }

    @Override public boolean equals(Object o) { return o instanceof ConcretePath p && p.root == root && p.segments.equals(segments); }

    @Override public int hashCode() { return root.hashCode() * 31 + segments.hashCode(); }

    /** The selector spelling, e.g. {@code ${workspace}/notes/n.txt}. */
    @Override public String toString() { return segments.isEmpty() ? root.prefix() : root.prefix() + "/" + String.join("/", segments); }
}
