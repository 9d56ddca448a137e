package dev.finch.temporal;

/**
 * What a Temporal Schedule's action gives each run it starts ({@link ScheduledRunWorkflow}), fixed when the schedule
 * is made ({@link TemporalSchedules#create}).
 *
 * @param scheduleId       the schedule (Temporal's schedule id); each run's source is {@code schedule:<scheduleId>}
 * @param policy           the host's policy it runs under (the worker's policy of that name gives the grants)
 * @param program          the program's source text
 * @param language         its language ({@code lisp}, {@code forth}, {@code norman}); empty: the contract's rule decides by the text
 * @param missed           the policy's {@link dev.finch.schedule.MissedRuns} rule, by name
 * @param missedAfterMillis a run whose worker takes it later than this after the action started it is a missed run
 * @param runTimeoutMillis how long the program may run (the run activity's start-to-close timeout)
 */
public record ScheduledProgram(String scheduleId, String policy, String program, String language, String missed, long missedAfterMillis,
                               long runTimeoutMillis) { }
