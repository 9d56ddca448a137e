package dev.finch;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.Value;
import dev.finch.vm.boundary.EffectRequest;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one submission (or one resume) ended: {@link Completed}, {@link Failed}, {@link Suspended} or
 * {@link Cancelled} — or, for an answer to a suspended execution, {@link Refused}: the answer was not taken and the
 * execution still waits. Every variant carries the fields of the D4 outcome object; Jackson writes exactly that
 * object (snake_case, see {@link FinchJson}). Only a completed outcome reflects a committed change: the stack,
 * revision and generation of the others are the session's unchanged ones, while their {@code output} keeps the
 * {@code say} text already streamed.
 */
@JsonSerialize(using = FinchJson.OutcomeSerializer.class)
public sealed interface Outcome {
    /** The protocol version every outcome states. */
    String PROTOCOL = "FINCH-VM-TYPED/1";

    /** The lifecycle state in D4's spelling. */
    enum Status {
        COMPLETED, FAILED, SUSPENDED, CANCELLED,
        /** An answer (resume, approval, denial, result) was refused; nothing was dispatched and the execution still waits. */
        REFUSED;

        /** The JSON spelling: lowercase. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        @Override public String toString() { return spelling(); }
    }

    /** The shared D4 fields. */
    Fields fields();

    /** Which variant this is. */
    Status status();

    default String protocol() { return PROTOCOL; }

    default String executionId() { return fields().executionId(); }

    default String sourceId() { return fields().sourceId(); }

    /** The resolved language ({@code lisp}, {@code forth}, {@code norman}); null only when none was resolved. */
    default String language() { return fields().language(); }

    /** All {@code say} text of this execution so far (joined when first read). */
    default String output() { return fields().output().toString(); }

    /**
     * The response's events in order (decisions D4, extended: JSON {@code "events"}): {@code say} chunks (consecutive
     * ones joined) and the events of output handles ({@code output-open}, {@code output-replace},
     * {@code output-progress}, {@code output-close}). Between two say, open or close events only the last replace and
     * the last progress of each handle are kept ({@link dev.finch.vm.OutputLog}); the run's sink saw every one.
     * Materialized when first read.
     */
    default List<dev.finch.vm.OutputEvent> events() { return fields().events(); }

    /** The session stack after this outcome, bottom to top (a {@link Session#call}'s outcome: the word's outputs). */
    default List<StackEntry> stack() { return fields().stack(); }

    /**
     * The same stack as typed {@link Value}s, bottom to top: what a Java program reads results from
     * ({@code outcome.values().get(0).asLong()}). Converted when first read.
     */
    default List<Value> values() { return fields().values(); }

    default List<String> inferredCapabilities() { return fields().inferredCapabilities(); }

    default List<String> requiredCapabilities() { return fields().requiredCapabilities(); }

    default List<Diagnostic> diagnostics() { return fields().diagnostics(); }

    /**
     * The checked run-time error this outcome failed with, if it did: an execute-phase diagnostic raised because the
     * program is wrong (program-error, unwrap of none, arithmetic, show refusing, an uncaught failure at the top
     * level) — not a resource limit, a cancellation or a defect of Finch ({@link dev.finch.vm.engine.VmCode#programFault}).
     * Empty for any other outcome, and for a failure before the run (parse, lower, verify) or at the host boundary.
     */
    default Optional<Diagnostic> checkedRuntimeError() {
        if (!(this instanceof Failed)) return Optional.empty();
        return diagnostics().stream().filter(d -> d.phase() == dev.finch.ir.diag.Phase.EXECUTE
                && dev.finch.vm.engine.VmCode.of(d.code()).map(dev.finch.vm.engine.VmCode::programFault).orElse(true)).findFirst();
    }

    default long vmRevision() { return fields().vmRevision(); }

    default long manifestGeneration() { return fields().manifestGeneration(); }

    /** The value a {@code yield} published, when the execution waits at a yield ({@link Suspended}, {@link Refused}). */
    default Optional<StackEntry> yielded() { return Optional.empty(); }

    /** The host request the execution waits for, when it waits at the host boundary ({@link Suspended}, {@link Refused}). */
    default Optional<PendingRequest> pendingRequest() { return Optional.empty(); }

