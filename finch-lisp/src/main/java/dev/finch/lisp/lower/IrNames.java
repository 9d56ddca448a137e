package dev.finch.lisp.lower;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The local names of one IR word, closures included (one flat namespace): a source name keeps its spelling when it
 * is free and otherwise gets the next free {@code -2}, {@code -3}, … suffix. The next suffix of each base is
 * remembered, so a thousand locals named {@code x} cost a thousand probes, not half a million.
 */
final class IrNames {
    private final Set<String> taken = new HashSet<>();
    private final Map<String, Integer> nextSuffix = new HashMap<>();

    /** A name from {@code base} that is neither taken in this word nor {@code reserved}; it is taken from now on. */
    String fresh(String base, Predicate<String> reserved) {
        String ir = base;
        if (taken.contains(ir) || reserved.test(ir)) {
            int k = nextSuffix.getOrDefault(base, 2);
            for (ir = base + "-" + k; taken.contains(ir) || reserved.test(ir); ir = base + "-" + k) k++;
            nextSuffix.put(base, k + 1);
        }
        taken.add(ir);
        return ir;
    }

    /** Takes a name chosen elsewhere (a parameter named while its signature was inferred). */
    void add(String ir) { taken.add(ir); }
}
