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

    /** Up to three names close to {@code name}, nearest first. */
    public static List<String> near(String name, Collection<String> candidates) {
        int limit = Math.max(1, Math.min(3, name.length() / 3));
        List<String[]> scored = new ArrayList<>();
        for (String c : new TreeSet<>(candidates)) {
            if (c.equals(name)) continue;
            int d = distance(name.toLowerCase(java.util.Locale.ROOT), c.toLowerCase(java.util.Locale.ROOT));
            boolean prefix = c.length() >= 3 && name.length() >= 3 && (c.startsWith(name) || name.startsWith(c));
            if (d <= limit || prefix) scored.add(new String[] {c, String.valueOf(prefix ? Math.min(d, limit) : d)});
        }
        scored.sort(Comparator.comparingInt((String[] a) -> Integer.parseInt(a[1])).thenComparing(a -> a[0]));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(3, scored.size()); i++) out.add(scored.get(i)[0]);
        return out;
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
