package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The cost of issue 40's E, one language at a time, in figures the load of a shared machine does not move: the bytes
 * this thread allocates per never-seen one-line program (a new session of one warm engine each), beside its CPU time.
 * The loop runs {@code seconds} (default 3) and then times {@value #TIMED} programs one by one; run it under C1 only
 * ({@code -XX:TieredStopAtLevel=1}) for the work itself, and under a sampling profiler (JFR) for where it goes:
 * {@code java -XX:TieredStopAtLevel=1 -cp finch-bench/target/benchmarks.jar dev.finch.bench.SubmitCost forth|lisp [seconds]}.
 */
public final class SubmitCost {
    static final int TIMED = 2_000;

    private SubmitCost() { }

    public static void main(String[] args) {
        boolean lisp = args.length > 0 && args[0].equals("lisp");
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long c = 1_000_000L;
        try (Finch finch = Finch.builder().build()) {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) submit(finch, lisp, ++c);
            long[] cpu = new long[TIMED];
            long bytes0 = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < TIMED; i++) {
                long t0 = threads.getCurrentThreadCpuTime();
                submit(finch, lisp, ++c);
                cpu[i] = threads.getCurrentThreadCpuTime() - t0;
            }
            long bytes = threads.getThreadAllocatedBytes(id) - bytes0;
            Arrays.sort(cpu);
            System.out.printf("%-5s %,d bytes allocated per program; cpu median %.2f µs (after %.1f s)%n",
                    lisp ? "lisp" : "forth", bytes / TIMED, cpu[TIMED / 2] / 1000.0, seconds);
        }
    }

    private static void submit(Finch finch, boolean lisp, long c) {
        Outcome o = finch.newSession().submit(lisp
                ? Submission.of("(let ((x " + c + ")) (+ (* x 2) 1))", "turn.lisp")
                : Submission.of(c + " :> x x 2 * 1 +", "turn.fth"));
        if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
    }
}
