package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * {@link CallBenchmark}'s kernels timed by CPU time rather than the wall clock (the CPU time of every Java thread:
 * {@code Session.call} may run the word on a worker): on a machine whose cores other work shares, the time a run
 * waits for a core is not counted, so the ratios to Java hold still where JMH's intervals do not.
 *
 * <p>One kernel per JVM (its compiled code is then the JIT's only work): {@code java -cp
 * finch-bench/target/benchmarks.jar dev.finch.bench.KernelCpuTime KERNEL [reps] [warm-up]}, KERNEL one of {@code
 * fib-word fib-call fib-java sum-word sum-call sum-java sum-calls-word sum-calls-call}. Each kernel is warmed up
 * ({@code warm-up} calls, 300 by default), then timed in {@code reps} batches of five calls (60 by default); the
 * least and the median batch per call are printed.
 *
 * <p>Or one workload's variants side by side in one JVM, a batch of each in turn, so that whatever load the machine
 * has falls on all of them alike: KERNEL {@code fib}, {@code sum} or {@code sum-calls} times the compiled word, its
 * {@code Session.call} and (for the first two) the Java, and prints each one's least and median batch and the median
 * over the rounds of each round's ratios. A warm-up ending in {@code s} is that many seconds of calls of each variant
 * (JMH's {@code CallBenchmark} warms up for three), else a number of calls.
 */
public final class KernelCpuTime {
    private KernelCpuTime() { }

    /** One call of a kernel. */
    private interface Kernel { Object run() throws Throwable; }

    public static void main(String[] args) throws Throwable {
        String which = args[0];
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        String warm = args.length > 2 ? args[2] : "300";
        try (Vm vm = new Vm(); Finch finch = Finch.builder().build()) {
            String[] names = switch (which) {
                case "fib" -> new String[] {"fib-word", "fib-call", "fib-java"};
                case "sum" -> new String[] {"sum-word", "sum-call", "sum-java"};
                case "sum-calls" -> new String[] {"sum-calls-word", "sum-calls-call"};
                default -> new String[] {which};
            };
            Kernel[] kernels = new Kernel[names.length];
            for (int i = 0; i < names.length; i++) kernels[i] = kernel(names[i], vm, finch);
            Object[] sinks = new Object[names.length];
            for (int i = 0; i < names.length; i++) sinks[i] = warmUp(kernels[i], warm);
            double[][] perCall = new double[names.length][reps];
            for (int r = 0; r < reps; r++) {
                for (int i = 0; i < names.length; i++) {
                    long t0 = cpuNanos();
                    for (int j = 0; j < 5; j++) sinks[i] = kernels[i].run();
                    perCall[i][r] = (cpuNanos() - t0) / 5e6;
                }
            }
            for (int i = 0; i < names.length; i++) {
                double[] sorted = perCall[i].clone();
                Arrays.sort(sorted);
                System.out.printf("%-15s least %.3f ms, median %.3f ms (CPU time per call; %s)%n", names[i], sorted[0], sorted[reps / 2],
                        sinks[i] instanceof Outcome o ? o.status() : sinks[i]);
            }
            if (names.length > 1) {
                System.out.printf("%-15s median of the rounds' call/word %.3f%s%n", which, medianRatio(perCall[1], perCall[0]),
                        names.length > 2 ? String.format(", word/java %.3f, call/java %.3f", medianRatio(perCall[0], perCall[2]),
                                medianRatio(perCall[1], perCall[2])) : "");
            }
        }
    }

    /** Warms {@code k} up: {@code warm} calls, or for {@code warm} seconds when it ends in {@code s}; its last answer. */
    private static Object warmUp(Kernel k, String warm) throws Throwable {
        Object sink = null;
        if (warm.endsWith("s")) {
            long end = System.nanoTime() + (long) (Double.parseDouble(warm.substring(0, warm.length() - 1)) * 1e9);
            while (System.nanoTime() - end < 0) sink = k.run();
        } else {
            for (int i = Integer.parseInt(warm); i > 0; i--) sink = k.run();
        }
        return sink;
    }

    /** The median over the rounds of {@code a[r] / b[r]}. */
    private static double medianRatio(double[] a, double[] b) {
        double[] ratios = new double[a.length];
        for (int r = 0; r < a.length; r++) ratios[r] = a[r] / b[r];
        Arrays.sort(ratios);
        return ratios[ratios.length / 2];
    }

    /** The CPU time of every live Java thread (not the JIT's or the collector's). */
    private static long cpuNanos() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long t : mx.getThreadCpuTime(mx.getAllThreadIds())) if (t > 0) sum += t;
        return sum;
    }

    private static Kernel kernel(String which, Vm vm, Finch finch) {
        Ctx ctx = Kernels.context();
        Session session = finch.newSession();
        Outcome defined = session.submit(Submission.of(Kernels.FIB + " " + CallBenchmark.SUM5 + " " + CallBenchmark.SUM_CALLS, "kernels.fth"));
        if (!(defined instanceof Outcome.Completed)) throw new IllegalStateException(defined.toString());
        return switch (which) {
            case "fib-word" -> {
                MethodHandle h = Kernels.define(vm, Kernels.FIB, "fib").handle();
                yield () -> (long) h.invokeExact(ctx, 0, 27L);
            }
            case "fib-call" -> () -> session.call("fib", Value.of(27));
            case "fib-java" -> () -> Kernels.javaFib(27);
            case "sum-word" -> {
                MethodHandle h = Kernels.define(vm, CallBenchmark.SUM5, "sum-to").handle();
                yield () -> (long) h.invokeExact(ctx, 0, 5_000_000L);
            }
            case "sum-call" -> () -> session.call("sum-to", Value.of(5_000_000));
            case "sum-java" -> () -> Kernels.javaSum(5_000_000L);
            case "sum-calls-word" -> {
                MethodHandle h = Kernels.define(vm, CallBenchmark.SUM_CALLS, "sum-calls").handle();
                yield () -> (long) h.invokeExact(ctx, 0, 5_000_000L);
            }
            case "sum-calls-call" -> () -> session.call("sum-calls", Value.of(5_000_000));
            default -> throw new IllegalArgumentException("no kernel " + which);
        };
    }
}