    /**
     * The CPU task the execution waits for, when it paused at {@code task-join} of a task still computing — or the
     * child agent, when it paused at {@code agent-await} of a child still working ({@link Suspended}, {@link Refused}):
     * resume it ({@link Session#resume}, a plain resume) once {@link TaskWait#done()} completes.
     */
    default Optional<TaskWait> waitingTask() { return Optional.empty(); }

    /**
     * What a suspended execution is waiting for: a {@code yield} (resume it), a request at the host boundary
     * (approve, deny or respond) or a CPU task (resume it when the task is done). JSON field {@code waiting}.
     */
    enum Waiting {
        YIELD, REQUEST, TASK;

        /** The JSON spelling: lowercase. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        @Override public String toString() { return spelling(); }
    }

    /** What the execution waits for, when it is {@link Suspended} or {@link Refused}; else empty. */
    default Optional<Waiting> waiting() {
        if (status() != Status.SUSPENDED && status() != Status.REFUSED) return Optional.empty();
        if (pendingRequest().isPresent()) return Optional.of(Waiting.REQUEST);
        if (waitingTask().isPresent()) return Optional.of(Waiting.TASK);
        return Optional.of(Waiting.YIELD);
    }

    /**
     * A CPU task a suspended execution waits for: its number within the run ({@code 1, 2, …} in {@code defer-cpu}
     * order) and a future completed when it has finished (with a value, a failure or cancelled); completing it
     * yourself changes nothing.
     */
    record TaskWait(long task, java.util.concurrent.CompletableFuture<Void> done) {
        public TaskWait {
            Objects.requireNonNull(done, "done");
        }
    }

    /** What a request at the host boundary waits for. */
    enum Awaiting {
        /** A grant is missing: approve or deny it ({@link Session#approve}, {@link Session#deny}). */
        APPROVAL,
        /** Deferred-host mode, approved: the host performs the operation and answers ({@link Session#respond}). */
        RESULT;

        /** The JSON spelling: lowercase. */
        public String spelling() { return name().toLowerCase(java.util.Locale.ROOT); }

        @Override public String toString() { return spelling(); }
    }

    /**
     * The request a suspended execution waits for at the host boundary (the contract's event envelope, with its typed
     * arguments and expected result row) and what it waits for. A host must not perform the operation while it awaits
     * {@link Awaiting#APPROVAL}.
     */
    record PendingRequest(EffectRequest request, Awaiting awaiting) {
        public PendingRequest {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(awaiting, "awaiting");
        }
    }

