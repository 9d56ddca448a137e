package dev.finch.schedule;

import dev.finch.Outcome;
import java.time.Instant;

/**
 * One run a schedule made, handed to its policy's callback ({@link SchedulePolicy#onOutcome}).
 *
 * @param scheduleId the schedule; the run's source was {@code schedule:<scheduleId>}
 * @param policy     the policy it ran under
 * @param run        which run of the schedule this was (1 for the first)
 * @param at         when it ran, by the scheduler's clock
 * @param missed     true when this run stands for runs missed while no Finch was running ({@link MissedRuns#RUN_ONCE})
 * @param outcome    the run's outcome (a run that needed a grant its policy does not give is {@code SUSPENDED}, and is
 *                   not continued)
 */
public record ScheduledRun(String scheduleId, String policy, long run, Instant at, boolean missed, Outcome outcome) { }
