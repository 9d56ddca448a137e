package dev.finch.bench;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.luaj.vm2.Globals;
import org.luaj.vm2.lib.jse.JsePlatform;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Scriptable;

/**
 * Issue 40's short, equal warm-up, Finch beside its peers in one JVM: each case is warmed for at least
 * {@value #WARM_NANOS} ns and {@value #WARM_REPS} operations, then {@value #TIMED} operations are timed one by one and
 * their median printed — wall time, and this thread's CPU time, which the load of a shared machine moves less (the
 * JIT's own threads are not counted) — with their ratios to the named peer. E: a never-seen program {@code x = i; x*2+1} in a warm
 * engine (Co-Forth, Lisp, LuaJ, Rhino interpreted, Chicory); D: a brand-new engine, a session, {@code 1 2 +} and
 * close (Finch, Chicory, LuaJ). The cases run one after the other in the order printed, so a later case never
 * finds its own code warmed by an earlier round; run the class in three fresh JVMs and take the medians
 * (docs/performance.md, "Short warm-up"):
 * {@code java -XX:+AlwaysPreTouch -Xms1g -Xmx1g -cp finch-bench/target/benchmarks.jar dev.finch.bench.ShortWarmup [E|D]}
 * ({@link PreTouch}: without the flag the first case pays for mapping the heap's pages).
 */
public final class ShortWarmup {
    static final long WARM_NANOS = 1_500_000_000L;
    static final int WARM_REPS = 30;
    static final int TIMED = 200;

    private ShortWarmup() { }

    public static void main(String[] args) {
        PreTouch.warnIfMissing();
        String which = args.length > 0 ? args[0] : "ED";
        Map<String, Median> e = new LinkedHashMap<>();
        if (which.contains("E")) {
            long[] counter = {1_000_000};
            try (Finch finch = Finch.builder().build()) {
                e.put("E Finch Co-Forth", median(() -> completed(finch.newSession().submit(
                        Submission.of(++counter[0] + " :> x x 2 * 1 +", "turn.fth")))));
                e.put("E Finch Lisp", median(() -> completed(finch.newSession().submit(
                        Submission.of("(let ((x " + ++counter[0] + ")) (+ (* x 2) 1))", "turn.lisp")))));
            }
            Globals lua = JsePlatform.standardGlobals();
            e.put("E LuaJ", median(() -> lua.load("local x = " + ++counter[0] + " return x*2+1").call().tolong()));
            Context rhino = Context.enter();
            try {
                rhino.setInterpretedMode(true);
                Scriptable scope = rhino.initStandardObjects();
                e.put("E Rhino interpreted", median(() -> ((Number) rhino.evaluateString(scope,
                        "var x = " + ++counter[0] + "; x*2+1", "turn.js", 1, null)).longValue()));
            } finally {
                Context.exit();
            }
            e.put("E Chicory", median(() -> Instance.builder(Parser.parse(WasmModules.turn(++counter[0]))).build()
                    .export("run").apply()[0]));
            print(e, "E");
            ratio(e, "E Finch Co-Forth", "E LuaJ");
            ratio(e, "E Finch Lisp", "E LuaJ");
            ratio(e, "E Finch Co-Forth", "E Rhino interpreted");
            ratio(e, "E Finch Lisp", "E Rhino interpreted");
        }
        if (which.contains("D")) {
            e.put("D Finch", median(() -> {
                try (Finch fresh = Finch.builder().build()) {
                    return completed(fresh.newSession().submit(Submission.of("1 2 +", "fresh.fth")));
                }
            }));
            e.put("D Chicory", median(() -> Instance.builder(Parser.parse(WasmModules.ONE_PLUS_TWO)).build()
                    .export("run").apply()[0]));
            e.put("D LuaJ", median(() -> JsePlatform.standardGlobals().load("return 1+2").call().tolong()));
            print(e, "D");
            ratio(e, "D Finch", "D Chicory");
            ratio(e, "D Finch", "D LuaJ");
        }
    }

    private static long completed(Outcome o) {
        if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
        return 1;
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    /** Wall and CPU medians of one case, in µs. */
    record Median(double wall, double cpu) { }

    private static Median median(LongSupplier op) {
        long sink = 0;
        long start = System.nanoTime();
        for (int i = 0; i < WARM_REPS || System.nanoTime() - start < WARM_NANOS; i++) sink += op.getAsLong();
        long[] nanos = new long[TIMED];
        long[] cpu = new long[TIMED];
        for (int i = 0; i < TIMED; i++) {
            long c0 = CPU.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            sink += op.getAsLong();
            nanos[i] = System.nanoTime() - t0;
            cpu[i] = CPU.getCurrentThreadCpuTime() - c0;
        }
        Arrays.sort(nanos);
        Arrays.sort(cpu);
        if (sink == 42) System.out.print("");
        return new Median(nanos[TIMED / 2] / 1000.0, cpu[TIMED / 2] / 1000.0);
    }

    private static void print(Map<String, Median> e, String prefix) {
        e.forEach((k, v) -> {
            if (k.startsWith(prefix)) System.out.printf("%-22s wall %8.2f µs   cpu %8.2f µs%n", k, v.wall(), v.cpu());
        });
    }

    private static void ratio(Map<String, Median> e, String finch, String peer) {
        Median f = e.get(finch);
        Median p = e.get(peer);
        System.out.printf("%-22s / %-20s ratio wall %.2f  cpu %.2f%n", finch, peer, f.wall() / p.wall(), f.cpu() / p.cpu());
    }
}
