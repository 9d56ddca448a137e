package dev.finch.capabilities;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * One segment of a selector: a literal name, a glob with {@code *} (any run of characters) and {@code ?} (one code
 * point) inside it, or the whole-segment {@code **} marker. Text is assumed validated by {@link PathSyntax}.
 */
final class SegmentGlob {
    private static final int ANY_ONE = -1;
    private static final int ANY_RUN = -2;
    /** Stands for every code point that no literal of either glob mentions; there are always infinitely many. */
    private static final int OTHER = -3;
    static final SegmentGlob DOUBLE_STAR = new SegmentGlob("**", new int[0]);

    private final String text;
    private final int[] tokens;
    private final boolean literal;

    private SegmentGlob(String text, int[] tokens) {
        this.text = text;
        this.tokens = tokens;
        boolean lit = !text.equals("**");
        for (int t : tokens) if (t < 0) lit = false;
        this.literal = lit;
    }

    /** Compiles validated selector text; {@code "**"} gives {@link #DOUBLE_STAR}. */
    static SegmentGlob compile(String text) {
        if (text.equals("**")) return DOUBLE_STAR;
        int[] t = text.codePoints().map(cp -> cp == '*' ? ANY_RUN : cp == '?' ? ANY_ONE : cp).toArray();
        return new SegmentGlob(text, t);
    }

    boolean isDoubleStar() { return this == DOUBLE_STAR; }

    boolean isLiteral() { return literal; }

    String text() { return text; }

    /** Whether the segment name {@code name} matches (never called on {@link #DOUBLE_STAR}). */
    boolean matches(String name) {
        if (tokens.length == 1 && tokens[0] == ANY_RUN) return true;
        if (isLiteral()) return text.equals(name);
        int[] cps = name.codePoints().toArray();
        // Classic greedy wildcard matching: on a mismatch, let the last '*' swallow one more code point. Linear in
        // practice and O(n*m) at worst, without allocation per step.
        int t = 0, c = 0, starT = -1, starC = 0;
        while (c < cps.length) {
            if (t < tokens.length && (tokens[t] == ANY_ONE || tokens[t] == cps[c])) { t++; c++; }
            else if (t < tokens.length && tokens[t] == ANY_RUN) { starT = t++; starC = c; }
            else if (starT >= 0) { t = starT + 1; c = ++starC; }
            else return false;
        }
        while (t < tokens.length && tokens[t] == ANY_RUN) t++;
        return t == tokens.length;
    }

    /**
     * Whether every non-empty name matched by {@code inner} is matched by this glob. Decided exactly: a breadth-first
     * search over pairs (a state of inner's automaton, the set of this glob's states) looking for a word inner accepts
     * and this glob rejects. The alphabet is finite up to equivalence: the literals of both globs plus "any other".
     */
    boolean contains(SegmentGlob inner) { return contains(inner, new Budget(Budget.DEFAULT)); }

    /** As {@link #contains(SegmentGlob)}, spending from {@code budget}; false when it runs out. */
    boolean contains(SegmentGlob inner, Budget budget) {
        if (isDoubleStar() || inner.isDoubleStar()) throw new IllegalArgumentException("'**' is not a segment glob");
        if (Arrays.equals(tokens, inner.tokens)) return true;
        Set<Integer> letters = new TreeSet<>();
        for (int t : tokens) if (t >= 0) letters.add(t);
        for (int t : inner.tokens) if (t >= 0) letters.add(t);
        letters.add(OTHER);
        int m = inner.tokens.length;
        record Node(int j, BitSet outer, boolean consumed) {}
        ArrayDeque<Node> work = new ArrayDeque<>();
        Set<Node> seen = new HashSet<>();
        Node start = new Node(0, closure(bit(0)), false);
        work.add(start);
        seen.add(start);
        while (!work.isEmpty()) {
            if (!budget.spend()) return false;
            Node node = work.poll();
            int j = node.j();
            if (j == m) {
                // Names are never empty, so the empty word does not count as a witness.
                if (node.consumed() && !node.outer().get(tokens.length)) return false;
                continue;
            }
            int tok = inner.tokens[j];
            if (tok == ANY_RUN) enqueue(work, seen, new Node(j + 1, node.outer(), node.consumed()));
            for (int a : letters) {
                if (tok >= 0 && tok != a) continue;
                if (!budget.spend()) return false;
                int next = tok == ANY_RUN ? j : j + 1;
                enqueue(work, seen, new Node(next, step(node.outer(), a), true));
            }
        }
        return true;
    }

    private static <N> void enqueue(ArrayDeque<N> work, Set<N> seen, N n) { if (seen.add(n)) work.add(n); }

    /** One input code point (or OTHER) from a closed state set; the result is closed again. */
    private BitSet step(BitSet states, int cp) {
        BitSet next = new BitSet();
        for (int s = states.nextSetBit(0); s >= 0 && s < tokens.length; s = states.nextSetBit(s + 1)) {
            int t = tokens[s];
            if (t == ANY_RUN) next.set(s);
            else if (t == ANY_ONE || t == cp) next.set(s + 1);
        }
        return closure(next);
    }

    /** Adds the states reachable by letting a {@code *} match nothing. */
    private BitSet closure(BitSet states) {
        BitSet c = (BitSet) states.clone();
        for (int s = 0; s < tokens.length; s++) if (c.get(s) && tokens[s] == ANY_RUN) c.set(s + 1);
        return c;
    }

    private static BitSet bit(int i) {
        BitSet b = new BitSet();
        b.set(i);
        return b;
    }

    @Override public boolean equals(Object o) { return o instanceof SegmentGlob g && g.text.equals(text); }

    @Override public int hashCode() { return text.hashCode(); }

    @Override public String toString() { return text; }
}
