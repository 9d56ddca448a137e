package dev.finch.schedule;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The system clock and one daemon thread ({@code finch-schedules}), started by the first alarm. */
final class SystemScheduleTimer implements ScheduleTimer {
    private final Clock clock = Clock.systemUTC();
    private ScheduledThreadPoolExecutor executor;
    private boolean closed;

    @Override public Instant now() { return clock.instant(); }

    @Override public synchronized Alarm at(Instant at, Runnable task) {
        if (closed) return () -> { };
        if (executor == null) {
            executor = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "finch-schedules");
                t.setDaemon(true);
                return t;
            });
            executor.setRemoveOnCancelPolicy(true);
        }
        long delay = Math.max(0, Duration.between(now(), at).toMillis());
        var future = executor.schedule(task, delay, TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override public synchronized void close() {
        closed = true;
        if (executor != null) executor.shutdownNow();
    }
}
