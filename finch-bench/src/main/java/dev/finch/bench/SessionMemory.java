package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of an idle session and of a suspended one, as a measured heap delta: the heap in use (after full
 * collections) with {@code N} such sessions held, less the heap in use before them, divided by {@code N}. Idle: a
 * session that has answered {@code 1 2 +}, so its committed state holds one value. Suspended: a session whose run
 * paused at {@code yield} inside a loop (its continuation, the run's context and its compiled word are held until it
 * is resumed). Run: {@code java -cp finch-bench/target/benchmarks.jar dev.finch.bench.SessionMemory [N]}.
 */
public final class SessionMemory {
    private SessionMemory() { }

    static final String SUSPENDING = ": ticks ( int -- yields<int,unit> ) begin dup 0 > while dup yield 1 - repeat drop ; 3 ticks";

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        try (Finch finch = Finch.create()) {
            // Warm: load every class either kind of session needs before measuring.
            idle(finch);
            suspended(finch);
            System.out.printf("idle session:      %,d bytes%n", perSession(n, () -> idle(finch)));
            System.out.printf("suspended session: %,d bytes%n", perSession(n, () -> suspended(finch)));
        }
    }

    private static Session idle(Finch finch) {
        Session s = finch.newSession();
        expect(s.submit(Submission.of("1 2 +", "idle.fth")), Outcome.Completed.class);
        return s;
    }

    private static Session suspended(Finch finch) {
        Session s = finch.newSession();
        expect(s.submit(Submission.of(SUSPENDING, "paused.fth")), Outcome.Suspended.class);
        return s;
    }

    private static void expect(Outcome o, Class<? extends Outcome> kind) {
        if (!kind.isInstance(o)) throw new IllegalStateException("expected " + kind.getSimpleName() + ": " + o);
    }

    private static long perSession(int n, java.util.function.Supplier<Session> make) {
        List<Session> held = new ArrayList<>(n);
        long before = used();
        for (int i = 0; i < n; i++) held.add(make.get());
        long after = used();
        long each = (after - before) / n;
        if (held.size() != n) throw new AssertionError();
        return each;
    }

    private static long used() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
