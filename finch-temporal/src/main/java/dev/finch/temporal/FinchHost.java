package dev.finch.temporal;

import io.temporal.activity.ActivityInterface;
import java.util.List;

/**
 * The host side of a session workflow: performs one approved request — the only place a program's effect happens.
 * Keyed by (execution id, sequence): a retry of the activity, or a second dispatch of the same key, answers the
 * recorded result instead of performing again ({@link PerformedEffects}).
 */
@ActivityInterface
public interface FinchHost {
    /**
     * Performs request {@code sequence} of the execution suspended in {@code image} (it must await its result) and
     * answers the contract's {@code VmResume} for it as JSON: its result, or a denial saying why it could not be done.
     */
    String perform(String image, List<String> grants, String executionId, long sequence);
}
