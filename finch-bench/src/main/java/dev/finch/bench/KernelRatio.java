package dev.finch.bench;

import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * A compiled kernel and its handwritten Java twin timed alternately in one JVM, by the CPU time of this thread: on
 * a machine other work shares, both see the same load, clock and cache, so their ratio holds still where separate
 * runs ({@link KernelCpuTime}, JMH) move with the load. Each is warmed up ({@code 300} calls), then {@code reps}
 * rounds time five calls of the word and five of Java; the least and median per call and their ratios are printed.
 * {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.KernelRatio KERNEL [reps]}, KERNEL one of
 * {@code fib} (fib(27)), {@code sum} and {@code sum-calls} (to 5·10^6).
 */
public final class KernelRatio {
    private KernelRatio() { }

    public static void main(String[] args) throws Throwable {
        String which = args[0];
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        try (Vm vm = new Vm()) {
            Ctx ctx = Kernels.context();
            MethodHandle word;
            long n;
            boolean fib = which.equals("fib");
            switch (which) {
                case "fib" -> { word = Kernels.define(vm, Kernels.FIB, "fib").handle(); n = 27; }
                case "sum" -> { word = Kernels.define(vm, CallBenchmark.SUM5, "sum-to").handle(); n = 5_000_000; }
                case "sum-calls" -> { word = Kernels.define(vm, CallBenchmark.SUM_CALLS, "sum-calls").handle(); n = 5_000_000; }
                default -> throw new IllegalArgumentException("no kernel " + which);
            }
            long sink = 0;
            for (int i = 0; i < 300; i++) {
                sink += (long) word.invokeExact(ctx, 0, n);
                sink += fib ? Kernels.javaFib(n) : Kernels.javaSum(n);
            }
            double[] w = new double[reps];
            double[] j = new double[reps];
            var mx = ManagementFactory.getThreadMXBean();
            for (int r = 0; r < reps; r++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < 5; i++) sink += (long) word.invokeExact(ctx, 0, n);
                long t1 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < 5; i++) sink += fib ? Kernels.javaFib(n) : Kernels.javaSum(n);
                long t2 = mx.getCurrentThreadCpuTime();
                w[r] = (t1 - t0) / 5e6;
                j[r] = (t2 - t1) / 5e6;
            }
            Arrays.sort(w);
            Arrays.sort(j);
            System.out.printf("%-9s word %.3f / %.3f ms, Java %.3f / %.3f ms (least / median, CPU time per call): word / Java %.2f / %.2f (%d)%n",
                    which, w[0], w[reps / 2], j[0], j[reps / 2], w[0] / j[0], w[reps / 2] / j[reps / 2], sink);
        }
    }
}
