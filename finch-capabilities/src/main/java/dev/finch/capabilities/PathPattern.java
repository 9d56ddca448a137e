package dev.finch.capabilities;

import dev.finch.ir.diag.Origin;

/**
 * A path selector {@code ${root}/segments…} as used by {@code fs.read}/{@code fs.write} grants and requirements.
 * Containment is decided soundly ({@link #contains}); different roots never contain each other.
 */
public final class PathPattern {
    private final Root root;
    private final SegmentPattern segments;

    private PathPattern(Root root, SegmentPattern segments) {
        this.root = root;
        this.segments = segments;
    }

    /** A selector from its parts. */
    public static PathPattern of(Root root, SegmentPattern segments) { return new PathPattern(root, segments); }

    /** The selector that denotes exactly {@code path}. */
    public static PathPattern of(ConcretePath path) {
        return new PathPattern(path.root(), SegmentPattern.ofValidated(path.segments()));
    }

    /** Parses {@code ${workspace}/src/**}; refusals for unknown roots, {@code ..}, {@code //}, NUL and the rest. */
    public static Attempt<PathPattern> parse(String text) { return parse(text, Origin.UNKNOWN); }

    /** Parses selector text, reporting refusals at {@code origin}. */
    public static Attempt<PathPattern> parse(String text, Origin origin) {
        return PathSyntax.splitRoot(text, origin).flatMap(r -> r.bare()
                ? Attempt.ok(new PathPattern(r.root(), SegmentPattern.EMPTY))
                : SegmentPattern.parse(r.rest(), origin).map(s -> new PathPattern(r.root(), s)));
    }

    /** The root. */
    public Root root() { return root; }

    /** The root-relative part. */
    public SegmentPattern segments() { return segments; }

    /** True when the selector denotes exactly one path. */
    public boolean isConcrete() { return segments.isConcrete(); }

    /** Whether the concrete path is selected. */
    public boolean matches(ConcretePath path) { return path.root() == root && segments.matches(path.segments()); }

    /** Whether every concrete path selected by {@code inner} is selected by this; false when unsure. */
    public boolean contains(PathPattern inner) { return inner.root == root && segments.contains(inner.segments); }

    @Override public boolean equals(Object o) { return o instanceof PathPattern p && p.root == root && p.segments.equals(segments); }

    @Override public int hashCode() { return root.hashCode() * 31 + segments.hashCode(); }

    /** Canonical spelling. */
    @Override public String toString() { return segments.isEmpty() ? root.prefix() : root.prefix() + "/" + segments; }
}
