package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.vm.boundary.EffectRequest;
import io.temporal.failure.ApplicationFailure;
import java.util.List;

/**
 * The worker's {@link FinchHost}: reads the request from the image (with its typed arguments; nothing is continued, so
 * nothing is claimed), checks it is the one named, and performs it through the
 * {@link RequestPerformer} once per (execution id, sequence) in the {@link PerformedEffects} store. The workflow asks
 * only for a request its last step reported approved ({@link Pending#RESULT}): the image records no approval apart from
 * the run's own waiting state, which only the VM reads.
 */
final class FinchHostImpl implements FinchHost {
    private final Finch finch;
    private final SessionOptions options;
    private final RequestPerformer performer;
    private final PerformedEffects performed;
    private final ImageStore images;

    FinchHostImpl(Finch finch, SessionOptions options, RequestPerformer performer, PerformedEffects performed, ImageStore images) {
        this.finch = finch;
        this.options = options.withDeferredHost(true);
        this.performer = performer;
        this.performed = performed;
        this.images = images;
    }

    @Override public String perform(String image, List<String> grants, String executionId, long sequence) {
        String key = PerformedEffects.key(executionId, sequence);
        return performed.once(key, () -> {
            Session session = FinchStepsImpl.open(finch, options, images, image, grants);
            EffectRequest request = session.pendingRequest(executionId).filter(r -> r.sequence() == sequence)
                    .orElseThrow(() -> ApplicationFailure.newNonRetryableFailure("execution " + executionId
                            + " does not wait for request " + sequence + " in this image", "FinchNoSuchRequest"));
            return performer.perform(request).toJson();
        });
    }
}
