package dev.finch.vm.engine;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Run-time (execute phase) diagnostic codes of the VM. Codes never change meaning. */
public enum VmCode implements DiagnosticCode {
    OPTION_NONE("E-OPTION-001", "unwrap of none."),
    RESULT_UNWRAP_ERR("E-RESULT-001", "result-unwrap of an err."),
    RESULT_ERROR_OK("E-RESULT-002", "result-error of an ok."),
    INT_OVERFLOW("E-ARITH-001", "Integer overflow: an int result does not fit in 64 bits."),
    DIVIDE_BY_ZERO("E-ARITH-002", "Integer division or remainder by zero."),
    STEP_LIMIT("E-LIMIT-001", "The run used more steps than its limit (steps are counted at calls and loop back-edges)."),
    DEADLINE("E-LIMIT-002", "The run passed its deadline (a missed deadline is this code, never a cancellation, even when the run noticed it late)."),
    DEPTH_LIMIT("E-LIMIT-003", "Calls nested deeper than the recursion depth limit."),
    OUTPUT_LIMIT("E-LIMIT-004", "say output and output events exceeded the run's output limit (say text counts its UTF-8 bytes; each recorded output-handle event 16 bytes plus its text's)."),
    MEMORY_LIMIT("E-LIMIT-005", "A value would exceed the run's memory limit; refused before allocating."),
    STRANDS_LIMIT("E-LIMIT-006", "More concurrent steps (step-spawn: workflow, par, best-of) would be alive at once than a run allows (256)."),
    EXECUTION_TIME("E-LIMIT-007", "The execution ran longer than its total time limit (maxExecutionTime), summed over its start and all its resumes; time spent paused does not count."),
    CANCELLED("E-RUN-001", "The run was cancelled."),
    ALREADY_RESUMED("E-RUN-002", "This suspension was already resumed; a continuation runs once."),
    INTERNAL("E-RUN-003", "An internal VM error; the run was stopped and nothing was committed."),
    TOO_LARGE("E-RUN-004", "One function holds more calls and constants than a compiled unit can, even alone, and cannot be run: split that function. (A submission's many definitions are spread over as many units as they need.)"),
    PROGRAM_ERROR("E-RUN-005", "A checked run-time error of the program's own making: program-error, or a µNorman check (an if on a non-Boolean, no matching case branch, an unbound val, an unaskable type, steps sharing a stateful tool). The program is wrong, not the world."),
    EXPECTED_OK("E-RUN-006", "expect-ok found an err: a failure nobody caught stopped the run."),
    STEP_PAUSED("E-RUN-007", "The run tried to pause (for approval, a deferred answer or a yield, or a step-join waiting across another step's pause) inside a function value that a word runs without a resume point (list-map, list-filter, list-fold, sorting, an execute whose function type shows no pause); a pause needs the whole run's frames, so the run stops. Pauses in concurrent steps and fiber bodies are not refused: the run pauses with all their frames."),
    FIBER_CANCELLED("E-RUN-008", "A fiber was used after fiber-cancel, or from inside its own body (it cannot resume or cancel itself)."),
    TASK_CANCELLED("E-TASK-001", "task-join or task-poll of a CPU task that was cancelled (task-cancel of a copy of its handle, or its run ended before it finished): it has no value."),
    TASK_KIND("E-TASK-002", "A handle of the other kind: task-poll, task-join and task-cancel work on CPU tasks (defer-cpu), step-join on steps (step-spawn)."),
    STEP_CANCELLED("E-TASK-004", "A concurrent step was stopped because a sibling step failed (step-fail-siblings, as a µNorman workflow does): it ends at its next scheduling point with that failure, which a join of it answers. It stops the step, never the run."),
    TASK_IMPURE("E-TASK-003", "A CPU task did what only its run may do: say (a closure whose declared signature hides session.emit), or start or join a concurrent step; the task fails and its join reports it."),
    OUTPUT_CLOSED("E-OUTPUT-001", "An output handle was used after output-close (or after its run ended), or in a run that did not open it: handles are run-owned."),
    OUTPUT_REFUSED("E-OUTPUT-002", "The host does not take this kind of output event (its sink refuses say, open, replace, progress or close events): the word that would make it fails and nothing of it is recorded."),
    OUTPUT_PROGRESS("E-OUTPUT-003", "output-progress was given numbers out of range: it needs 0 <= done <= total and total >= 1."),
    OUTPUT_TOO_MANY("E-OUTPUT-004", "output-open would hold more output handles open at once than a run allows (1000); close some first."),
    SHOW_REFUSED("E-SHOW-001", "show was given a value with no written form (a function, a handle, authority) or a variant field named tag; or json-to-value was asked to read a type with no written form, or one not fixed where it is used."),
    JSON_UNREPRESENTABLE("E-JSON-001", "A value JSON cannot hold was made into json: json-of-float of nan or an infinity, or a string or object key with a lone surrogate (json-of-string, json-of-map)."),
    JSON_TOO_DEEP("E-JSON-002", "json-of-list or json-of-map would nest json deeper than json-parse accepts (512 levels).");

    private final String code;
    private final String meaning;

    VmCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.EXECUTE; }

    @Override public String meaning() { return meaning; }

    /**
     * True when this code is a checked run-time error — the program is wrong — and false for a resource limit
     * ({@code E-LIMIT-*}), a cancellation, a continuation resumed twice, an internal error or a function too large to
     * compile: what a test of "this program errs" must not mistake for the program's error.
     */
    public boolean programFault() {
        switch (this) {
            case STEP_LIMIT: case DEADLINE: case DEPTH_LIMIT: case OUTPUT_LIMIT: case MEMORY_LIMIT: case STRANDS_LIMIT: case EXECUTION_TIME:
            case CANCELLED: case ALREADY_RESUMED: case INTERNAL: case TOO_LARGE:
                return false;
            default:
                return true;
        }
    }

    private static final java.util.Map<String, VmCode> BY_CODE = java.util.Arrays.stream(values())
            .collect(java.util.stream.Collectors.toUnmodifiableMap(VmCode::code, c -> c));

    /** The VM code spelled {@code code} ({@code E-RUN-005}), if it is one of the VM's. */
    public static java.util.Optional<VmCode> of(String code) { return java.util.Optional.ofNullable(BY_CODE.get(code)); }
}
