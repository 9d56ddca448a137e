package dev.finch.temporal;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The activities of a scheduled run ({@link ScheduledRunWorkflow}), on the worker's Finch and schedule client. */
@ActivityInterface
public interface ScheduledRuns {
    /** How many actions the schedule {@code scheduleId} has taken, this run's included; -1 when there is no such schedule. */
    @ActivityMethod(name = "FinchScheduleActions")
    long actions(String scheduleId);

    /**
     * Runs {@code program} as a new submission with source {@code schedule:<scheduleId>} in a fresh session with the
     * worker's policy {@code program.policy()}'s options, hands the outcome to that policy's callback, and answers the
     * outcome as D4 JSON. Not retried: a run begins at most once, as with Finch's own scheduler.
     */
    @ActivityMethod(name = "FinchScheduledProgram")
    String run(ScheduledProgram program, long run, long atMillis, boolean missed);

    /** Deletes the schedule when it will take no more actions (its last run has begun), as Finch's own scheduler ends it. */
    @ActivityMethod(name = "FinchScheduleEnd")
    void endIfDone(String scheduleId);
}
