package dev.finch.capabilities;

import dev.finch.ir.diag.Origin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A root-relative selector over path segments: each segment a literal name, a glob such as {@code *.java} or
 * {@code a?c}, or {@code **} for any number (zero included) of segments. Immutable; {@code **} runs are collapsed.
 */
public final class SegmentPattern {
    /** The empty selector: it matches only the root itself. */
    public static final SegmentPattern EMPTY = new SegmentPattern(List.of());

    private final List<SegmentGlob> items;

    private SegmentPattern(List<SegmentGlob> items) { this.items = List.copyOf(items); }

    /** Parses relative selector text such as {@code src/**}{@code /*.java}; refusals for {@code ..}, {@code //} and the rest. */
    public static Attempt<SegmentPattern> parse(String text) { return parse(text, Origin.UNKNOWN); }

    /** Parses relative selector text, reporting refusals at {@code origin}. */
    public static Attempt<SegmentPattern> parse(String text, Origin origin) {
        return PathSyntax.splitRelative(text, true, origin).map(SegmentPattern::ofValidated);
    }

    /** Builds from already validated segment texts. */
    static SegmentPattern ofValidated(List<String> segments) {
        List<SegmentGlob> out = new ArrayList<>();
        for (String s : segments) {
            SegmentGlob g = SegmentGlob.compile(s);
            // "**/**" selects exactly what "**" selects; one spelling keeps printing canonical.
            if (g.isDoubleStar() && !out.isEmpty() && out.get(out.size() - 1).isDoubleStar()) continue;
            out.add(g);
        }
        return new SegmentPattern(out);
    }

    /** The segment texts, canonical. */
    public List<String> segments() {
        List<String> out = new ArrayList<>();
        for (SegmentGlob g : items) out.add(g.text());
        return List.copyOf(out);
    }

    /** True when every segment is a literal name, so the selector denotes exactly one path. */
    public boolean isConcrete() {
        for (SegmentGlob g : items) if (!g.isLiteral()) return false;
        return true;
    }

    /** True for the empty selector (the root itself). */
    public boolean isEmpty() { return items.isEmpty(); }

    /** This selector followed by {@code next}. */
    public SegmentPattern concat(SegmentPattern next) {
        List<String> all = new ArrayList<>(segments());
        all.addAll(next.segments());
        return ofValidated(all);
    }

    /** Whether the concrete, validated segment list is selected. */
    public boolean matches(List<String> names) {
        int n = items.size();
        BitSet states = closure(bit(0));
        for (String name : names) {
            BitSet next = new BitSet();
            for (int p = states.nextSetBit(0); p >= 0 && p < n; p = states.nextSetBit(p + 1)) {
                SegmentGlob g = items.get(p);
                if (g.isDoubleStar()) next.set(p);
                else if (g.matches(name)) next.set(p + 1);
            }
            states = closure(next);
            if (states.isEmpty()) return false;
        }
        return states.get(n);
    }

    /**
     * Whether every concrete path selected by {@code inner} is selected by this pattern. A breadth-first search over
     * (position in inner, set of positions in this) for a path inner selects and this rejects. Inner's segments are
     * symbolic: this pattern advances over an inner glob only where the outer glob provably contains it, so the set
     * tracked is a subset of the true one for every concrete instance; acceptance is monotone in that set, which makes
     * a "true" answer sound. It is exact whenever inner is concrete.
     */
    public boolean contains(SegmentPattern inner) {
        if (equals(inner)) return true;
        int n = items.size();
        int m = inner.items.size();
        SegmentGlob anyName = SegmentGlob.compile("*");
        Budget budget = new Budget(Budget.DEFAULT);
        Map<List<SegmentGlob>, Boolean> cache = new HashMap<>();
        record Node(int j, BitSet outer) {}
        ArrayDeque<Node> work = new ArrayDeque<>();
        Set<Node> seen = new HashSet<>();
        Node start = new Node(0, closure(bit(0)));
        work.add(start);
        seen.add(start);
        while (!work.isEmpty()) {
            if (!budget.spend()) return false;
            Node node = work.poll();
            int j = node.j();
            if (j == m) {
                if (!node.outer().get(n)) return false;
                continue;
            }
            SegmentGlob g = inner.items.get(j);
            if (g.isDoubleStar()) {
                // Inner "**" is zero segments (skip) or one more arbitrary name (stay).
                push(work, seen, new Node(j + 1, node.outer()));
                push(work, seen, new Node(j, advance(node.outer(), anyName, cache, budget)));
            } else {
                push(work, seen, new Node(j + 1, advance(node.outer(), g, cache, budget)));
            }
        }
        return true;
    }

    private static <N> void push(ArrayDeque<N> work, Set<N> seen, N n) { if (seen.add(n)) work.add(n); }

    /** The outer positions certainly reached after one name selected by {@code g}. */
    private BitSet advance(BitSet states, SegmentGlob g, Map<List<SegmentGlob>, Boolean> cache, Budget budget) {
        BitSet next = new BitSet();
        for (int p = states.nextSetBit(0); p >= 0 && p < items.size(); p = states.nextSetBit(p + 1)) {
            SegmentGlob h = items.get(p);
            if (h.isDoubleStar()) next.set(p);
            else if (cache.computeIfAbsent(List.of(h, g), k -> h.contains(g, budget))) next.set(p + 1);
        }
        return closure(next);
    }

    /** Adds the positions reachable by letting a {@code **} select nothing. */
    private BitSet closure(BitSet states) {
        BitSet c = (BitSet) states.clone();
        for (int p = 0; p < items.size(); p++) if (c.get(p) && items.get(p).isDoubleStar()) c.set(p + 1);
        return c;
    }

    private static BitSet bit(int i) {
        BitSet b = new BitSet();
        b.set(i);
        return b;
    }

    @Override public boolean equals(Object o) { return o instanceof SegmentPattern p && p.items.equals(items); }

    @Override public int hashCode() { return items.hashCode(); }

    /** Canonical text: segments joined by {@code /}; empty for the root itself. */
    @Override public String toString() { return String.join("/", segments()); }
}
