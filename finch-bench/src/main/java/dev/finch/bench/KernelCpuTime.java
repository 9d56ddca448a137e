package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import dev.finch.vm.Vm;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * {@link CallBenchmark}'s kernels timed by CPU time rather than the wall clock (the CPU time of every Java thread:
 * {@code Session.call} may run the word on a worker): on a machine whose cores other work shares, the time a run
 * waits for a core is not counted, so the ratios to Java hold still where JMH's intervals do not. Each kernel is warmed up ({@code 300} calls), then timed in {@code reps}
 * batches of five calls; the least and the median batch per call are printed. Run one kernel per JVM (its
 * compiled code is then the JIT's only work): {@code java -cp finch-bench/target/benchmarks.jar
 * dev.finch.bench.KernelCpuTime KERNEL [reps]}, KERNEL one of {@code fib-word fib-call fib-java sum-word sum-call
 * sum-java sum-calls-word sum-calls-call}.
 */
public final class KernelCpuTime {
    private KernelCpuTime() { }

    /** One call of a kernel. */
    private interface Kernel { Object run() throws Throwable; }

    public static void main(String[] args) throws Throwable {
        String which = args[0];
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        try (Vm vm = new Vm(); Finch finch = Finch.builder().build()) {
            Kernel k = kernel(which, vm, finch);
            Object sink = null;
            for (int i = 0; i < 300; i++) sink = k.run();
            double[] perCall = new double[reps];
            for (int r = 0; r < reps; r++) {
                long t0 = cpuNanos();
                for (int i = 0; i < 5; i++) sink = k.run();
                perCall[r] = (cpuNanos() - t0) / 5e6;
            }
            Arrays.sort(perCall);
            System.out.printf("%-15s least %.3f ms, median %.3f ms (CPU time per call; %s)%n", which, perCall[0], perCall[reps / 2],
                    sink instanceof Outcome o ? o.status() : sink);
        }
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
