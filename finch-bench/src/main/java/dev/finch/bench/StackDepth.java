package dev.finch.bench;

import com.sun.management.ThreadMXBean;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.lang.management.ManagementFactory;

/**
 * What a never-seen one-line program costs in a session whose stack already holds {@code depth} values (each earlier
 * submission left one, as a Lisp session's top-level expressions do): CPU time and bytes allocated per program, after
 * {@code seconds} of such programs, each leaving the stack as it found it. A cost that grows with the depth makes a
 * session's total cost grow with the square of its length:
 * {@code java -XX:+AlwaysPreTouch -Xms1g -Xmx1g -cp finch-bench/target/benchmarks.jar dev.finch.bench.StackDepth 0|1000|10000 [seconds]}.
 */
public final class StackDepth {
    private StackDepth() { }

    public static void main(String[] args) {
        int depth = Integer.parseInt(args[0]);
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 8;
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        try (Finch finch = Finch.builder().build()) {
            Session s = finch.newSession();
            for (int i = 0; i < depth; i++) completed(s.submit(Submission.of(i + " 1 +", "fill.fth")));
            long c = 1_000_000;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            long n = 0;
            long bytes = threads.getThreadAllocatedBytes(id);
            long cpu = threads.getCurrentThreadCpuTime();
            while (System.nanoTime() < end) {
                completed(s.submit(Submission.of(++c + " 2 * drop", "turn.fth")));
                n++;
            }
            System.out.printf("depth %,d: %.2f µs CPU and %,d bytes per program (%,d programs)%n", depth,
                    (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / n, (threads.getThreadAllocatedBytes(id) - bytes) / n, n);
        }
    }

    private static void completed(Outcome o) {
        if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the program did not complete: " + o);
    }
}
