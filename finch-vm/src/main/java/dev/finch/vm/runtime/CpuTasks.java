package dev.finch.vm.runtime;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.value.Meter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bounded local worker pool of CPU tasks ({@code defer-cpu}, Lisp {@code (defer :cpu (lambda () …))}), owned by
 * the {@code Vm}: at most {@link #workers()} tasks compute at once, in this JVM, for all runs together; the others
 * wait in a queue, in spawn order.
 *
 * <p>A task runs a pure closure (the verifier checked it: no inputs, one output, no capability, no {@code say}, no
 * yield) with a <em>private</em> child {@link Ctx} — its own fuel slice, frames and result registers — that shares the
 * run's step pool, memory limit, deadline and cancellation: its steps count against the run's limits as the run's
 * own do, and charging the shared pool is synchronized once per fuel slice. Its captures need no copying: every VM
 * value is immutable (strings, numbers, and the persistent lists, maps and records of {@code dev.finch.vm.value}),
 * so a task sees a snapshot by construction.
 *
 * <p>Lifecycle of one task: queued → running → done (a value), failed (its checked run-time error, reported when
 * the program joins or polls it; a failed task nobody joins does not fail the run) or cancelled. {@code task-cancel}
 * and the end of its run (completed, failed or cancelled — not paused) request cancellation; the worker stops at its
 * next fuel slice. A task joined while it is still queued is run by the joiner itself, so tasks that join tasks
 * never deadlock on the bounded pool (a task can only capture handles of tasks made before it).
 */
public final class CpuTasks implements AutoCloseable {
    /**
     * The contract's owner kind of a CPU task handle ("task&lt;T&gt; with an explicit cpu_fiber owner kind"): what its
     * display shows, beside steps' {@code step} and agent handles' {@code agent}.
     */
    public static final String OWNER_KIND = "cpu_fiber";
    /** Tasks computing in this JVM right now, all pools together (tests and monitoring). */
    private static final AtomicInteger RUNNING = new AtomicInteger();
    private static final Object[] NO_ARGS = new Object[0];

    private final int workers;
    /** Made when the first task is queued: a VM whose runs start no CPU task (most) loads no executor's classes. */
    private ThreadPoolExecutor pool;
    private boolean closed;

    /** A pool of {@code workers} threads (at least one); idle threads end after 30 s. */
    public CpuTasks(int workers) {
        if (workers < 1) throw new IllegalArgumentException("cpuWorkers must be at least 1, not " + workers);
        this.workers = workers;
    }

    /** The executor, made now if it was not yet; after {@link #close}, one that refuses every task, as a shut-down pool does. */
    private synchronized ThreadPoolExecutor pool() {
        if (pool == null) {
            pool = new ThreadPoolExecutor(workers, workers, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new RunThreads("finch-run-cpu-"));
            pool.allowCoreThreadTimeOut(true);
            if (closed) pool.shutdownNow();
        }
        return pool;
    }

    /** The most tasks that compute at once. */
    public int workers() { return workers; }

    /** How many CPU tasks are computing in this JVM right now. */
    public static int running() { return RUNNING.get(); }

    @Override public synchronized void close() {
        closed = true;
        if (pool != null) pool.shutdownNow();
    }

    private enum State { QUEUED, RUNNING, DONE, FAILED, CANCELLED }

    /** The CPU tasks of one run, shared by all its contexts; cancelled together when the run ends. */
    public static final class Run {
        private final CpuTasks pool;
        private final List<Task> tasks = new ArrayList<>();
        private long nextId = 1;

        public Run(CpuTasks pool) { this.pool = pool; }

        /** Requests cancellation of every task of the run that has not finished (the run ended). */
        public void cancelAll() {
            List<Task> all;
            synchronized (this) {
                if (tasks.isEmpty()) return;
                all = List.copyOf(tasks);
                tasks.clear();
            }
            for (Task t : all) t.cancel();
        }

        private synchronized long register(Task t) {
            tasks.removeIf(Task::finished);
            tasks.add(t);
            return nextId++;
        }

        /** Holds a restored task started again under the number it had (cancelled with the run like the others). */
        private synchronized void adopt(Task t) {
            tasks.removeIf(Task::finished);
            tasks.add(t);
        }

        /** The number the next task of the run gets (what a saved run keeps). */
        public synchronized long nextId() { return nextId; }

        /** Restores the numbering of a saved run's tasks. */
        public synchronized void restoreNextId(long next) { nextId = Math.max(1, next); }
    }

    /** One CPU task: its closure, private context and, once finished, its value or failure. */
    public static final class Task implements Awaitable {
        private final Object closure;
        private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
        private volatile Ctx ctx;
        private volatile boolean cancelRequested;
        private volatile Object value;
        private volatile FinchTrap failure;
        private volatile long id;

        private Task(Object closure) { this.closure = closure; }

        /** The task's number within its run (1, 2, … in spawn order); a restored task keeps the one it had. */
        @Override public long id() { return id; }

        /** Completes (normally) once the task has finished in any way; completing the copy changes nothing. */
        @Override public CompletableFuture<Void> whenDone() { return done.copy(); }

        /** True once it has a value, a failure or was cancelled. */
        public boolean finished() { return done.isDone(); }

        private void cancel() {
            cancelRequested = true;
            // One never started ends at once; a running one at its next fuel slice.
            if (state.compareAndSet(State.QUEUED, State.CANCELLED)) done.complete(null);
        }

        /** Throws at the worker's next VM boundary once cancellation was requested. */
        void checkCancelled() {
            if (cancelRequested) throw new FinchTrap(VmCode.TASK_CANCELLED, Origin.UNKNOWN, "the task was cancelled");
        }

        /**
         * What a saved continuation keeps of this task: a finished task's end, or — a pure closure being
         * deterministic — the closure of one still queued or computing, to start again when the restored run uses it.
         */
        public Saved saved() {
            if (cancelRequested && !finished()) return new Saved.Cancelled();
            return switch (state.get()) {
                case QUEUED, RUNNING -> new Saved.Restart(closure);
                case DONE -> new Saved.Done(value);
                case FAILED -> new Saved.Failed(failure.diagnostic());
                case CANCELLED -> new Saved.Cancelled();
            };
        }

        /**
         * A task of a restored run, as {@link #saved} kept it, with the number {@code id} it had; one to restart starts
         * when the run first uses it.
         */
        public static Task restored(Saved saved, long id) {
            Task t = new Task(saved instanceof Saved.Restart r ? r.closure() : null);
            t.id = id;
            if (saved instanceof Saved.Done d) t.finish(State.DONE, d.value(), null);
            else if (saved instanceof Saved.Failed f) t.finish(State.FAILED, null, new FinchTrap(codeOf(f.diagnostic().code()), f.diagnostic()));
            else if (saved instanceof Saved.Cancelled) t.finish(State.CANCELLED, null, null);
            return t;
        }

        /** A pure task fails only with the VM's own codes. */
        private static VmCode codeOf(String code) {
            for (VmCode c : VmCode.values()) if (c.code().equals(code)) return c;
            return VmCode.INTERNAL;
        }

        private void finish(State end, Object v, FinchTrap f) {
            started.set(true);
            value = v;
            failure = f;
            state.set(end);
            done.complete(null);
        }

        /** Shown in a handle's display, {@code #task<int><cpu_fiber#1>}: the contract's owner kind, then the task's number. */
        @Override public String toString() { return OWNER_KIND + "#" + id; }
    }

    /** The durable form of a task ({@link Task#saved}). */
    public sealed interface Saved {
        /** Still queued or computing: start the closure again. */
        record Restart(Object closure) implements Saved { }
        /** Done with a value. */
        record Done(Object value) implements Saved { }
        /** Failed with a checked run-time error. */
        record Failed(dev.finch.ir.diag.Diagnostic diagnostic) implements Saved { }
        /** Cancelled. */
        record Cancelled() implements Saved { }
    }

    // ---- the words ----------------------------------------------------------------------------------------------

    /** {@code defer-cpu}: queues {@code closure} on the run's pool and answers its handle. */
    public static Task spawn(Ctx ctx, Object closure, Origin origin) {
        Task t = new Task(closure);
        start(ctx, t, origin);
        return t;
    }

    /** Queues {@code t} on the pool of {@code ctx}'s run, once (a restored task, when its run first uses it). */
    private static void start(Ctx ctx, Task t, Origin origin) {
        // A restored task cancelled before it was used again never starts.
        if (t.finished() || !t.started.compareAndSet(false, true)) return;
        Run run = ctx.cpu;
        if (run == null) throw new FinchTrap(VmCode.INTERNAL, origin, "this run has no CPU worker pool");
        Ctx child = ctx.child();
        child.task = t;
        t.ctx = child;
        if (t.id == 0) t.id = run.register(t);
        else run.adopt(t);
        try {
            run.pool.pool().execute(() -> compute(t));
        } catch (RejectedExecutionException e) {
            t.cancel();
            throw new FinchTrap(VmCode.CANCELLED, origin, "the VM was closed; no CPU task can start");
        }
    }

    /** {@code task-poll}: the value if the task is done, else none; never waits. A failed task's error is raised. */
    public static dev.finch.vm.value.OptionValue poll(Ctx ctx, Object handle, Origin origin) {
        Task t = task(handle, "task-poll", origin);
        start(ctx, t, origin);
        if (!t.finished()) return dev.finch.vm.value.OptionValue.NONE;
        return dev.finch.vm.value.OptionValue.some(result(t, origin));
    }

    /** {@code task-cancel}: requests cancellation (a finished task is left as it is). */
    public static void cancel(Object handle, Origin origin) { task(handle, "task-cancel", origin).cancel(); }

    /**
     * {@code task-join}: the task's value. A finished task answers at once. Otherwise the run's root, at a resume
     * point, pauses (the VM reports a suspension waiting for the task); any other context — a concurrent step, a
     * task, a function value run by a word such as {@code list-map}, a run with live steps — waits in place, running
     * the task itself if no worker has started it yet.
     */
    public static Object join(Ctx ctx, Object handle, Origin origin) {
        Task t = task(handle, "task-join", origin);
        // A resume of a task wait re-executes this join: it is the innermost pausing operation.
        ctx.takeResume();
        start(ctx, t, origin);
        if (t.finished()) return result(t, origin);
        if (mayPause(ctx) && Strands.claimPause(ctx, origin)) {
            ctx.awaiting = t;
            ctx.suspending = true;
            return null;
        }
        compute(t);
        Strands.offBaton(() -> {
            await(ctx, t);
            return null;
        });
        return result(t, origin);
    }

    /**
     * Refuses, inside a CPU task, what only its run may do ({@code say}, steps): the verifier lets a closure with a
     * declared signature say without listing {@code session.emit}, so a task meets it only here.
     */
    public static void refuse(Ctx ctx, String what, Origin origin) {
        if (ctx.task == null) return;
        throw new FinchTrap(VmCode.TASK_IMPURE, origin, "a CPU task cannot " + what + ": it computes a value and nothing else; "
                + "do it in the run, before or after the task");
    }

    /** The handle as a CPU task, or E-TASK-002 for a step's handle. */
    static Task task(Object handle, String word, Origin origin) {
        if (handle instanceof Task t) return t;
        throw new FinchTrap(VmCode.TASK_KIND, origin, "`" + word + "` works on a CPU task (defer-cpu), but this handle is a step's "
                + "(step-spawn); join a step with step-join");
    }

    /**
     * Whether a join may pause the run as a scheduler suspension: at the run's root, outside any function value run
     * without a resume point, with no concurrent step alive. Otherwise it waits in place (off the baton).
     */
    static boolean mayPause(Ctx ctx) {
        return !ctx.isChild() && ctx.noPause == 0 && !Strands.stepsLive(ctx);
    }

    /** Waits until {@code t} has finished, giving up when the waiting context must stop. */
    private static void await(Ctx ctx, Task t) {
        while (!t.finished()) {
            FinchTrap stop = ctx.stopNow();
            if (stop != null) throw stop;
            if (ctx.task != null) ctx.task.checkCancelled();
            try {
                t.done.get(20, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // Check the stop conditions again, then keep waiting.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FinchTrap(VmCode.CANCELLED, Origin.UNKNOWN, "the run was interrupted while it waited for a CPU task");
            }
        }
    }

    /** A finished task's value, or its failure raised at the join. */
    private static Object result(Task t, Origin origin) {
        return switch (t.state.get()) {
            case DONE -> t.value;
            case FAILED -> throw t.failure;
            case CANCELLED -> throw new FinchTrap(VmCode.TASK_CANCELLED, origin, t + " was cancelled (task-cancel, or its run ended before it finished); "
                    + "it has no value");
            case QUEUED, RUNNING -> throw new FinchTrap(VmCode.INTERNAL, origin, t + " has not finished");
        };
    }

    /** Runs {@code t} on the calling thread if nobody has started it (a worker, or a joiner that would wait for it). */
    private static void compute(Task t) {
        if (!t.state.compareAndSet(State.QUEUED, State.RUNNING)) return;
        RUNNING.incrementAndGet();
        Meter previous = Meter.current();
        Meter.bind(t.ctx);
        State end = State.FAILED;
        try {
            t.checkCancelled();
            Object v = Calls.executeResumable(t.ctx, 0, t.closure, NO_ARGS);
            if (t.ctx.suspending) throw new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "a CPU task tried to pause");
            t.value = v;
            end = State.DONE;
        } catch (FinchTrap f) {
            t.failure = f;
            if (t.cancelRequested && f.code() == VmCode.TASK_CANCELLED) end = State.CANCELLED;
        } catch (StackOverflowError e) {
            t.failure = new FinchTrap(VmCode.DEPTH_LIMIT, Origin.UNKNOWN, "a CPU task's JVM stack overflowed");
        } catch (OutOfMemoryError e) {
            t.failure = new FinchTrap(VmCode.MEMORY_LIMIT, Origin.UNKNOWN, "a CPU task ran out of memory");
        } catch (RuntimeException | Error e) {
            t.failure = new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "a CPU task failed inside the VM: " + e);
        } finally {
            if (previous == Meter.NONE) Meter.unbind();
            else Meter.bind(previous);
            t.state.set(end);
            RUNNING.decrementAndGet();
            t.done.complete(null);
        }
    }

    /** The task a suspended run waits for, if it waits for one. */
    public static java.util.Optional<Awaitable> awaited(Ctx ctx) { return java.util.Optional.ofNullable(ctx.awaiting); }

    /**
     * Marks a restored run as paused at a task-join. Its task was saved as its closure and starts again only when the
     * join runs, so the wait reports a finished placeholder (task 0): a resume re-executes the join, which starts the
     * task and pauses anew until it is done.
     */
    public static void restoredWait(Ctx ctx) {
        Task placeholder = new Task(null);
        placeholder.finish(State.CANCELLED, null, null);
        ctx.awaiting = placeholder;
    }
}
