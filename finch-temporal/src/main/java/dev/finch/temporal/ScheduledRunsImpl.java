package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.schedule.ScheduledRun;
import dev.finch.schedule.SchedulePolicy;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.Optional;

/** The scheduled-run activities of one worker: its Finch runs the programs, its {@link TemporalSchedules} reads the schedules. */
final class ScheduledRunsImpl implements ScheduledRuns {
    private final Finch finch;
    private final TemporalSchedules schedules;

    ScheduledRunsImpl(Finch finch, TemporalSchedules schedules) {
        this.finch = finch;
        this.schedules = schedules;
    }

    @Override public long actions(String scheduleId) {
        Optional<ScheduleDescription> d = schedules.describe(scheduleId);
        return d.isEmpty() ? -1 : d.get().getInfo().getNumActions();
    }

    @Override public String run(ScheduledProgram p, long run, long atMillis, boolean missed) {
        SchedulePolicy policy = schedules.policies().find(p.policy()).orElseThrow(() -> ApplicationFailure.newNonRetryableFailure(
                "this worker defines no schedule policy named " + p.policy() + " (every worker of the task queue needs the same policies)",
                "FinchSchedulePolicy"));
        Session session = finch.newSession(policy.session());
        Outcome outcome;
        try {
            Submission submission = Submission.of(p.program(), "schedule:" + p.scheduleId());
            var language = p.language() == null ? java.util.Optional.<dev.finch.Language>empty() : dev.finch.Language.named(p.language());
            outcome = session.submit(language.isPresent() ? submission.withLanguage(language.get()) : submission);
        } finally {
            session.close();
        }
        try {
            policy.onOutcome().accept(new ScheduledRun(p.scheduleId(), policy.name(), run, Instant.ofEpochMilli(atMillis), missed, outcome));
        } catch (RuntimeException hostFailed) {
            // The host's callback: the run counts as made, as with Finch's own scheduler.
        }
        return FinchJson.write(outcome);
    }

    @Override public void endIfDone(String scheduleId) {
        Optional<ScheduleDescription> d = schedules.describe(scheduleId);
        if (d.isPresent() && d.get().getInfo().getNextActionTimes().isEmpty()) schedules.delete(scheduleId);
    }
}
