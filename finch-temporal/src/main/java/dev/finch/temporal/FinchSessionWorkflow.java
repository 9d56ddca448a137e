package dev.finch.temporal;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One Finch session as one Temporal workflow (workflow id: the session's name). Its state is the session image and the
 * request it waits for; every submission and every answer is an update that runs as Finch steps (activities) and
 * returns the resulting outcome as D4 JSON. The workflow code itself never runs a program or an effect.
 *
 * <p>Updates are taken one at a time, in the order the workflow accepted them. An update that cannot apply now — an
 * approval of a request the session does not wait for, anything after {@link #close} — is rejected by its validator,
 * before it enters the history.
 */
@WorkflowInterface
public interface FinchSessionWorkflow {
    /** Runs the session from {@code start} ({@link SessionState#fresh()} for a new one) until {@link #close}. */
    @WorkflowMethod
    SessionView run(SessionState start);

    /** Submits program text (one turn); answers its outcome once it completes, fails or waits for an approval or answer. */
    @UpdateMethod
    String submit(String text, String sourceId);

    /** Approves the request {@code sequence} of {@code executionId} with a scope ({@code once}, {@code task}, {@code session}). */
    @UpdateMethod
    String approve(String executionId, long sequence, String scope);

    /** Denies the request {@code sequence} of {@code executionId}: the execution fails with {@code E-HOST-001}. */
    @UpdateMethod
    String deny(String executionId, long sequence, String reason);

    /** Answers an approved request of an outside host's operation with the contract's {@code VmResume} JSON. */
    @UpdateMethod
    String respond(String vmResume);

    /** Continues an execution paused at a {@code yield} (the yield returns unit). */
    @UpdateMethod
    String resume(String executionId);

    @UpdateValidatorMethod(updateName = "submit")
    void validateSubmit(String text, String sourceId);

    @UpdateValidatorMethod(updateName = "approve")
    void validateApprove(String executionId, long sequence, String scope);

    @UpdateValidatorMethod(updateName = "deny")
    void validateDeny(String executionId, long sequence, String reason);

    @UpdateValidatorMethod(updateName = "respond")
    void validateRespond(String vmResume);

    @UpdateValidatorMethod(updateName = "resume")
    void validateResume(String executionId);

    /** Ends the session once the updates already accepted are done; the workflow's result is the last view. */
    @SignalMethod
    void close();

    /** The outcome so far: the last step's outcome, output and pending request. */
    @QueryMethod
    SessionView view();
}
