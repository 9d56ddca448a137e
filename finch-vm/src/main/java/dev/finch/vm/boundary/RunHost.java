package dev.finch.vm.boundary;

import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.GrantUse;
import dev.finch.capabilities.Attempt;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run's side of the host boundary — the single choke point every effect passes (contract: event envelope →
 * authorization → effect journal → dispatch or suspension). A request whose grant is missing suspends before
 * anything is dispatched; so does every approved request in deferred-host mode. When the run resumes, the same
 * request (same sequence) is answered exactly once: approved and dispatched, given its result, denied, or cancelled.
 */
public final class RunHost implements dev.finch.vm.runtime.Boundary {
    /** Why the run is paused at the boundary. */
    public enum Waiting { APPROVAL, RESULT }

    /** The dispatch of one operation, run at most once. */
    @FunctionalInterface
    public interface Dispatch { Object run() throws HostFailure; }

    private final String executionId;
    private final HostConfig config;
    private GrantSet grants;
    private long sequence;
    private final EffectJournal journal = new EffectJournal();
    private EffectRequest pending;
    private Waiting waiting;
    private HostResponse response;
    /** The grant that authorized the dispatch running now, if one runs. */
    private dev.finch.capabilities.Grant authorizing;
    /** The states word libraries keep for this run, by kind name, made when first asked for. */
    private final java.util.Map<String, RunState> states = new java.util.LinkedHashMap<>();

    public RunHost(String executionId, HostConfig config) {
        this.executionId = executionId;
        this.config = config;
        this.grants = config.grants();
    }

    public HostConfig config() { return config; }

    /** The boundary of {@code ctx}'s run. */
    public static RunHost of(Ctx ctx) { return (RunHost) ctx.host; }

    public String executionId() { return executionId; }

    public EffectJournal journal() { return journal; }

    /**
     * The grants in force now: once-grants disappear as they are used, and a grant the session revoked disappears the
     * next time the run looks (at a capability boundary, when it lists or delegates grants), however long ago the run
     * started or paused.
     */
    public GrantSet grants() { return grants = config.revocations().strip(grants); }

    /**
     * Restores the boundary of a run saved in another process: its grants, sequence counter, journal and the
     * request it waits for. Nothing is dispatched by restoring.
     */
    public void restore(GrantSet grants, long sequence, java.util.List<EffectJournal.Entry> journal, EffectRequest pending, Waiting waiting) {
        this.grants = grants;
        this.sequence = sequence;
        for (EffectJournal.Entry e : journal) this.journal.record(e.request(), e.state());
        this.pending = pending;
        this.waiting = waiting;
    }

    /** The last sequence number used. */
    public long sequence() { return sequence; }

    /** The request the run is paused at, if any. */
    public Optional<EffectRequest> pending() { return Optional.ofNullable(pending); }

    public Optional<Waiting> waiting() { return Optional.ofNullable(waiting); }

    /** Records the answer the resumed run will find; the caller has checked it ({@link #refusal}). */
    public void answer(HostResponse r) { response = r; }

