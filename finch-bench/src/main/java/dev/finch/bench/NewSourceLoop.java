package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.util.Arrays;

/**
 * {@link NewSourceBenchmark}'s four new-program cases timed in a plain loop, long enough for the JIT to settle (JMH's
 * short warm-up leaves the medians still falling from one iteration to the next): rounds of {@code N} submissions,
 * each program never seen before, the median of each round printed and the best round's median reported. Fresh:
 * a new session per submission; reused: one session for all of them (its programs drop their answer). Run:
 * {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.NewSourceLoop [N] [rounds]}.
 */
public final class NewSourceLoop {
    private NewSourceLoop() { }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        for (String language : new String[] {"forth", "lisp"}) {
            for (boolean fresh : new boolean[] {true, false}) {
                System.out.printf("%-5s %-6s best round median %.2f µs%n", language, fresh ? "fresh" : "reused", run(language, fresh, n, rounds));
            }
        }
    }

    private static double run(String language, boolean fresh, int n, int rounds) {
        long counter = 0;
        double best = Double.MAX_VALUE;
        try (Finch finch = Finch.create()) {
            Session reused = finch.newSession();
            for (int round = 0; round < rounds; round++) {
                long[] nanos = new long[n];
                for (int i = 0; i < n; i++) {
                    long c = ++counter;
                    long t0 = System.nanoTime();
                    Session s = fresh ? finch.newSession() : reused;
                    Outcome o = s.submit(language.equals("lisp")
                            ? Submission.of("(let ((x " + c + ")) " + (fresh ? "(+ (* x 2) 1))" : "(drop (+ (* x 2) 1)))"), "turn.lisp")
                            : Submission.of(c + " :> x x 2 * 1 +" + (fresh ? "" : " drop"), "turn.fth"));
                    nanos[i] = System.nanoTime() - t0;
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
                }
                Arrays.sort(nanos);
                best = Math.min(best, nanos[n / 2] / 1000.0);
            }
        }
        return best;
    }
}
