package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.util.Arrays;

/**
 * {@link NewSourceBenchmark#freshEngine}'s operation timed in a plain loop long enough for the JIT to settle: a
 * brand-new {@code Finch}, a session of it, {@code 1 2 +}, and closing the {@code Finch}; rounds of {@code N}, the
 * median of the best round reported. Run:
 * {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.FreshEngineLoop [N] [rounds]}.
 */
public final class FreshEngineLoop {
    private FreshEngineLoop() { }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            long[] nanos = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                try (Finch finch = Finch.builder().build()) {
                    Outcome o = finch.newSession().submit(Submission.of("1 2 +", "turn.fth"));
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
                }
                nanos[i] = System.nanoTime() - t0;
            }
            Arrays.sort(nanos);
            best = Math.min(best, nanos[n / 2] / 1000.0);
        }
        System.out.printf("brand-new engine + 1 2 + : best round median %.2f µs%n", best);
    }
}
