package dev.finch.temporal;

import java.util.List;
import java.util.Map;

/**
 * A session workflow's durable state, its input and what it continues as new with: the last session image, the grants
 * the host gave by approval (images carry no authority, so the workflow keeps them and passes them to every step), the
 * operations an outside host answers itself, and the last step.
 *
 * @param image              the session image to continue from (or its reference in the workers' {@link ImageStore});
 *                           null for a session that has not run anything yet
 * @param grants             grants of approvals with {@code SESSION} scope or wider, canonically written
 * @param taskGrants         grants of approvals with {@code TASK} scope, by the execution they were given for
 * @param externalOperations operations whose approved requests wait for a {@code respond} update from an outside
 *                           host instead of being dispatched to the host activity
 * @param last               the last step; null before the first
 * @param steps              how many steps this session has taken (across continue-as-new runs)
 */
public record SessionState(String image, List<String> grants, Map<String, List<String>> taskGrants, List<String> externalOperations,
                           Step last, long steps) {
    public SessionState {
        grants = grants == null ? List.of() : List.copyOf(grants);
        taskGrants = taskGrants == null ? Map.of() : Map.copyOf(taskGrants);
        externalOperations = externalOperations == null ? List.of() : List.copyOf(externalOperations);
    }

    /** A new session: no image, no grants, every approved request dispatched to the host activity. */
    public static SessionState fresh() { return new SessionState(null, List.of(), Map.of(), List.of(), null, 0); }

    /** This state, with approved requests of {@code operations} answered by an outside host ({@code respond}). */
    public SessionState withExternalOperations(List<String> operations) {
        return new SessionState(image, grants, taskGrants, operations, last, steps);
    }
}
