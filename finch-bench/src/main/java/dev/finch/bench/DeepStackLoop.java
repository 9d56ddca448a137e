package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.util.Arrays;

/**
 * {@link NewSourceLoop}'s reused-session case on a session whose stack already holds {@code depth} values: what a
 * deep stack adds to every new program (Co-Forth {@code i :> x x 2 * 1 + drop} and its Lisp twin, each never seen
 * before, the stack left as it was). Rounds of {@code N} submissions per depth and language, the best round's median.
 * Run: {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.DeepStackLoop [N] [rounds]}.
 */
public final class DeepStackLoop {
    private DeepStackLoop() { }

    private static final int[] DEPTHS = {0, 10, 100, 1_000, 10_000};

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (Finch finch = Finch.create()) {
            for (String language : new String[] {"forth", "lisp"}) {
                for (int depth : DEPTHS) {
                    System.out.printf("%-5s depth %6d  best round median %8.2f µs%n", language, depth, run(finch, language, depth, n, rounds));
                }
            }
        }
    }

    private static double run(Finch finch, String language, int depth, int n, int rounds) {
        Session s = finch.newSession();
        StringBuilder fill = new StringBuilder();
        for (int i = 0; i < depth; i++) fill.append(i).append(' ');
        if (depth > 0 && !(s.submit(Submission.of(fill.toString(), "fill.fth")) instanceof Outcome.Completed)) throw new IllegalStateException("fill");
        long counter = 0;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            long[] nanos = new long[n];
            for (int i = 0; i < n; i++) {
                long c = ++counter;
                long t0 = System.nanoTime();
                Outcome o = s.submit(language.equals("lisp")
                        ? Submission.of("(let ((x " + c + ")) (drop (+ (* x 2) 1)))", "turn.lisp")
                        : Submission.of(c + " :> x x 2 * 1 + drop", "turn.fth"));
                nanos[i] = System.nanoTime() - t0;
                if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
            }
            Arrays.sort(nanos);
            best = Math.min(best, nanos[n / 2] / 1000.0);
        }
        return best;
    }
}
