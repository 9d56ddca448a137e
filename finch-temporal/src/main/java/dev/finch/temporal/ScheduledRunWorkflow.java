package dev.finch.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One run of a Finch schedule kept as a Temporal Schedule ({@link TemporalSchedules}): the schedule's action starts it
 * on the Finch task queue, and whichever worker takes it runs the program in a fresh session with the policy's grants
 * (an activity, {@link ScheduledRuns}), hands the outcome to the policy's callback there, and ends the schedule when it
 * has no time left.
 */
@WorkflowInterface
public interface ScheduledRunWorkflow {
    @WorkflowMethod(name = "FinchScheduledRun")
    ScheduledRunView run(ScheduledProgram program);
}
