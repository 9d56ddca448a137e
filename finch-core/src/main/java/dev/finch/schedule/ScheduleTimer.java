package dev.finch.schedule;

import java.time.Instant;

/**
 * The scheduler's clock and alarm. {@link #system()} is the real one (one daemon thread, started by the first alarm);
 * {@link ManualScheduleTimer} is moved by hand, so a test advances time and sees exactly the runs that fall due.
 */
public interface ScheduleTimer extends AutoCloseable {
    /** Now, by this timer's clock. */
    Instant now();

    /** Calls {@code task} once, at {@code at} or as soon after as it can (at once when {@code at} is past). */
    Alarm at(Instant at, Runnable task);

    /** Stops: no task runs after this returns (one running may finish). */
    @Override void close();

    /** An alarm that was set. */
    interface Alarm {
        /** Cancels it, if it has not gone off. */
        void cancel();
    }

    /** The system clock (UTC) and a daemon thread. */
    static ScheduleTimer system() { return new SystemScheduleTimer(); }
}
