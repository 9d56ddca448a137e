package dev.finch;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How the tests wait without bounding wall time (project rule: a test asserts the work charged or the diagnostic the VM
 * decided, never how long something took). A wait ends as soon as what it waits for has happened; {@link #LIMIT} only
 * keeps a broken build from hanging, far longer than anything waited for takes on a loaded machine.
 */
public final class HangGuard {
    /** A minute: the most any wait here lasts, and only when what it waits for never happens. */
    public static final Duration LIMIT = Duration.ofSeconds(60);
    /** {@link #LIMIT} in seconds, for {@code get(…, SECONDS)} and {@code await(…, SECONDS)}. */
    public static final long SECONDS = LIMIT.toSeconds();

    private static final long POLL_MILLIS = 10;

    private HangGuard() { }

    /** Waits until {@code condition} holds (or the guard passes); whether it holds. */
    public static boolean await(BooleanSupplier condition) {
        long end = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) return condition.getAsBoolean();
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return condition.getAsBoolean();
            }
        }
        return true;
    }

    /** Waits until {@code latch} is open (or the guard passes); whether it is. */
    public static boolean await(CountDownLatch latch) {
        try {
            return latch.await(SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return latch.getCount() == 0;
        }
    }

    /**
     * The outcome of {@code submit} once its program has run: a submission's deadline covers compiling it too, and on a
     * loaded machine a short deadline can pass while it is still being compiled ({@code E-LIMIT-016}: nothing ran, nothing
     * changed). Such a submission is made again (within the guard), so a test of what the deadline does to a running
     * program meets a running program, whatever the machine's load. Any other outcome is returned as it is.
     */
    public static Outcome ran(Supplier<Outcome> submit) {
        long end = System.nanoTime() + LIMIT.toNanos();
        Outcome o = submit.get();
        while (compileOutlivedTheDeadline(o) && System.nanoTime() - end < 0) o = submit.get();
        return o;
    }

    private static boolean compileOutlivedTheDeadline(Outcome o) {
        return o.status() == Outcome.Status.FAILED && !o.diagnostics().isEmpty() && o.diagnostics().get(0).code().equals("E-LIMIT-016");
    }
}
