package dev.finch.bench;

import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.Strands;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * What a concurrent step costs: two steps started with step-spawn and joined (the shape of µNorman's par), against
 * the same two computations handed to a Java thread pool and joined, and against starting two Java threads. Each
 * step's work is tiny, so this measures the scheduling itself: hand-offs of the baton, the pooled threads, the
 * child contexts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StepsBenchmark {
    static final String PAR = ": par2 ( int -- int ) :> n [: ( -- int ) n n * ;] step-spawn :> a [: ( -- int ) n 1 + ;] step-spawn :> b "
            + "a step-join b step-join + ;";

    private Vm vm;
    private MethodHandle par;
    private Ctx ctx;
    private ExecutorService pool;

    @Setup public void setup() {
        vm = new Vm();
        par = Kernels.define(vm, PAR, "par2").handle();
        ctx = Kernels.context();
        pool = Executors.newCachedThreadPool();
    }

    @TearDown public void tearDown() {
        vm.close();
        pool.shutdownNow();
    }

    @Benchmark public long finchTwoSteps() throws Throwable {
        Strands.enter(ctx);
        return (long) par.invokeExact(ctx, 0, 12L);
    }

    @Benchmark public long javaTwoPoolTasks() throws InterruptedException, ExecutionException {
        long n = 12;
        Future<Long> a = pool.submit(() -> n * n);
        Future<Long> b = pool.submit(() -> n + 1);
        return a.get() + b.get();
    }

    @Benchmark public long javaTwoThreads() throws InterruptedException {
        long n = 12;
        long[] out = new long[2];
        Thread a = new Thread(() -> out[0] = n * n);
        Thread b = new Thread(() -> out[1] = n + 1);
        a.start();
        b.start();
        a.join();
        b.join();
        return out[0] + out[1];
    }
}
