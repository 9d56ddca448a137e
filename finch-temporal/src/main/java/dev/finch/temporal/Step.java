package dev.finch.temporal;

/**
 * What one Finch step (an activity: a submission, an approval, a denial, an answer, a resume) left: the session image
 * to continue from and the outcome. The workflow keeps it as its state; it never parses the image or the outcome.
 *
 * @param image       the session image after the step (or its reference in the worker's {@link ImageStore}): with its
 *                    suspended execution when {@code status} is {@code suspended}, else of the session between
 *                    submissions (unchanged when {@code refused})
 * @param outcome     the step's outcome as D4 JSON ({@code FinchJson.write})
 * @param status      {@code completed}, {@code failed}, {@code suspended}, {@code cancelled} or {@code refused}
 * @param executionId the execution the step ran or continued
 * @param output      all say text of that execution so far
 * @param pending     the request the execution waits for, if it is suspended at the host boundary; else null
 * @param yielded     the display of the value a suspended execution published with {@code yield}; else null
 */
public record Step(String image, String outcome, String status, String executionId, String output, Pending pending, String yielded) {
    /** The status of an execution that waits (for a request or at a yield). */
    public static final String SUSPENDED = "suspended";
    /** The status of an answer that was not taken: the execution still waits as before. */
    public static final String REFUSED = "refused";

    /** Whether the execution waits: the next step continues it. */
    public boolean suspended() { return SUSPENDED.equals(status); }
}
