package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.lang.management.ManagementFactory;

/**
 * What {@code Session.call} itself costs, as the JVM warms up: a word that does almost nothing is called again and
 * again, and the CPU time (all Java threads) and wall time per call are printed after 0, 90, 270, … calls — the call
 * path is code that runs once per call, so it stays interpreted or half-compiled for thousands of calls, which is what
 * a benchmark of a kernel measures after its warm-up. {@code java -cp finch-bench/target/benchmarks.jar
 * dev.finch.bench.CallPathCost [WORD]}, WORD {@code inc} ({@code : inc ( int -- int ) 1 + ;}, which cannot recurse)
 * or {@code down} ({@code : down ( int -- int ) dup 0 > if 1 - down then ;} called with 1: a recursion, as fib is).
 */
public final class CallPathCost {
    private CallPathCost() { }

    public static void main(String[] args) {
        String word = args.length > 0 ? args[0] : "inc";
        try (Finch finch = Finch.builder().build()) {
            Session s = finch.newSession();
            Outcome defined = s.submit(Submission.of(": inc ( int -- int ) 1 + ; : down ( int -- int ) dup 0 > if 1 - down then ;", "path.fth"));
            if (!(defined instanceof Outcome.Completed)) throw new IllegalStateException(defined.toString());
            Value one = Value.of(1);
            int done = 0;
            for (int target : new int[] {10, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000}) {
                int batch = Math.max(10, target / 10);
                long cpu0 = cpuNanos();
                long wall0 = System.nanoTime();
                for (int i = 0; i < batch; i++) s.call(word, one);
                long cpu = cpuNanos() - cpu0;
                long wall = System.nanoTime() - wall0;
                System.out.printf("after %6d calls: %7.1f µs CPU, %7.1f µs wall per call%n", done, cpu / 1e3 / batch, wall / 1e3 / batch);
                done += batch;
                for (; done < target; done++) s.call(word, one);
            }
        }
    }

    /** The CPU time of every live Java thread. */
    private static long cpuNanos() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long t : mx.getThreadCpuTime(mx.getAllThreadIds())) if (t > 0) sum += t;
        return sum;
    }
}
