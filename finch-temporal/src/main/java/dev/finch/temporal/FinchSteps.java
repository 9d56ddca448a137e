package dev.finch.temporal;

import io.temporal.activity.ActivityInterface;
import java.util.List;

/**
 * The Finch steps of a session workflow, each an activity: restore the image (with the host's grants), take one
 * submission or answer, run until the program completes, fails or waits, and save the image again. Steps run in
 * deferred-host mode, so a step never performs a host effect: every approved request comes back as a {@link Pending}
 * awaiting its result, which {@link FinchHost#perform} performs. A step is therefore safe to retry.
 *
 * <p>{@code image} is what the workflow holds: the image itself, or its reference in the worker's {@link ImageStore}.
 * {@code grants} are the host's authority for the step (canonical grant specs), added to the worker's options.
 */
@ActivityInterface
public interface FinchSteps {
    /** Runs one submission in the session of {@code image} (a new session when null). */
    Step submit(String image, List<String> grants, String text, String sourceId);

    /** Approves request {@code sequence} of the execution suspended in {@code image}, with {@code scope}. */
    Step approve(String image, List<String> grants, String executionId, long sequence, String scope);

    /** Denies request {@code sequence} of the execution suspended in {@code image}. */
    Step deny(String image, List<String> grants, String executionId, long sequence, String reason);

    /** Answers the execution suspended in {@code image} with a {@code VmResume} (JSON). */
    Step respond(String image, List<String> grants, String vmResume);

    /** Resumes the execution suspended at a yield in {@code image}. */
    Step resume(String image, List<String> grants, String executionId);
}
