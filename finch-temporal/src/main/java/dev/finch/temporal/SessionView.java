package dev.finch.temporal;

/**
 * The answer of the session workflow's query: the outcome so far.
 *
 * @param status      the last step's status ({@code idle} before the first submission)
 * @param executionId the last step's execution; null before the first
 * @param outcome     the last step's outcome as D4 JSON; null before the first
 * @param output      all say text of that execution
 * @param pending     the request it waits for, if any
 * @param yielded     the display of a value it published with {@code yield}, if it waits there
 * @param imageChars  the size of what the workflow holds for the image: the image's JSON, or its {@link ImageStore} reference
 * @param steps       how many Finch steps the session has taken
 * @param queued      how many commands (updates) wait behind the one in progress
 */
public record SessionView(String status, String executionId, String outcome, String output, Pending pending, String yielded,
                          long imageChars, long steps, int queued) {
    /** The status before anything ran. */
    public static final String IDLE = "idle";
}
