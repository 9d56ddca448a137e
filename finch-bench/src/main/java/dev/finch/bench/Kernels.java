package dev.finch.bench;

import dev.finch.forth.CoForth;
import dev.finch.ir.Lowering;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.runtime.Ctx;
import java.time.Duration;
import java.util.Map;

/**
 * The Co-Forth programs measured, and the handwritten Java they are compared with. The Finch words go through the
 * whole pipeline (parse, lower, verify, compile) once; the benchmark then calls the compiled word directly.
 */
final class Kernels {
    private Kernels() { }

    static final String FIB = ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;";
    static final String SUM = ": sum-to ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ;";
    static final String APPENDS = ": build ( int -- int ) :> n empty-list<int> 0 begin dup n < while tuck list-append swap 1 + repeat drop list-length ;";

    /** Limits that never stop a benchmark. */
    static final Limits UNBOUNDED = Limits.DEFAULT.withMaxSteps(Long.MAX_VALUE).withTimeout(Duration.ofDays(1)).withMaxMemoryBytes(Long.MAX_VALUE / 4);

    /** Defines {@code source} in a fresh VM state and returns the compiled word {@code name}. */
    static CompiledWord define(Vm vm, String source, String name) {
        VmState state = VmState.EMPTY;
        Lowering low = new CoForth().lower(source, "bench", state.environment());
        if (!low.ok()) throw new IllegalStateException(low.diagnostics().toString());
        Verification v = Verifier.verify(low.module().orElseThrow(), state.environment());
        if (!v.ok()) throw new IllegalStateException(v.diagnostics().toString());
        RunResult r = vm.run("bench", v.module().orElseThrow(), state, UNBOUNDED, OutputSink.NONE, new CancelToken());
        if (!(r instanceof RunResult.Completed c)) throw new IllegalStateException(r.toString());
        return c.state().words().get(name);
    }

    static Ctx context() { return new Ctx(UNBOUNDED, OutputSink.NONE, new CancelToken(), Map.of()); }

    static long javaFib(long n) { return n < 2 ? n : javaFib(n - 1) + javaFib(n - 2); }

    static long javaSum(long n) {
        long total = 0;
        for (long i = 0; i < n; i++) total += i;
        return total;
    }

    /** The same persistent vector Finch lists use, appended to from Java (like for like). */
    static int javaAppends(int n) {
        io.vavr.collection.Vector<Object> list = io.vavr.collection.Vector.empty();
        for (long i = 0; i < n; i++) list = list.append(i);
        return list.size();
    }

    /** A mutable ArrayList, for scale: what giving up immutability would buy. */
    static int javaArrayListAppends(int n) {
        java.util.ArrayList<Object> list = new java.util.ArrayList<>();
        for (long i = 0; i < n; i++) list.add(i);
        return list.size();
    }
}
