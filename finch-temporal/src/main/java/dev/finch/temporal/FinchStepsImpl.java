package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionImage;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityInfo;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The worker's {@link FinchSteps}: each step restores the image into a fresh session of the worker's Finch (the
 * worker's options plus the workflow's grants, always deferred), takes its one input, runs on to the next wait and
 * saves the image. A CPU task the run joins is awaited inside the step and a plain {@code unit yield} resumed at once
 * (the contract's interactive rule), so a step ends only at a completion, a failure, an approval or result the host
 * must give, or a value yield.
 */
final class FinchStepsImpl implements FinchSteps {
    private final Finch finch;
    private final SessionOptions options;
    private final ImageStore images;

    FinchStepsImpl(Finch finch, SessionOptions options, ImageStore images) {
        this.finch = finch;
        this.options = options.withDeferredHost(true);
        this.images = images;
    }

    @Override public Step submit(String image, List<String> grants, String text, String sourceId) {
        return step(image, grants, s -> s.submit(Submission.of(text, sourceId)));
    }

    @Override public Step approve(String image, List<String> grants, String executionId, long sequence, String scope) {
        Scope parsed = scope(scope);
        return step(image, grants, s -> matches(s, executionId, sequence) ? s.approve(executionId, parsed)
                // Another sequence: Finch refuses it (E-HOST-012) and the execution keeps waiting; nothing is approved.
                : s.respond(executionId, new HostResponse.Denied(sequence, "stale approval")));
    }

    @Override public Step deny(String image, List<String> grants, String executionId, long sequence, String reason) {
        return step(image, grants, s -> s.respond(executionId, new HostResponse.Denied(sequence, reason == null ? "denied by the host" : reason)));
    }

    @Override public Step respond(String image, List<String> grants, String vmResume) {
        return step(image, grants, s -> s.respond(vmResume));
    }

    @Override public Step resume(String image, List<String> grants, String executionId) {
        return step(image, grants, s -> s.resume(executionId));
    }

    private static boolean matches(Session s, String executionId, long sequence) {
        return s.pendingRequest(executionId).map(r -> r.sequence() == sequence).orElse(true);
    }

    private Step step(String image, List<String> grants, Function<Session, Outcome> take) {
        return StepLedger.as(claimant(), () -> {
            Session session = open(finch, options, images, image, grants);
            Outcome o = settle(session, take.apply(session));
            String next;
            try {
                next = switch (o.status()) {
                    case SUSPENDED -> images.put(session.save(o.executionId()));
                    case REFUSED -> image;                      // nothing was taken: the image is still the one to answer
                    case COMPLETED, FAILED, CANCELLED -> images.put(session.save());
                };
            } catch (SessionImage.ImageException e) {
                // The run holds (or left on the stack) a value that lives only in this process: no image can carry the
                // session on, and running the step again would end the same way. The session keeps its previous image.
                throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), NOT_DURABLE);
            }
            return step(next, o);
        });
    }

    /** Runs on past what a step need not stop at: a finished CPU task's join, a unit yield. */
    private static Outcome settle(Session session, Outcome first) {
        Outcome o = session.awaitTasks(first);
        while (o instanceof Outcome.Suspended s && s.isUnitYield()) o = session.awaitTasks(session.resume(o.executionId()));
        return o;
    }

    /**
     * The session of the image {@code reference} names in {@code images} (a new session when null), with the workflow's
     * grants added to the worker's options.
     */
    static Session open(Finch finch, SessionOptions options, ImageStore images, String reference, List<String> grants) {
        SessionOptions o = options;
        try {
            for (String g : grants == null ? List.<String>of() : grants) o = o.withGrant(g);
            return reference == null ? finch.newSession(o) : finch.restore(images.get(reference), o);
        } catch (SessionImage.ImageException | IllegalArgumentException e) {
            // Not a passing fault: an image this worker's key did not sign, or a grant that does not parse. Retrying
            // cannot help, so the update fails and the session keeps its state.
            throw ApplicationFailure.newNonRetryableFailure(e.getMessage(), BAD_IMAGE);
        }
    }

    /** The failure type of a step whose session cannot be saved (a value that lives only in one process). */
    static final String NOT_DURABLE = "FinchNotDurable";

    /** The failure type of a step whose image or grants this worker refuses. */
    static final String BAD_IMAGE = "FinchImageRefused";

    static Step step(String image, Outcome o) {
        Pending pending = o.pendingRequest().map(FinchStepsImpl::pending).orElse(null);
        String yielded = o.yielded().map(e -> e.display()).orElse(null);
        return new Step(image, FinchJson.write(o), o.status().spelling(), o.executionId(), o.output(), pending, yielded);
    }

    private static Pending pending(Outcome.PendingRequest p) {
        EffectRequest r = p.request();
        return new Pending(r.sequence(), r.operation(), r.requirement().toString(), p.awaiting().spelling(), FinchJson.write(r));
    }

    private static Scope scope(String scope) {
        try {
            return Scope.valueOf(scope.toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw ApplicationFailure.newNonRetryableFailure("no approval scope '" + scope + "'", "FinchBadScope");
        }
    }

    /** The activity's identity, the same for every attempt of it. */
    static String claimant() {
        ActivityInfo info = Activity.getExecutionContext().getInfo();
        return info.getWorkflowId() + "/" + info.getRunId() + "/" + info.getActivityId();
    }

}
