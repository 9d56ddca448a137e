package dev.finch.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A timer moved by hand, for tests and simulations: nothing runs until {@link #advance} moves the clock, and then every
 * alarm that fell due runs on the advancing thread, earliest first (an alarm set by one that runs, and due by then, runs
 * too). Deterministic: the same advances give the same runs.
 */
public final class ManualScheduleTimer implements ScheduleTimer {
    private record Pending(Instant at, long order, Runnable task, boolean[] cancelled) { }

    private final PriorityQueue<Pending> queue = new PriorityQueue<>((a, b) -> {
        int c = a.at().compareTo(b.at());
        return c != 0 ? c : Long.compare(a.order(), b.order());
    });
    private Instant now;
    private long order;
    private boolean closed;

    /** A timer whose clock reads {@code start}. */
    public ManualScheduleTimer(Instant start) { this.now = Objects.requireNonNull(start, "start"); }

    @Override public synchronized Instant now() { return now; }

    @Override public synchronized Alarm at(Instant at, Runnable task) {
        boolean[] cancelled = {false};
        if (!closed) queue.add(new Pending(at, order++, task, cancelled));
        return () -> {
            synchronized (ManualScheduleTimer.this) {
                cancelled[0] = true;
            }
        };
    }

    /**
     * Moves the clock by {@code by} (zero: runs what is due now), running every alarm due by then in order, each with the
     * clock at its own time (or now, when it was set in the past); how many ran.
     */
    public int advance(Duration by) {
        Instant until;
        synchronized (this) {
            if (by.isNegative()) throw new IllegalArgumentException("time moves forward");
            until = now.plus(by);
        }
        int ran = 0;
        while (true) {
            Pending next;
            synchronized (this) {
                next = queue.peek();
                if (closed || next == null || next.at().isAfter(until)) {
                    if (!closed) now = until;
                    return ran;
                }
                queue.poll();
                if (next.cancelled()[0]) continue;
                if (next.at().isAfter(now)) now = next.at();
            }
            next.task().run();
            ran++;
        }
    }

    /** The times of the alarms still set, earliest first. */
    public synchronized List<Instant> pending() {
        List<Pending> all = new ArrayList<>(queue);
        all.sort(queue.comparator());
        List<Instant> out = new ArrayList<>();
        for (Pending p : all) if (!p.cancelled()[0]) out.add(p.at());
        return out;
    }

    @Override public synchronized void close() {
        closed = true;
        queue.clear();
    }
}
