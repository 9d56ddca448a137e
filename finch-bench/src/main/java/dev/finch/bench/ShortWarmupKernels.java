package dev.finch.bench;

import com.dylibso.chicory.runtime.ExportFunction;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.bench.PeersBenchmark.FibSum;
import dev.finch.vm.Value;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.Scriptable;

/**
 * Issue 40's A and B at its short warm-up, Finch beside its peers and handwritten Java in one JVM: fib(27) (A) and the
 * sum of 0 … 5·10^6−1 (B), each case warmed for at least {@value #WARM_NANOS} ns and {@value #WARM_CALLS} calls, then
 * timed call by call for at least {@value #TIMED_NANOS} ns and {@value #TIMED_CALLS} calls; the medians of wall and of
 * this thread's CPU time are printed, with each case's ratio to Java. Finch: the Co-Forth word and the Lisp definition
 * through {@code Session.call}, and the Lisp definition through a submission ({@code (fib 27)}, in a session of its own,
 * its answer dropped untimed); peers: Groovy 5 with {@code @CompileStatic}, LuaJ's interpreter, Rhino (compiled),
 * Chicory's compiler and its interpreter — the kernels of {@link PeersBenchmark}. The cases run one after the other in
 * the order printed: {@code java -XX:+AlwaysPreTouch -Xss16m -Xms1g -Xmx1g -cp finch-bench/target/benchmarks.jar
 * dev.finch.bench.ShortWarmupKernels [A|B|AB]}.
 */
