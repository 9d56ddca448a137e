package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.VmResume;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.Value;
import dev.finch.vm.boundary.EffectRequest;
import java.util.stream.Collectors;

/**
 * Performs one approved host request and answers it: the effect itself, run by {@link FinchHost#perform} in an activity.
 * {@link #throughFinch} performs it with Finch's own words and hosts; an embedder may send it elsewhere (a sandbox,
 * another service), using {@link PerformedEffects#key} as the idempotency key there.
 */
@FunctionalInterface
public interface RequestPerformer {
    /** Performs {@code request} (approved: the host gave the authority for it) and answers its {@code VmResume}. */
    VmResume perform(EffectRequest request);

    /**
     * Performs a request as Finch itself would outside deferred mode: the request's word is called with its typed
     * arguments ({@link Session#call}) in a session of {@code options} (its roots, file, process and tool hosts) that
     * holds exactly the request's requirement as a grant. A completed call answers its values; a failed one (a missing
     * file, a host failure) is answered as a denial carrying the diagnostic's code and message, since a deferred answer
     * is a result, a denial or a cancellation. A result with no JSON form (a stream, a handle) cannot reach a run that
     * continues in another step: it is answered as a denial too.
     */
    static RequestPerformer throughFinch(Finch finch, SessionOptions options) {
        return request -> {
            Session session = finch.newSession(options.withDeferredHost(false).withGrant(request.requirement().toString()));
            Outcome o = session.call(request.operation(), request.argumentValues().toArray(Value[]::new));
            return switch (o.status()) {
                case COMPLETED -> answer(request, o);
                case FAILED -> VmResume.denied(request.executionId(), request.sequence(), o.diagnostics().stream()
                        .map(d -> d.code() + ": " + d.message()).collect(Collectors.joining("; ")));
                case SUSPENDED, REFUSED -> {
                    session.cancel(o.executionId());
                    yield VmResume.denied(request.executionId(), request.sequence(), "the host could not perform " + request.operation()
                            + " without asking again: " + o.diagnostics().stream().map(Diagnostic::message).collect(Collectors.joining("; ")));
                }
                case CANCELLED -> VmResume.cancelled(request.executionId(), request.sequence(), "the host's call of " + request.operation() + " was cancelled");
            };
        };
    }

    /**
     * The result answer of a completed call; a denial when the result lives only in this process (a stream, a handle:
     * it has no JSON form, so it cannot reach a run that continues in another step).
     */
    private static VmResume answer(EffectRequest request, Outcome o) {
        try {
            return VmResume.result(request.executionId(), request.sequence(), o.values().toArray(Value[]::new));
        } catch (IllegalArgumentException notDurable) {
            return VmResume.denied(request.executionId(), request.sequence(), "the result of " + request.operation()
                    + " lives only in the host's process and cannot reach the run: " + notDurable.getMessage());
        }
    }
}
