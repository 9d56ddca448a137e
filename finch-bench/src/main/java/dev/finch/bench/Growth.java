package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 40, item 5: does cost stay linear as programs and threads grow?
 * <ul>
 *   <li>{@code lines}: generated model-style programs (definitions with lets, branches, option matches and string work)
 *       of 100, 1,000 and 10,000 lines in Lisp and Co-Forth, each submitted to a fresh session (lowered, verified,
 *       compiled, its last line run); CPU time per 1,000 lines, median of the timed repetitions after a warm-up.</li>
 *   <li>{@code threads}: never-seen one-line programs, each in a new session of one engine, per second with 1 and with 2
 *       threads over the same time; the second thread's gain as a share of the first's rate.</li>
 * </ul>
 * The memory of idle and suspended sessions is {@link SessionMemory}'s. Run:
 * {@code java -Xms1g -Xmx1g -cp finch-bench/target/benchmarks.jar dev.finch.bench.Growth lines|threads}.
 */
public final class Growth {
    private Growth() { }

    public static void main(String[] args) throws InterruptedException {
        String what = args.length > 0 ? args[0] : "lines";
        // 10,000 generated lines are about 230,000 tokens and 600,000 characters; the default limits (250,000 tokens,
        // 1 MiB, 20,000,000 units of work) bound what one submission may cost, so the growth run lifts them fourfold.
        var limits = dev.finch.ir.limit.CompileLimits.DEFAULT;
        limits = limits.withMaxTokens(limits.maxTokens() * 4).withMaxSourceChars(limits.maxSourceChars() * 4).withMaxWork(limits.maxWork() * 4)
                .withMaxExpansionNodes(limits.maxExpansionNodes() * 4);
        try (Finch finch = Finch.builder().compileLimits(limits).build()) {
            if (what.equals("threads")) threads(finch, args.length > 1 ? Double.parseDouble(args[1]) : 4);
            else lines(finch);
        }
    }

    /** A Lisp program of about {@code lines} lines: three definitions of one line each per three lines, and a call. */
    static String lisp(int lines) {
        StringBuilder s = new StringBuilder();
        int n = Math.max(1, (lines - 1) / 3);
        for (int i = 0; i < n; i++) {
            s.append("(define (f").append(i).append(" [x : int]) : int (let ((y (+ x ").append(i).append("))) (if (> y 10) (* y 2) (- y 1))))\n");
            s.append("(define (g").append(i).append(" [s : string]) : string (string-append (string-upcase s) \"-").append(i).append("\"))\n");
            s.append("(define (h").append(i).append(" [t : string]) : int (match-option (string-to-int t) (some v (+ v (f").append(i)
                    .append(" v))) (none (string-length (g").append(i).append(" t)))))\n");
        }
        return s.append("(h").append(n - 1).append(" \"41\")\n").toString();
    }

    /** The same program in Co-Forth. */
    static String forth(int lines) {
        StringBuilder s = new StringBuilder();
        int n = Math.max(1, (lines - 1) / 3);
        for (int i = 0; i < n; i++) {
            s.append(": f").append(i).append(" ( int -- int ) ").append(i).append(" + :> y y 10 > if y 2 * else y 1 - then ;\n");
            s.append(": g").append(i).append(" ( string -- string ) string-upcase \"-").append(i).append("\" string-append ;\n");
            s.append(": h").append(i).append(" ( string -- int ) :> t t string-to-int if-some dup f").append(i)
                    .append(" + else t g").append(i).append(" string-length then ;\n");
        }
        return s.append("\"41\" h").append(n - 1).append('\n').toString();
    }

    private static void lines(Finch finch) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (String language : new String[] {"lisp", "forth"}) {
            for (int lines : new int[] {100, 1_000, 3_000, 10_000}) {
                String text = language.equals("lisp") ? lisp(lines) : forth(lines);
                String source = language.equals("lisp") ? "gen.lisp" : "gen.fth";
                int reps = lines >= 3_000 ? 5 : lines >= 1_000 ? 20 : 100;
                Outcome first = finch.newSession().submit(Submission.of(text, source));
                if (!(first instanceof Outcome.Completed)) {
                    System.out.printf("%-5s %,6d lines: not run: %s%n", language, text.lines().count(), first.diagnostics().get(0).code()
                            + " " + first.diagnostics().get(0).message());
                    continue;
                }
                for (int i = 0; i < reps; i++) submit(finch, text, source);   // warm-up at this size
                long[] t = new long[reps];
                for (int i = 0; i < reps; i++) {
                    long t0 = cpu.getCurrentThreadCpuTime();
                    submit(finch, text, source);
                    t[i] = cpu.getCurrentThreadCpuTime() - t0;
                }
                Arrays.sort(t);
                long actual = text.lines().count();
                System.out.printf("%-5s %,6d lines: %8.2f ms per program, %7.2f ms per 1,000 lines (cpu median of %d)%n",
                        language, actual, t[reps / 2] / 1e6, t[reps / 2] / 1e6 * 1_000 / actual, reps);
            }
        }
    }

    private static void submit(Finch finch, String text, String source) {
        Outcome o = finch.newSession().submit(Submission.of(text, source));
        if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("the generated program did not complete: " + o.diagnostics());
    }

    private static void threads(Finch finch, double seconds) throws InterruptedException {
        rate(finch, 1, seconds);                                  // warm-up
        double one = rate(finch, 1, seconds);
        double two = rate(finch, 2, seconds);
        System.out.printf("1 thread: %,.0f programs/s; 2 threads: %,.0f programs/s; the second thread adds %.0f%% (%d cores)%n",
                one, two, (two - one) / one * 100, Runtime.getRuntime().availableProcessors());
    }

    private static double rate(Finch finch, int threads, double seconds) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        Thread[] ts = new Thread[threads];
        for (int k = 0; k < threads; k++) {
            long base = 1_000_000_000L * (k + 1);
            ts[k] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long c = base;
                while (System.nanoTime() < end) {
                    Outcome o = finch.newSession().submit(Submission.of(++c + " :> x x 2 * 1 +", "turn.fth"));
                    if (!(o instanceof Outcome.Completed)) throw new IllegalStateException("did not complete: " + o);
                    done.incrementAndGet();
                }
            });
            ts[k].start();
        }
        start.countDown();
        for (Thread t : ts) t.join();
        return done.get() / seconds;
    }
}