    /**
     * Why {@code response} cannot answer this run now, if it cannot (null: a plain resume, as after a yield). Checked
     * before the continuation is taken, so a refused answer consumes nothing and dispatches nothing: the run keeps
     * waiting for the right answer. In order: the run must wait at the host boundary (or, for a plain resume, must
     * not); the sequence must be the pending one; the kind must fit what it waits for (an approval for a missing
     * grant; a result only once approved); a result must have the expected row's type ({@code E-HOST-014}).
     */
    public Optional<Diagnostic> refusal(HostResponse response) {
        EffectRequest request = pending;
        if (response == null) {
            if (request == null) return Optional.empty();
            return Optional.of(HostCode.STALE_RESUME.at(request.origin(), "execution " + executionId + " waits at the host boundary for "
                    + (waiting == Waiting.APPROVAL ? "approval of" : "the result of") + " request " + request.sequence()
                    + "; approve, deny or respond instead of resume; nothing was dispatched"));
        }
        if (request == null) {
            return Optional.of(HostCode.STALE_RESUME.at(Origin.UNKNOWN, "execution " + executionId
                    + " is not waiting at the host boundary; nothing was dispatched", "no host answer", "sequence " + response.sequence()));
        }
        if (request.sequence() != response.sequence()) {
            return Optional.of(HostCode.STALE_RESUME.at(request.origin(), "execution " + executionId + " waits for sequence "
                    + request.sequence() + ", not " + response.sequence() + "; nothing was dispatched",
                    Long.toString(request.sequence()), Long.toString(response.sequence())));
        }
        if (response instanceof HostResponse.Result && waiting != Waiting.RESULT) {
            return Optional.of(HostCode.STALE_RESUME.at(request.origin(), "request " + request.sequence()
                    + " waits for approval, not for a result; nothing was dispatched", "approval", "a result"));
        }
        if (response instanceof HostResponse.Approved && waiting != Waiting.APPROVAL) {
            return Optional.of(HostCode.STALE_RESUME.at(request.origin(), "request " + request.sequence()
                    + " is already approved and waits for the host's result", "a result", "an approval"));
        }
        if (response instanceof HostResponse.Result r && !answers(request, r.value())) {
            // A deferred host's answer is untrusted data: it must have the awaited row's type.
            return Optional.of(HostCode.BAD_RESULT.at(request.origin(), "the host answered request " + request.sequence()
                    + " with a value that is not " + row(request) + "; the execution still waits for its result",
                    row(request), r.value() == null ? "nothing" : r.value().getClass().getSimpleName()));
        }
        return Optional.empty();
    }

    /** Whether {@code value} answers {@code request}: one value of its row's type, unit for an empty row. */
    private static boolean answers(EffectRequest request, Object value) {
        List<Type> row = request.expectedResult();
        if (row.isEmpty()) return value == dev.finch.vm.value.Unit.INSTANCE;
        return row.size() == 1 && dev.finch.vm.value.Values.conforms(row.get(0), value);
    }

    private static String row(EffectRequest request) {
        List<Type> row = request.expectedResult();
        return row.isEmpty() ? "unit (an empty row)" : row.size() == 1 ? "a " + row.get(0) : "the row " + row;
    }

