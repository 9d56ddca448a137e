package dev.finch.vm.engine;

import dev.finch.vm.TypedValue;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A paused run: the value it published ({@code yield}'s payload) and its saved continuation — the frames of every
 * active word, holding only typed values and resume-point numbers. Resume it once with {@link Vm#resume}; a second
 * resume of the same suspension is refused.
 */
public final class Suspension {
    private final String executionId;
    private final TypedValue payload;
    final Vm.Paused paused;
    private final AtomicBoolean consumed = new AtomicBoolean();

    Suspension(String executionId, TypedValue payload, Vm.Paused paused) {
        this.executionId = executionId;
        this.payload = payload;
        this.paused = paused;
    }

    public String executionId() { return executionId; }

    /** The paused run's context (what persistence saves of it). */
    public dev.finch.vm.runtime.Ctx context() { return paused.ctx(); }

    /** The verified module the run is a run of. */
    public dev.finch.ir.checked.Checked.CheckedModule module() { return paused.module(); }

    /** The functions of that module that run interpreted (part of a saved run's module digest). */
    public java.util.Set<String> interpreted() { return paused.interpreted(); }

    /** What the run published when it paused. */
    public TypedValue payload() { return payload; }

    /** The saved frames, outermost first ({@code word@point}), for inspection and tests. */
    public List<String> frames() {
        List<String> out = new java.util.ArrayList<>();
        paused.ctx().frames().descendingIterator().forEachRemaining(f -> out.add(f.word() + "@" + f.point()));
        return out;
    }

    /** The host request the run is paused at (missing grant, or a deferred result), if it is not a yield. */
    public java.util.Optional<dev.finch.vm.boundary.EffectRequest> pendingRequest() { return dev.finch.vm.boundary.RunHost.of(paused.ctx()).pending(); }

    /** Whether the pending request waits for approval or for a deferred result. */
    public java.util.Optional<dev.finch.vm.boundary.RunHost.Waiting> waiting() { return dev.finch.vm.boundary.RunHost.of(paused.ctx()).waiting(); }

    /**
     * The CPU task the run waits for, when it paused at {@code task-join} of an unfinished task (neither a yield nor a
     * host request): resume it — a plain resume, as after a {@code unit yield} — once {@link TaskWait#done()}
     * completes. Resumed earlier, it simply pauses again.
     */
    public java.util.Optional<TaskWait> awaitedTask() {
        return dev.finch.vm.runtime.CpuTasks.awaited(paused.ctx()).map(t -> new TaskWait(t.id(), t.whenDone()));
    }

    /** What a run paused at {@code task-join} waits for: the task's number in its run, and a future completed when it is done. */
    public record TaskWait(long task, java.util.concurrent.CompletableFuture<Void> done) {
        public TaskWait {
            java.util.Objects.requireNonNull(done, "done");
        }
    }

    /** The run's effect journal so far. */
    public dev.finch.vm.boundary.EffectJournal journal() { return dev.finch.vm.boundary.RunHost.of(paused.ctx()).journal(); }

    /** The grants the run holds now. */
    public dev.finch.capabilities.GrantSet grants() { return dev.finch.vm.boundary.RunHost.of(paused.ctx()).grants(); }

    /**
     * Why {@code response} (null: a plain resume) cannot continue this run, if it cannot; checked without consuming
     * anything (see {@code RunHost.refusal}).
     */
    public java.util.Optional<dev.finch.ir.diag.Diagnostic> refusal(dev.finch.vm.boundary.HostResponse response) {
        return dev.finch.vm.boundary.RunHost.of(paused.ctx()).refusal(response);
    }

    /**
     * The state of each fiber this paused run changed, as it was before the run: the committed state to save beside it
     * (the run's changes are committed only if it completes).
     */
    public java.util.function.Function<dev.finch.vm.value.Fiber, dev.finch.vm.value.Fiber.Snapshot> committedFibers() {
        return f -> {
            var before = paused.ctx().before(f);
            return before != null ? before : f.snapshot();
        };
    }

    /**
     * Gives up this suspension without resuming it (its execution was dropped): the CPU tasks its run started are asked
     * to stop (they would otherwise compute until its deadline), and what it did to fibers of its base state is undone.
     */
    public void abandon() {
        if (paused.ctx().cpu != null) paused.ctx().cpu.cancelAll();
        if (consume()) paused.ctx().rollbackFibers();
    }

    boolean consume() { return consumed.compareAndSet(false, true); }

    boolean isConsumed() { return consumed.get(); }
}