    /**
     * The fields every outcome shares (decisions D4).
     *
     * @param output               all {@code say} text so far: a snapshot that is joined into a string only when read, so a
     *                             pause reports it without copying it
     * @param values               {@code stack} as typed values (same size, same order)
     * @param inferredCapabilities the verifier's transitive requirement set, canonical spellings
     * @param requiredCapabilities what the run is waiting for (a suspension at a capability boundary), else empty
     * @param log                  the record of the response's events, indexing {@code output} for say text
     */
    record Fields(String executionId, String sourceId, String language, CharSequence output, List<StackEntry> stack,
                  List<Value> values, List<String> inferredCapabilities, List<String> requiredCapabilities, List<Diagnostic> diagnostics,
                  long vmRevision, long manifestGeneration, dev.finch.vm.OutputLog log) {
        /** Fields without a record of events beyond the say text ({@link #events()}: one say event of all of it). */
        public Fields(String executionId, String sourceId, String language, CharSequence output, List<StackEntry> stack,
                      List<Value> values, List<String> inferredCapabilities, List<String> requiredCapabilities, List<Diagnostic> diagnostics,
                      long vmRevision, long manifestGeneration) {
            this(executionId, sourceId, language, output, stack, values, inferredCapabilities, requiredCapabilities, diagnostics,
                    vmRevision, manifestGeneration, dev.finch.vm.OutputLog.EMPTY);
        }

        /** The response's events, say text cut from {@link #output()}. */
        public List<dev.finch.vm.OutputEvent> events() { return log.events(output); }

        /** These fields with {@code events} recorded. */
        public Fields withLog(dev.finch.vm.OutputLog events) {
            return new Fields(executionId, sourceId, language, output, stack, values, inferredCapabilities, requiredCapabilities, diagnostics,
                    vmRevision, manifestGeneration, events);
        }

        public Fields {
            log = log == null ? dev.finch.vm.OutputLog.EMPTY : log;
            Objects.requireNonNull(executionId, "executionId");
            Objects.requireNonNull(sourceId, "sourceId");
            output = output == null ? "" : output;
            stack = stack instanceof StackDisplay.Lazy ? stack : List.copyOf(stack);
            values = values == null ? List.of() : java.util.Collections.unmodifiableList(values);
            if (values.size() != stack.size()) throw new IllegalArgumentException("values and stack differ in size");
            inferredCapabilities = List.copyOf(inferredCapabilities);
            requiredCapabilities = List.copyOf(requiredCapabilities);
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /** {@code o} with the response's events recorded ({@link Fields#withLog}). */
    static Outcome withLog(Outcome o, dev.finch.vm.OutputLog log) {
        if (log == null || log.size() == 0) return o;
        Fields f = o.fields().withLog(log);
        return switch (o.status()) {
            case COMPLETED -> new Completed(f);
            case FAILED -> new Failed(f);
            case CANCELLED -> new Cancelled(f);
            case SUSPENDED -> new Suspended(f, o.yielded(), o.pendingRequest(), o.waitingTask());
            case REFUSED -> new Refused(f, o.yielded(), o.pendingRequest(), o.waitingTask());
        };
    }

    /** The run finished and its stack and dictionary changes were committed. */
    record Completed(Fields fields) implements Outcome {
        @Override public Status status() { return Status.COMPLETED; }
    }

    /** The submission was refused or stopped with an error; nothing was committed. */
    record Failed(Fields fields) implements Outcome {
        @Override public Status status() { return Status.FAILED; }
    }

    /**
     * The run paused. {@code yielded} is the value a {@code yield} published (continue with {@link Session#resume});
     * {@code pendingRequest} the request it waits for at the host boundary (approve, deny or respond);
     * {@code waitingTask} the CPU task it waits for at {@code task-join} (resume it once the task is done). Exactly one
     * is present. A unit yield is the plain cooperative timeslice an interactive host resumes automatically.
     */
    record Suspended(Fields fields, Optional<StackEntry> yielded, Optional<PendingRequest> pendingRequest, Optional<TaskWait> waitingTask)
            implements Outcome {
        public Suspended {
            Objects.requireNonNull(yielded, "yielded");
            Objects.requireNonNull(pendingRequest, "pendingRequest");
            Objects.requireNonNull(waitingTask, "waitingTask");
        }

        /** A pause at a yield or at the host boundary. */
        public Suspended(Fields fields, Optional<StackEntry> yielded, Optional<PendingRequest> pendingRequest) {
            this(fields, yielded, pendingRequest, Optional.empty());
        }

        /** A pause at a yield. */
        public Suspended(Fields fields, Optional<StackEntry> yielded) { this(fields, yielded, Optional.empty()); }

        @Override public Status status() { return Status.SUSPENDED; }

        /** True when the pause is a {@code unit yield}, which the contract's interactive rule resumes at once. */
        public boolean isUnitYield() { return yielded.map(v -> v.type().equals("unit")).orElse(false); }
    }

    /**
     * An answer to a suspended execution was refused (decisions D4, extended): another sequence, the wrong kind, a
     * result that does not fit the expected row, a malformed {@code VmResume}, or a session that moved on since the
     * suspension ({@code E-SESSION-001}). Nothing was dispatched and nothing consumed: the execution is still
     * suspended, waiting as {@code yielded} / {@code pendingRequest} say, and the right answer still continues it (or
     * {@link Session#cancel} drops it). The diagnostics say why.
     */
    record Refused(Fields fields, Optional<StackEntry> yielded, Optional<PendingRequest> pendingRequest, Optional<TaskWait> waitingTask)
            implements Outcome {
        public Refused {
            Objects.requireNonNull(yielded, "yielded");
            Objects.requireNonNull(pendingRequest, "pendingRequest");
            Objects.requireNonNull(waitingTask, "waitingTask");
        }

        /** A refused answer to an execution paused at a yield or at the host boundary. */
        public Refused(Fields fields, Optional<StackEntry> yielded, Optional<PendingRequest> pendingRequest) {
            this(fields, yielded, pendingRequest, Optional.empty());
        }

        @Override public Status status() { return Status.REFUSED; }
    }

    /** The run was cancelled; nothing was committed. */
    record Cancelled(Fields fields) implements Outcome {
        @Override public Status status() { return Status.CANCELLED; }
    }
}