    /**
     * Passes one host operation through the boundary; returns its value, or null when the run suspends.
     * {@code arguments} are the word's inputs with their call-site types: the request carries them as they are. A null
     * {@code dispatch} is an operation the host must answer itself: once approved it always waits for the host's result.
     */
    public Object await(Ctx ctx, String operation, Capability requirement, List<TypedValue> arguments, List<Type> expected,
                        Origin origin, Dispatch dispatch) {
        EffectRequest request;
        if (ctx.takeResume()) {
            request = pending;
            HostResponse r = response;
            pending = null;
            waiting = null;
            response = null;
            if (request == null || r == null) throw new FinchTrap(VmCode.INTERNAL, origin, "a host request was resumed without an answer");
            if (r instanceof HostResponse.Denied d) {
                settle(request, EffectJournal.State.DENIED);
                throw new FinchTrap(HostCode.DENIED, origin, "the request for " + requirement + " was denied" + (d.reason() == null ? "" : ": " + d.reason()));
            }
            if (r instanceof HostResponse.Cancelled c) {
                settle(request, EffectJournal.State.CANCELLED);
                throw new FinchTrap(VmCode.CANCELLED, origin, "the request for " + requirement + " was cancelled" + (c.reason() == null ? "" : ": " + c.reason()));
            }
            if (r instanceof HostResponse.Result res) {
                // The answer was checked against the row before the continuation was taken (refusal); this is the last guard.
                if (!answers(request, res.value())) {
                    throw new FinchTrap(VmCode.INTERNAL, origin, "an unchecked host answer reached request " + request.sequence());
                }
                settle(request, EffectJournal.State.ACKNOWLEDGED);
                return res.value();
            }
            HostResponse.Approved a = (HostResponse.Approved) r;
            if (a.grant() != null) grants.add(a.grant()).toOptional().ifPresent(g -> grants = g);
        } else {
            // A request that would pause while another strand of the run owns its pause is not made now: this strand
            // unwinds and issues it afresh when the run resumes (one pending request per run; no sequence is used).
            if ((config.deferred() || dispatch == null || !grants().use(requirement).isOk()) && dev.finch.vm.runtime.Strands.retryIfPauseTaken(ctx)) return null;
            request = new EffectRequest(EffectRequest.PROTOCOL, executionId, ++sequence, requirement, operation, arguments, expected, origin);
            for (EffectObserver o : config.observers()) o.requested(request);
            journal.record(request, EffectJournal.State.REQUESTED);
        }
        Attempt<GrantUse> use = grants().use(requirement);
        if (!use.isOk()) return suspend(ctx, request, Waiting.APPROVAL);
        grants = use.value().remaining();
        // A null dispatch is an operation only the host can answer (an editor proposal without an editor host).
        if (config.deferred() || dispatch == null) return suspend(ctx, request, Waiting.RESULT);
        try {
            for (EffectObserver o : config.observers()) o.dispatching(request);
        } catch (HostFailure refused) {
            settle(request, EffectJournal.State.CANCELLED);
            throw new FinchTrap(refused.code(), origin, refused.getMessage());
        }
        journal.record(request, EffectJournal.State.DISPATCHED);
        authorizing = use.value().grant();
        try {
            Object value = dispatch.run();
            settle(request, EffectJournal.State.ACKNOWLEDGED);
            return value;
        } catch (HostFailure f) {
            settle(request, EffectJournal.State.ACKNOWLEDGED);
            throw new FinchTrap(f.code(), origin, f.getMessage());
        } finally {
            authorizing = null;
        }
    }

    /**
     * The grant that authorized the dispatch running now (a once-grant included, though it is no longer in
     * {@link #grants()}); empty outside a dispatch. A binding whose safety depends on how the grant was spelled reads it
     * here: the net host lets only a grant naming a host exactly reach a private address, and re-checks redirects.
     */
    public Optional<dev.finch.capabilities.Grant> authorizing() { return Optional.ofNullable(authorizing); }

    private Object suspend(Ctx ctx, EffectRequest request, Waiting why) {
        if (!dev.finch.vm.runtime.Strands.claimPause(ctx, request.origin())) {
            throw new FinchTrap(VmCode.INTERNAL, request.origin(), "request " + request.sequence() + " was made while another step owned the run's pause");
        }
        pending = request;
        waiting = why;
        ctx.suspending = true;
        return null;
    }

    private void settle(EffectRequest request, EffectJournal.State state) {
        journal.record(request, state);
        EffectJournal.Entry e = new EffectJournal.Entry(request, state);
        for (EffectObserver o : config.observers()) o.settled(e);
    }

    /** This run's state of {@code kind}, made when first asked for. */
    public <S extends RunState> S state(RunState.Kind<S> kind) {
        @SuppressWarnings("unchecked")
        S s = (S) states.computeIfAbsent(kind.name(), n -> kind.fresh());
        return s;
    }

    /** This run's states, by kind name (what a saved run keeps of them). */
    public java.util.Map<String, RunState> states() { return java.util.Collections.unmodifiableMap(states); }

    /** Installs the states of a saved run, by kind name (before anything of it runs again). */
    public void restoreStates(java.util.Map<String, RunState> saved) {
        states.clear();
        states.putAll(saved);
    }

    @Override
    public java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> staged() {
        java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> out = new java.util.TreeMap<>();
        for (var e : states.entrySet()) {
            com.fasterxml.jackson.databind.JsonNode staged = e.getValue().staged();
            if (staged != null) out.put(e.getKey(), staged);
        }
        return out;
    }

    /** Closes every state the run still holds (at the end of the run). */
    public void closeAll() {
        for (RunState s : states.values()) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // Best effort at the end of a run.
            }
        }
        states.clear();
    }
}
