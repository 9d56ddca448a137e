package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.CpuTasks;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * CPU tasks (the contract's {@code defer :cpu}): a pure closure computed on the VM's bounded worker pool beside the
 * run ({@link CpuTasks}). Owner kind {@code cpu_fiber}: these words refuse agent-task handles at verify time
 * ({@code E-VERIFY-033}) and step handles at run time ({@code E-TASK-002}).
 */
public final class Tasks {
    private Tasks() { }

    @Word(name = "defer-cpu", category = Category.CONTROL, typing = Typing.DEFER_CPU,
            doc = "Start a pure closure (no capability, say or yield) as a CPU task on the worker pool; "
                    + "answers its handle (owner kind cpu_fiber). Its steps and memory count against the run's limits; cancelled when the run ends.")
    @Overload(sig = "( -> a) -> task<a>")
    public static Object deferCpu(Ctx ctx, Object closure, Origin o) { return CpuTasks.spawn(ctx, closure, o); }

    @Word(name = "task-poll", category = Category.CONTROL,
            doc = "The handle back and the task's value if it is done (none while it runs); never waits. A failed task's error stops the run here.")
    @Overload(sig = "task<a> -> record{task:task<a>,value:option<a>}")
    public static Object taskPoll(Ctx ctx, Object task, Origin o) {
        // Fields in name order: task, value.
        return new RecordValue(new Object[] {task, CpuTasks.poll(ctx, task, o)});
    }

    @Word(name = "task-join", category = Category.CONTROL, pauses = true,
            doc = "The task's value. If it is still running the run pauses (not a blocked thread) "
                    + "and continues when it is done; a failed task's error stops the run, a cancelled one is E-TASK-001.")
    @Overload(sig = "task<a> -> a")
    public static Object taskJoin(Ctx ctx, Object task, Origin o) { return CpuTasks.join(ctx, task, o); }

    @Word(name = "task-cancel", category = Category.CONTROL,
            doc = "Consume the handle and ask the task to stop at its next VM boundary (a finished task keeps its value); a later join of a copy of the handle of a task it stopped is E-TASK-001.")
    @Overload(sig = "task<a> ->")
    public static void taskCancel(Object task, Origin o) { CpuTasks.cancel(task, o); }
}
