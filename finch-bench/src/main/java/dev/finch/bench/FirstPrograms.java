package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.util.Arrays;

/**
 * The latency curve of the first 10,000 never-seen programs in a fresh JVM (issue 40): one engine, each program
 * {@code x = i; x*2+1} in a new session, every submission timed; the medians of programs 1–100, 101–1,000 and
 * 1,001–10,000 printed, beside the first program's own time. Run once per fresh JVM and language:
 * {@code java -Xms1g -Xmx1g -cp finch-bench/target/benchmarks.jar dev.finch.bench.FirstPrograms forth|lisp}.
 */
public final class FirstPrograms {
    static final int N = 10_000;

    private FirstPrograms() { }

    public static void main(String[] args) {
        boolean lisp = args.length > 0 && args[0].equals("lisp");
        long[] nanos = new long[N];
        try (Finch finch = Finch.builder().build()) {
            for (int i = 0; i < N; i++) {
                long c = i + 1_000_000L;
                long t0 = System.nanoTime();
                Outcome o = finch.newSession().submit(lisp
                        ? Submission.of("(let ((x " + c + ")) (+ (* x 2) 1))", "turn.lisp")
                        : Submission.of(c + " :> x x 2 * 1 +", "turn.fth"));
                nanos[i] = System.nanoTime() - t0;
                if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
            }
        }
        System.out.printf("%-5s first %.0f µs; median 2–100 %.1f µs; 101–1,000 %.1f µs; 1,001–10,000 %.1f µs%n",
                lisp ? "lisp" : "forth", nanos[0] / 1000.0, median(nanos, 1, 100), median(nanos, 100, 1000), median(nanos, 1000, N));
    }

    private static double median(long[] nanos, int from, int to) {
        long[] part = Arrays.copyOfRange(nanos, from, to);
        Arrays.sort(part);
        return part[part.length / 2] / 1000.0;
    }
}
