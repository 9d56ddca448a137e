package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
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
 * fib(27) and the sum of 0 … 5·10^6−1, three ways in one run: the compiled Co-Forth word called through its method
 * handle (what the generated code costs), the same word through the public call path ({@code Session.call} with the
 * default limits: checking the call, the run's context, the commit of nothing), and handwritten Java. The third
 * kernel is the sum loop again with its two additions in small words of their own ({@code k-add}, {@code k-inc}):
 * words that can neither loop nor recurse, whose calls the loop charges to its fuel local.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CallBenchmark {
    static final String SUM5 = ": sum-to ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ;";

    static final String SUM_CALLS = ": k-add ( int int -- int ) + ; : k-inc ( int -- int ) 1 + ;"
            + " : sum-calls ( int -- int ) :> n 0 0 begin dup n < while tuck k-add swap k-inc repeat drop ;";

    private Vm vm;
    private MethodHandle sumCalls;
    private MethodHandle fib;
    private MethodHandle sum;
    private Ctx ctx;
    private Finch finch;
    private Session session;
    private final Value n27 = Value.of(27);
    private final Value n5m = Value.of(5_000_000);

    @Setup public void setup() {
        vm = new Vm();
        fib = Kernels.define(vm, Kernels.FIB, "fib").handle();
        sum = Kernels.define(vm, SUM5, "sum-to").handle();
        sumCalls = Kernels.define(vm, SUM_CALLS, "sum-calls").handle();
        ctx = Kernels.context();
        finch = Finch.builder().build();
        session = finch.newSession();
        Outcome defined = session.submit(Submission.of(Kernels.FIB + " " + SUM5 + " " + SUM_CALLS, "kernels.fth"));
        if (!(defined instanceof Outcome.Completed)) throw new IllegalStateException(defined.toString());
        long got = ((Value.Int) finchFib27Call().values().get(0)).value();
        if (got != Kernels.javaFib(27)) throw new IllegalStateException("fib(27) = " + got);
    }

    @TearDown public void tearDown() {
        vm.close();
        finch.close();
    }

    @Benchmark public long finchFib27Word() throws Throwable { return (long) fib.invokeExact(ctx, 0, 27L); }

    @Benchmark public Outcome finchFib27Call() { return session.call("fib", n27); }

    @Benchmark public long javaFib27() { return Kernels.javaFib(27); }

    @Benchmark public long finchSum5mWord() throws Throwable { return (long) sum.invokeExact(ctx, 0, 5_000_000L); }

    @Benchmark public Outcome finchSum5mCall() { return session.call("sum-to", n5m); }

    @Benchmark public long javaSum5m() { return Kernels.javaSum(5_000_000L); }

    @Benchmark public long finchSumCalls5mWord() throws Throwable { return (long) sumCalls.invokeExact(ctx, 0, 5_000_000L); }

    @Benchmark public Outcome finchSumCalls5mCall() { return session.call("sum-calls", n5m); }
}
