package dev.finch.ir.diag;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** "Did you mean" suggestions for every phase: the nearest names by edit distance (one implementation). */
public final class Suggestions {
    private Suggestions() { }

    /** The longest name that gets suggestions: a hostile megabyte name costs nothing. */
    private static final int MAX_NAME = 256;

    /** Up to three names close to {@code name}, nearest first. */
    public static List<String> near(String name, Collection<String> candidates) { return near(name, candidates, 3); }

    /**
     * Up to {@code max} names close to {@code name}, nearest first — none rather than noise. A candidate is close
     * when it is within a third of the name's length in edits (at least 1, at most 3; an adjacent transposition is one
     * edit) and keeps some of it (fewer edits than the name has characters: {@code .} or {@code f} is near no other
     * one-character name), or when one is a prefix of the other, both have at least three characters and the shorter
     * is at least half the longer. Nearer first, then the
     * longer shared prefix ({@code cnd} is nearer {@code cond} than {@code and}), then by name.
     */
    public static List<String> near(String name, Collection<String> candidates, int max) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME || max <= 0) return List.of();
        String n = name.toLowerCase(java.util.Locale.ROOT);
        int limit = Math.max(1, Math.min(3, n.length() / 3));
        record Scored(String name, int distance, int shared) { }
        List<Scored> scored = new ArrayList<>();
        for (String c : new TreeSet<>(candidates)) {
            if (c.equals(name) || c.length() > MAX_NAME) continue;
            String lc = c.toLowerCase(java.util.Locale.ROOT);
            boolean prefix = lc.length() >= 3 && n.length() >= 3 && (lc.startsWith(n) || n.startsWith(lc))
                    && 2 * Math.min(lc.length(), n.length()) >= Math.max(lc.length(), n.length());
            // Lengths further apart than the limit are further apart in edits too: skip them before the quadratic distance.
            if (!prefix && Math.abs(lc.length() - n.length()) > limit) continue;
            int d = distance(n, lc);
            if ((d <= limit && d < n.length()) || prefix) scored.add(new Scored(c, prefix ? Math.min(d, limit) : d, shared(n, lc)));
        }
        scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Comparator.comparingInt(Scored::shared).reversed())
                .thenComparing(Scored::name));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(max, scored.size()); i++) out.add(scored.get(i).name());
        return out;
    }

    private static int shared(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) i++;
        return i;
    }

    /** A sentence suffix such as {@code "; did you mean `dup`?"}, or empty. */
    public static String didYouMean(String name, Collection<String> candidates) {
        List<String> near = near(name, candidates);
        if (near.isEmpty()) return "";
        StringBuilder b = new StringBuilder("; did you mean ");
        for (int i = 0; i < near.size(); i++) {
            if (i > 0) b.append(i == near.size() - 1 ? " or " : ", ");
            b.append('`').append(near.get(i)).append('`');
        }
        return b.append('?').toString();
    }

    public static Optional<String> best(String name, Collection<String> candidates) {
        List<String> near = near(name, candidates);
        return near.isEmpty() ? Optional.empty() : Optional.of(near.get(0));
    }

    /** Edit distance counting an adjacent transposition as one edit (optimal string alignment), the commonest typo. */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
