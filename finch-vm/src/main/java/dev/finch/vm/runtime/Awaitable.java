package dev.finch.vm.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * Work a run may pause for as a scheduler suspension (contract: "task-join … preserves the parent continuation as a
 * scheduler suspension"): a CPU task at {@code task-join}, a child agent at {@code agent-await}. The suspended outcome
 * reports its number and a future completed when it is done; a plain resume then re-executes the joining word.
 */
public interface Awaitable {
    /** Its number within the run or scheduler (CPU tasks 1, 2, …; a child agent its task number). */
    long id();

    /** Completes (normally) once the work has ended in any way; completing the copy changes nothing. */
    CompletableFuture<Void> whenDone();

    /**
     * Pauses {@code ctx}'s run until {@code work} is done when the run may pause here (its root, at a resume point, with
     * no concurrent step alive), and answers true: the caller returns at once (the run unwinds). Otherwise waits in place
     * — off the baton, giving up when the run must stop — and answers false once {@code work} is done.
     */
    static boolean pauseOrWait(Ctx ctx, Awaitable work, dev.finch.ir.diag.Origin origin) {
        if (work.whenDone().isDone()) return false;
        if (CpuTasks.mayPause(ctx) && Strands.claimPause(ctx, origin)) {
            ctx.awaiting = work;
            ctx.suspending = true;
            return true;
        }
        Strands.offBaton(() -> {
            while (!work.whenDone().isDone()) {
                FinchTrap stop = ctx.stopNow();
                if (stop != null) throw stop;
                try {
                    work.whenDone().get(20, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    // Check the stop conditions again, then keep waiting.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FinchTrap(dev.finch.vm.engine.VmCode.CANCELLED, origin, "the run was interrupted while it waited");
                }
            }
            return null;
        });
        return false;
    }
}