public final class ShortWarmupKernels {
    static final long WARM_NANOS = 2_500_000_000L;
    static final int WARM_CALLS = 3;
    static final long TIMED_NANOS = 3_000_000_000L;
    static final int TIMED_CALLS = 5;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** One call of a kernel, answering its result (checked against Java's). */
    @FunctionalInterface
    interface Kernel {
        long call() throws Throwable;
    }

    /** Wall and CPU medians of one case, in ms. */
    record Median(double wall, double cpu) { }

    private ShortWarmupKernels() { }

    public static void main(String[] args) throws Throwable {
        PreTouch.warnIfMissing();
        String which = args.length > 0 ? args[0] : "AB";
        try (Finch finch = Finch.builder().build()) {
            Peers peers = new Peers(finch);
            try {
                if (which.contains("A")) run("A fib(27)", peers.cases(true), Kernels.javaFib(27));
                if (which.contains("B")) run("B sum to 5·10^6", peers.cases(false), Kernels.javaSum(5_000_000L));
            } finally {
                Context.exit();
            }
        }
    }

    private static void run(String title, Map<String, Kernel> cases, long expected) throws Throwable {
        Map<String, Median> out = new LinkedHashMap<>();
        for (var c : cases.entrySet()) out.put(c.getKey(), median(c.getKey(), c.getValue(), expected));
        Median java = out.get("Java");
        System.out.println(title);
        out.forEach((k, v) -> System.out.printf("  %-28s wall %9.3f ms  cpu %9.3f ms   × Java wall %5.2f  cpu %5.2f%n",
                k, v.wall(), v.cpu(), v.wall() / java.wall(), v.cpu() / java.cpu()));
    }

    private static Median median(String name, Kernel k, long expected) throws Throwable {
        long start = System.nanoTime();
        for (int i = 0; i < WARM_CALLS || System.nanoTime() - start < WARM_NANOS; i++) check(name, k.call(), expected);
        List<Long> wall = new ArrayList<>();
        List<Long> cpu = new ArrayList<>();
        start = System.nanoTime();
        while (wall.size() < TIMED_CALLS || System.nanoTime() - start < TIMED_NANOS) {
            long c0 = CPU.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long r = k.call();
            wall.add(System.nanoTime() - t0);
            cpu.add(CPU.getCurrentThreadCpuTime() - c0);
            check(name, r, expected);
        }
        wall.sort(null);
        cpu.sort(null);
        return new Median(wall.get(wall.size() / 2) / 1e6, cpu.get(cpu.size() / 2) / 1e6);
    }

    private static void check(String name, long got, long expected) {
        if (got != expected) throw new IllegalStateException(name + " answered " + got + ", not " + expected);
    }

    /** The engines, each with both kernels defined once. */
    private static final class Peers {
        private final Session forth;
        private final Session lisp;
        private final Session lispSubmitted;
        private final FibSum<MethodHandle> groovy;
        private final FibSum<LuaValue> lua;
        private final Context rhino;
        private final Scriptable rhinoScope;
        private final FibSum<Function> js;
        private final FibSum<ExportFunction> chicory;
        private final FibSum<ExportFunction> chicoryCompiled;

        Peers(Finch finch) throws ReflectiveOperationException, IOException {
            forth = defined(finch, Kernels.FIB + " " + Kernels.SUM, "kernels.fth");
            lisp = defined(finch, LispKernels.LISP_FIB + " " + LispKernels.LISP_SUM, "kernels.lisp");
            lispSubmitted = defined(finch, LispKernels.LISP_FIB + " " + LispKernels.LISP_SUM, "kernels.lisp");
            groovy = PeersBenchmark.groovyKernels();
            Globals globals = JsePlatform.standardGlobals();
            globals.load(PeersBenchmark.LUA_KERNELS).call();
            lua = new FibSum<>(globals.get("fib"), globals.get("sum"));
            rhino = Context.enter();
            rhinoScope = rhino.initStandardObjects();
            rhino.evaluateString(rhinoScope, PeersBenchmark.JS_KERNELS, "kernels.js", 1, null);
            js = new FibSum<>((Function) rhinoScope.get("fib", rhinoScope), (Function) rhinoScope.get("sum", rhinoScope));
            chicory = PeersBenchmark.chicoryKernels(false);
            chicoryCompiled = PeersBenchmark.chicoryKernels(true);
        }

        private static Session defined(Finch finch, String source, String sourceId) {
            Session s = finch.newSession();
            Outcome o = s.submit(Submission.of(source, sourceId));
            if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the kernels were not defined: " + o);
            return s;
        }

        /** fib(27)'s cases ({@code fib}) or the sum's, in the order they run. */
        Map<String, Kernel> cases(boolean fib) {
            long n = fib ? 27 : 5_000_000;
            String word = fib ? "fib" : "sum-to";
            Submission program = Submission.of("(" + word + " " + n + ")", "turn.lisp");
            Submission drop = Submission.of("drop", "drop.fth");
            Map<String, Kernel> c = new LinkedHashMap<>();
            c.put("Finch Co-Forth, Session.call", () -> top(forth.call(word, Value.of(n))));
            c.put("Finch Lisp, Session.call", () -> top(lisp.call(word, Value.of(n))));
            c.put("Finch Lisp, a submission", () -> {
                long r = top(lispSubmitted.submit(program));
                lispSubmitted.submit(drop);
                return r;
            });
            c.put("Java", () -> fib ? Kernels.javaFib(n) : Kernels.javaSum(n));
            MethodHandle groovyKernel = pick(groovy, fib);
            c.put("Groovy (static)", () -> (long) groovyKernel.invokeExact(n));
            LuaValue luaKernel = pick(lua, fib);
            c.put("LuaJ", () -> luaKernel.call(LuaValue.valueOf(n)).tolong());
            Function jsKernel = pick(js, fib);
            c.put("Rhino", () -> ((Number) jsKernel.call(rhino, rhinoScope, rhinoScope, new Object[] {n})).longValue());
            ExportFunction compiled = pick(chicoryCompiled, fib);
            c.put("Chicory compiled", () -> compiled.apply(n)[0]);
            ExportFunction interpreted = pick(chicory, fib);
            c.put("Chicory interpreted", () -> interpreted.apply(n)[0]);
            return c;
        }

        private static <T> T pick(FibSum<T> kernels, boolean fib) { return fib ? kernels.fib() : kernels.sum(); }

        /** The value an outcome left on top of its stack (a call's: its answer). */
        private static long top(Outcome o) {
            if (!(o instanceof Outcome.Completed c) || c.values().isEmpty()) throw new IllegalStateException("no answer: " + o);
            return c.values().get(c.values().size() - 1).asLong();
        }
    }
}
