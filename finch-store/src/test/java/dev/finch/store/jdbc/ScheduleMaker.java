package dev.finch.store.jdbc;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.schedule.ManualScheduleTimer;
import dev.finch.schedule.SchedulePolicy;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The embedding process of {@link ScheduleRestartTest}: builds a Finch on the state directory given, has a program
 * schedule one in one second under policy {@code report}, prints the schedule's id and exits. Its scheduler's clock
 * reads the real time but never moves on, so the run is never made here, however slowly this process ends.
 */
public final class ScheduleMaker {
    private ScheduleMaker() { }

    public static void main(String[] args) {
        try (Finch f = Finch.builder().stateDirectory(Path.of(args[0])).schedulePolicy(SchedulePolicy.named("report"))
                .scheduleTimer(new ManualScheduleTimer(Instant.now())).build()) {
            Outcome made = f.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)")).submit(Submission.of(
                    "(say (schedule-create \"report\" \"PT1S\" \"(memory-put \\\"global\\\" \\\"done\\\" (json-of-string \\\"yes\\\")) (say \\\"ran\\\")\"))",
                    "make.lisp"));
            if (made.status() != Outcome.Status.COMPLETED) {
                System.out.println("failed " + made);
                System.exit(1);
            }
            System.out.println(made.output());
        }
        System.exit(0);
    }
}
