package dev.finch.bench;

import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Compiled Finch words against handwritten Java, in one run: recursive fib(30), a summing loop to 10^7, and 10^6
 * appends to a persistent list. The Finch side includes everything generated code does at run time (checked
 * arithmetic, step fuel, depth checks).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xss64m", "-Xms2g", "-Xmx2g"})
public class KernelBenchmark {
    private Vm vm;
    private MethodHandle fib;
    private MethodHandle sum;
    private MethodHandle appends;
    private Ctx ctx;

    @Setup public void setup() {
        vm = new Vm();
        fib = Kernels.define(vm, Kernels.FIB, "fib").handle();
        sum = Kernels.define(vm, Kernels.SUM, "sum-to").handle();
        appends = Kernels.define(vm, Kernels.APPENDS, "build").handle();
        ctx = Kernels.context();
    }

    @TearDown public void tearDown() { vm.close(); }

    @Benchmark public long finchFib30() throws Throwable { return (long) fib.invokeExact(ctx, 0, 30L); }

    @Benchmark public long javaFib30() { return Kernels.javaFib(30); }

    @Benchmark public long finchSumTo10e7() throws Throwable { return (long) sum.invokeExact(ctx, 0, 10_000_000L); }

    @Benchmark public long javaSumTo10e7() { return Kernels.javaSum(10_000_000L); }

    @Benchmark public long finchAppend10e6() throws Throwable { return (long) appends.invokeExact(ctx, 0, 1_000_000L); }

    @Benchmark public long javaAppend10e6() { return Kernels.javaAppends(1_000_000); }

    @Benchmark public long javaArrayListAppend10e6() { return Kernels.javaArrayListAppends(1_000_000); }
}
