package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The same kernel defined in Lisp and in Co-Forth, called through {@code Session.call} beside handwritten Java, and the
 * Lisp one also through a submission ({@code (fib 27)}: read, lowered, verified and run as a program, its answer then
 * dropped by an untimed Co-Forth {@code drop} so that the stack does not grow; in a session of its own, whose kernel is
 * compiled apart from the called one), in one JVM at issue 40's short warm-up:
 * the four are run in turn for at least {@code 1.5 s} and 3 rounds, then {@code reps} rounds time one run of each by
 * this thread's CPU time; the medians and their ratios to Java are printed. {@code java -Xss16m -cp finch-bench/target/benchmarks.jar dev.finch.bench.LispKernels sum|fib [reps]}
 * (sum: 0 … 5·10^6−1 with a named let; fib: fib(27) with a self-recursive define).
 */
public final class LispKernels {
    static final String LISP_SUM = "(define (sum-to n) (let loop ((i 0) (t 0)) (if (< i n) (loop (+ i 1) (+ t i)) t)))";
    static final String LISP_FIB = "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))";

    private LispKernels() { }

    public static void main(String[] args) {
        boolean fib = args[0].equals("fib");
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        String word = fib ? "fib" : "sum-to";
        long n = fib ? 27 : 5_000_000;
        long expected = fib ? Kernels.javaFib(n) : Kernels.javaSum(n);
        try (Finch finch = Finch.create()) {
            Session lisp = finch.newSession();
            Session forth = finch.newSession();
            // Submissions go to a session of their own, with its own compiled kernel: the call path's code and its
            // profile are then the same as when nothing else calls the kernel.
            Session submitted = finch.newSession();
            defined(lisp.submit(Submission.of(fib ? LISP_FIB : LISP_SUM, "kernel.lisp")));
            defined(submitted.submit(Submission.of(fib ? LISP_FIB : LISP_SUM, "kernel.lisp")));
            defined(forth.submit(Submission.of(fib ? Kernels.FIB : Kernels.SUM, "kernel.fth")));
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long sink = 0;
            long start = System.nanoTime();
            Submission program = Submission.of("(" + word + " " + n + ")", "turn.lisp");
            Submission drop = Submission.of("drop", "drop.fth");
            for (int i = 0; i < 3 || System.nanoTime() - start < 1_500_000_000L; i++) {
                check(lisp.call(word, Value.of(n)), expected);
                check(submitted.submit(program), expected);
                defined(submitted.submit(drop));
                check(forth.call(word, Value.of(n)), expected);
                sink += fib ? Kernels.javaFib(n) : Kernels.javaSum(n);
            }
            double[] l = new double[reps];
            double[] f = new double[reps];
            double[] j = new double[reps];
            double[] p = new double[reps];
            for (int r = 0; r < reps; r++) {
                long s0 = mx.getCurrentThreadCpuTime();
                check(submitted.submit(program), expected);
                p[r] = (mx.getCurrentThreadCpuTime() - s0) / 1e6;
                defined(submitted.submit(drop));
                long t0 = mx.getCurrentThreadCpuTime();
                check(lisp.call(word, Value.of(n)), expected);
                long t1 = mx.getCurrentThreadCpuTime();
                check(forth.call(word, Value.of(n)), expected);
                long t2 = mx.getCurrentThreadCpuTime();
                sink += fib ? Kernels.javaFib(n) : Kernels.javaSum(n);
                long t3 = mx.getCurrentThreadCpuTime();
                l[r] = (t1 - t0) / 1e6;
                f[r] = (t2 - t1) / 1e6;
                j[r] = (t3 - t2) / 1e6;
            }
            Arrays.sort(l);
            Arrays.sort(f);
            Arrays.sort(j);
            Arrays.sort(p);
            double pm = p[reps / 2];
            double lm = l[reps / 2];
            double fm = f[reps / 2];
            double jm = j[reps / 2];
            System.out.printf("%-6s Lisp %.3f ms (%.2f× Java), Co-Forth %.3f ms (%.2f× Java), Lisp submission %.3f ms (%.2f× Java),"
                            + " Java %.3f ms; Lisp / Co-Forth %.2f (median CPU time per run; %d)%n",
                    word, lm, lm / jm, fm, fm / jm, pm, pm / jm, jm, lm / fm, sink % 10);
        }
    }

    private static void defined(Outcome o) {
        if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the kernel was not defined: " + o);
    }

    /** A call's answer, or a submission's: the value it left on top of the stack. */
    private static void check(Outcome o, long expected) {
        if (!(o instanceof Outcome.Completed c) || c.values().isEmpty() || c.values().get(c.values().size() - 1).asLong() != expected) {
            throw new IllegalStateException("the kernel answered " + o);
        }
    }
}
