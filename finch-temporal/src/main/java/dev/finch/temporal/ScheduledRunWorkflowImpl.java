package dev.finch.temporal;

import dev.finch.schedule.MissedRuns;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;

/**
 * A scheduled run: deterministic, deciding only from its input, the workflow's clock and activity results. A run that a
 * worker took later than {@code missedAfter} after the schedule started it stands for a missed run: its policy skips
 * it ({@link MissedRuns#SKIP}) or runs it once, marked missed ({@link MissedRuns#RUN_ONCE}; the schedule skipped the
 * times that came while it waited). Otherwise the program runs in one activity that is never retried, so a run begins
 * at most once, as with Finch's own scheduler; a run whose worker dies is lost, and the schedule goes on.
 */
public class ScheduledRunWorkflowImpl implements ScheduledRunWorkflow {
    /** Reading and ending the schedule: a minute each, tried up to 10 times. */
    static final ActivityOptions LOOKUPS = ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMinutes(1))
            .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofSeconds(1)).setMaximumAttempts(10).build()).build();

    @Override public ScheduledRunView run(ScheduledProgram p) {
        ScheduledRuns lookups = Workflow.newActivityStub(ScheduledRuns.class, LOOKUPS);
        long now = Workflow.currentTimeMillis();
        String at = Instant.ofEpochMilli(now).toString();
        boolean missed = now - Workflow.getInfo().getRunStartedTimestampMillis() > p.missedAfterMillis();
        if (missed && MissedRuns.SKIP.name().equals(p.missed())) {
            end(lookups, p);
            return new ScheduledRunView(p.scheduleId(), p.policy(), ScheduledRunView.SKIPPED, 0, at, true,
                    "no worker took the run within " + Duration.ofMillis(p.missedAfterMillis()) + " and its policy skips missed runs");
        }
        long run = lookups.actions(p.scheduleId());
        if (run < 0) {
            return new ScheduledRunView(p.scheduleId(), p.policy(), ScheduledRunView.CANCELLED, 0, at, missed,
                    "the schedule was cancelled before this run began");
        }
        ScheduledRuns once = Workflow.newActivityStub(ScheduledRuns.class, ActivityOptions.newBuilder()
                .setStartToCloseTimeout(Duration.ofMillis(p.runTimeoutMillis()))
                .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build()).build());
        try {
            String outcome = once.run(p, run, now, missed);
            return new ScheduledRunView(p.scheduleId(), p.policy(), ScheduledRunView.RAN, run, at, missed, outcome);
        } catch (ActivityFailure f) {
            return new ScheduledRunView(p.scheduleId(), p.policy(), ScheduledRunView.LOST, run, at, missed, "the run was lost: " + cause(f));
        } finally {
            end(lookups, p);
        }
    }

    /** Ends the schedule if it is done; one that cannot be read now stays, and a later run (or a cancel) ends it. */
    private static void end(ScheduledRuns lookups, ScheduledProgram p) {
        try {
            lookups.endIfDone(p.scheduleId());
        } catch (ActivityFailure ignored) {
            // A schedule that takes no more actions does nothing; schedule-list shows only live ones.
        }
    }

    private static String cause(Throwable f) {
        Throwable t = f;
        while (t.getCause() != null) t = t.getCause();
        return t instanceof ApplicationFailure a ? a.getOriginalMessage() : t.getMessage();
    }
}
