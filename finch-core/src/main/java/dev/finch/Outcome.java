package dev.finch;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.Value;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one submission (or one resume) ended: {@link Completed}, {@link Failed}, {@link Suspended} or
 * {@link Cancelled}. Every variant carries the fields of the D4 outcome object; Jackson writes exactly that
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
        COMPLETED, FAILED, SUSPENDED, CANCELLED;

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

    /** All {@code say} text of this execution so far. */
    default String output() { return fields().output(); }

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

    default long vmRevision() { return fields().vmRevision(); }

    default long manifestGeneration() { return fields().manifestGeneration(); }

    /**
     * The fields every outcome shares (decisions D4).
     *
     * @param values               {@code stack} as typed values (same size, same order)
     * @param inferredCapabilities the verifier's transitive requirement set, canonical spellings
     * @param requiredCapabilities what the run is waiting for (a suspension at a capability boundary), else empty
     */
    record Fields(String executionId, String sourceId, String language, String output, List<StackEntry> stack,
                  List<Value> values, List<String> inferredCapabilities, List<String> requiredCapabilities, List<Diagnostic> diagnostics,
                  long vmRevision, long manifestGeneration) {
        public Fields {
            Objects.requireNonNull(executionId, "executionId");
            Objects.requireNonNull(sourceId, "sourceId");
            output = output == null ? "" : output;
            stack = List.copyOf(stack);
            values = values == null ? List.of() : java.util.Collections.unmodifiableList(values);
            if (values.size() != stack.size()) throw new IllegalArgumentException("values and stack differ in size");
            inferredCapabilities = List.copyOf(inferredCapabilities);
            requiredCapabilities = List.copyOf(requiredCapabilities);
            diagnostics = List.copyOf(diagnostics);
        }
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
     * The run paused; continue it with {@link Session#resume}. {@code yielded} is the value a {@code yield}
     * published (empty when the pause is at a capability boundary). A unit yield is the plain cooperative
     * timeslice an interactive host resumes automatically.
     */
    record Suspended(Fields fields, Optional<StackEntry> yielded) implements Outcome {
        public Suspended { Objects.requireNonNull(yielded, "yielded"); }

        @Override public Status status() { return Status.SUSPENDED; }

        /** True when the pause is a {@code unit yield}, which the contract's interactive rule resumes at once. */
        public boolean isUnitYield() { return yielded.map(v -> v.type().equals("unit")).orElse(false); }
    }

    /** The run was cancelled; nothing was committed. */
    record Cancelled(Fields fields) implements Outcome {
        @Override public Status status() { return Status.CANCELLED; }
    }
}
