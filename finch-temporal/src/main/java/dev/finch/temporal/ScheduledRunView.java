package dev.finch.temporal;

/**
 * The result of one run a Temporal Schedule started ({@link ScheduledRunWorkflow}).
 *
 * @param scheduleId the schedule
 * @param policy     its policy
 * @param status     {@code ran} (the program ran and its outcome went to the policy's callback), {@code skipped} (a
 *                   missed run its policy skips), {@code cancelled} (the schedule was gone when the run began) or
 *                   {@code lost} (the run activity failed — its worker died or it timed out — and is not tried again)
 * @param run        which run of the schedule this was (Temporal's count of the schedule's actions); 0 unless it ran
 * @param at         when the run began, by the workflow's clock (an ISO instant)
 * @param missed     whether it stands for a missed run
 * @param outcome    the program's outcome as D4 JSON when it ran; else why not
 */
public record ScheduledRunView(String scheduleId, String policy, String status, long run, String at, boolean missed, String outcome) {
    public static final String RAN = "ran";
    public static final String SKIPPED = "skipped";
    public static final String CANCELLED = "cancelled";
    public static final String LOST = "lost";
}
