package dev.finch.vm.compile;

import java.util.Map;

/**
 * The stack shuffles as permutations, shared by both tiers: for each output position, the input it copies
 * (inputs counted from the deepest one the word consumes).
 */
final class Shuffles {
    private Shuffles() { }

    static final Map<String, int[]> OUTPUTS = Map.of(
            "dup", new int[] {0, 0},
            "drop", new int[] {},
            "swap", new int[] {1, 0},
            "over", new int[] {0, 1, 0},
            "rot", new int[] {1, 2, 0},
            "nip", new int[] {1},
            "tuck", new int[] {1, 0, 1});
}
