package dev.finch.schedule;

/**
 * What a schedule does about runs it missed while no {@link dev.finch.Finch} on its store was running (the process was
 * down when it was due). A policy says which ({@link SchedulePolicy#withMissed}).
 */
public enum MissedRuns {
    /** Run once as soon as the Finch is built, however many runs were missed, then go on as scheduled. */
    RUN_ONCE,
    /** Run none of them: a one-shot schedule that was missed ends; a cron schedule waits for its next time. */
    SKIP
}
