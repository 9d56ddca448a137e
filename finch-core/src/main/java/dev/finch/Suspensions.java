package dev.finch;

import dev.finch.ir.cap.Capability;
import dev.finch.vm.OutputLog;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.Suspension;
import dev.finch.vm.TypedValue;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.RunHost;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A session's executions that have not committed: what each was made from while it runs or waits
 * ({@link SessionHistory.Submitted}, as images need it), the suspended ones waiting for an answer, how many times each
 * has paused, and which of their pauses exist as an image elsewhere — those claim their pause in the
 * {@link ContinuationLedger} before they continue or are cancelled, so only one copy of an image ever does.
 */
final class Suspensions {
    /** A suspended run waiting for an answer, with what its final outcome must still report. */
    record Paused(Suspension suspension, String sourceId, String language, List<String> inferred,
                  long baseRevision, CharSequence output, OutputSink sink, OutputLog log) {
        Paused(Suspension suspension, String sourceId, String language, List<String> inferred, long baseRevision, CharSequence output, OutputSink sink) {
            this(suspension, sourceId, language, inferred, baseRevision, output, sink, OutputLog.EMPTY);
        }
    }

    /** What a suspended execution waits for, as its outcomes report it. */
    record Waiting(List<String> required, Optional<StackEntry> yielded, Optional<Outcome.PendingRequest> request,
                   Optional<Outcome.TaskWait> task) {
        Waiting(List<String> required, Optional<StackEntry> yielded, Optional<Outcome.PendingRequest> request) {
            this(required, yielded, request, Optional.empty());
        }

        static Waiting of(Suspension s) {
            Optional<EffectRequest> request = s.pendingRequest();
            if (request.isPresent()) {
                // Paused at the host boundary: required_capabilities is the concrete request, not a yield.
                // Only a missing grant is "required"; an approved request waiting for a deferred host's result is not.
                boolean missing = s.waiting().orElse(null) == RunHost.Waiting.APPROVAL;
                List<String> required = !missing || request.get().requirement().equals(Capability.SESSION_EMIT) ? List.of()
                        : List.of(request.get().requirement().toString());
                Outcome.Awaiting awaiting = missing ? Outcome.Awaiting.APPROVAL : Outcome.Awaiting.RESULT;
                return new Waiting(required, Optional.empty(), Optional.of(new Outcome.PendingRequest(request.get(), awaiting)));
            }
            Optional<Suspension.TaskWait> task = s.awaitedTask();
            if (task.isPresent()) {
                // Paused at task-join: nothing was published; a plain resume continues once the task is done.
                return new Waiting(List.of(), Optional.empty(), Optional.empty(), Optional.of(new Outcome.TaskWait(task.get().task(), task.get().done())));
            }
            TypedValue payload = s.payload();
            return new Waiting(List.of(), payload == null ? Optional.empty() : Optional.of(StackDisplay.entries(List.of(payload)).get(0)), Optional.empty());
        }
    }

    private final ConcurrentHashMap<String, Paused> paused = new ConcurrentHashMap<>();
    /** What each execution not yet committed (running or suspended) was made from. */
    private final ConcurrentHashMap<String, SessionHistory.Submitted> inFlight = new ConcurrentHashMap<>();
    /** How many times each unfinished execution has paused: the pause a ledger claim names. */
    private final ConcurrentHashMap<String, Long> pauses = new ConcurrentHashMap<>();
    /** The suspended executions whose pause exists as an image (saved here or restored from one). */
    private final Set<String> durable = ConcurrentHashMap.newKeySet();
    /**
     * The memory host of each execution that runs with its own ({@link Session#call(String, List, OutputSink,
     * dev.finch.host.ModelHost, dev.finch.host.ToolHost, dev.finch.host.MemoryHost)}): where its staged writes go when it commits.
     */
    private final ConcurrentHashMap<String, dev.finch.host.MemoryHost> memory = new ConcurrentHashMap<>();

    Optional<Paused> paused(String executionId) { return Optional.ofNullable(paused.get(executionId)); }

    /** The ids of the executions suspended and waiting. */
    List<String> ids() { return List.copyOf(paused.keySet()); }

    /** Takes {@code p} out to continue it; false when another thread took or dropped it first. */
    boolean take(String executionId, Paused p) { return paused.remove(executionId, p); }

    void started(String executionId, SessionHistory.Submitted entry) { inFlight.put(executionId, entry); }

    /** As {@link #started(String, SessionHistory.Submitted)}, the execution's memory host {@code own} (null: the session's). */
    void started(String executionId, SessionHistory.Submitted entry, dev.finch.host.MemoryHost own) {
        started(executionId, entry);
        if (own != null) memory.put(executionId, own);
    }

    /** The memory host an execution runs with, when it is not the session's. */
    Optional<dev.finch.host.MemoryHost> memory(String executionId) { return Optional.ofNullable(memory.get(executionId)); }

    Optional<SessionHistory.Submitted> inFlight(String executionId) { return Optional.ofNullable(inFlight.get(executionId)); }

    /** The execution committed or failed: what it was made from is no longer needed here. */
    Optional<SessionHistory.Submitted> ended(String executionId) {
        memory.remove(executionId);
        return Optional.ofNullable(inFlight.remove(executionId));
    }

    /** Whether the execution is a call ({@link Session#call}), which commits nothing. */
    boolean isCall(String executionId) {
        SessionHistory.Submitted entry = inFlight.get(executionId);
        return entry != null && entry.call();
    }

    /** A run of {@code executionId} stopped: once more paused (as {@code p}), or finished (null). */
    void stopped(String executionId, Paused p) {
        if (p != null) {
            pauses.merge(executionId, 1L, Long::sum);
            paused.put(executionId, p);
        } else {
            pauses.remove(executionId);
            durable.remove(executionId);
        }
    }

    /** The number of the pause {@code executionId} is at (1 for its first). */
    long pause(String executionId) { return pauses.getOrDefault(executionId, 1L); }

    /** The execution's pause now exists as an image: it claims before it continues. */
    void saved(String executionId) { durable.add(executionId); }

    /** Installs a restored suspended execution at its {@code pause}-th pause, which it claims before it continues. */
    void restored(String executionId, Paused p, SessionHistory.Submitted entry, long pause) {
        inFlight.put(executionId, entry);
        pauses.put(executionId, pause);
        durable.add(executionId);
        paused.put(executionId, p);
    }

    /**
     * Claims the execution's current pause before it continues: true when it may (its pause exists nowhere else, or
     * this copy claimed it first). A copy that lost is forgotten here.
     */
    boolean claim(String executionId, ContinuationLedger ledger) {
        if (!durable.contains(executionId) || ledger.claim(executionId, pause(executionId))) return true;
        forget(executionId);
        return false;
    }

    /** Drops a suspended execution (cancelled): false when none waits under that id. A saved one's pause is claimed. */
    boolean drop(String executionId, ContinuationLedger ledger) {
        Paused dropped = paused.remove(executionId);
        if (dropped == null) return false;
        dropped.suspension().abandon();
        // A cancelled saved execution is claimed, so no copy of its image continues after it.
        if (durable.contains(executionId)) ledger.claim(executionId, pause(executionId));
        forget(executionId);
        return true;
    }

    /** Drops what is kept about an execution that will not continue here. */
    void forget(String executionId) {
        memory.remove(executionId);
        inFlight.remove(executionId);
        pauses.remove(executionId);
        durable.remove(executionId);
    }
}
