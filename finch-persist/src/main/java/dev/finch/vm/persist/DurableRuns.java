package dev.finch.vm.persist;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.engine.Suspension;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.CpuTasks;

/**
 * A suspended run's durable form: saved in one process, restored in any other that has the same programs. The engine
 * makes the run to restore ({@link Vm#restoring}); the form itself is {@link Continuations}'.
 */
public final class DurableRuns {
    private DurableRuns() { }

    /**
     * The durable form of a suspended run, to resume in another process, with every concurrent step that paused with
     * it; a CPU task is kept as its end, or as its closure to start again. The run may hold closures and execution
     * tokens made by the programs of {@code earlier} (a session's earlier submissions); restore it with the same
     * programs. Refused ({@link ValueCodec.NotDurable}) for a run holding a value that lives only in this process (a
     * function made outside any of these programs, a step holding its host's per-step state).
     */
    public static String save(Suspension suspension, Programs earlier) {
        CheckedModule module = suspension.module();
        Type yielded = module.main().signature().yields().map(Type.Yields::yielded).orElse(Type.UNIT);
        earlier.add(new Programs.Known(Programs.RUN, module, null));
        return Continuations.save(suspension.executionId(), Continuations.moduleDigest(module, suspension.interpreted()), suspension.context(),
                yielded, earlier, module.main().signature().outs(), module.newConstants());
    }

    /**
     * Rebuilds a suspended run saved by {@link #save} in any process, from the same verified module and the same base
     * state (dictionary and stack) it started from, and the {@code earlier} programs it was saved with. Nothing runs and
     * nothing is dispatched until it is resumed. The run holds {@code host}'s grants: those saved with it (approvals for
     * this run only) are not trusted.
     */
    public static Suspension restore(Vm vm, String executionId, CheckedModule module, VmState base, HostConfig host, String saved, Programs earlier) {
        Vm.Restoring run = vm.restoring(executionId, module, base, host);
        earlier.add(new Programs.Known(Programs.RUN, module, run.remaker()));
        Ctx ctx = run.context();
        // The run's steps are rebuilt on ctx as the continuation is read (they share its host and definitions).
        Continuations.Restored r = Continuations.restore(saved, executionId, Continuations.moduleDigest(module, run.interpreted()),
                earlier, ctx, module.main().signature().outs(), module.newConstants());
        // The restoring host's grants, never the image's.
        RunHost.of(ctx).restore(host.grants(), r.sequence(), r.journal(), r.pending(), r.waiting());
        ctx.constants().putAll(r.constants());
        ctx.restoreOutput(r.output(), r.outputRecord(), r.outputBytes());
        ctx.restoreExecuted(r.executedNanos());
        ctx.yielded = r.yielded();
        if (r.awaitingTask()) CpuTasks.restoredWait(ctx);
        return run.suspended(r.framesOutermostFirst(), r.yieldedType() == null ? null : new TypedValue(r.yieldedType(), r.yielded()));
    }
}
