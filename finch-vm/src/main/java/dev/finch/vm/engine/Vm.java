package dev.finch.vm.engine;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Row;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.BufferedSink;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.TypedValue;
import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.MethodTooLargeException;

/**
 * Compiles verified modules to JVM bytecode and runs them with limits. One {@code Vm} is shared by every session
 * of a {@code Finch}; it is thread-safe. Runs execute on the VM's own worker threads, whose large stacks make the
 * recursion-depth limit fire long before the JVM's stack would overflow; the calling thread waits at most until the
 * deadline. A run whose depth its own text bounds ({@link CallerThread#bounded}) runs on the calling thread instead,
 * without the hand-off; so does a recursion nothing of which is seen before it ends ({@link CallerThread#replayable}),
 * as deep as that thread surely holds, started again from the beginning on a worker only if it goes deeper. A run
 * never changes the {@link VmState} it started from.
 */
public final class Vm implements AutoCloseable {

    private final Workers workers = new Workers();

    /**
     * Every word the engine and the word libraries beside it declare (the libraries found as
     * {@link dev.finch.vm.word.WordLibrary} services): the vocabulary a frontend resolves names against and a verifier
     * checks calls with, without reaching into the engine's word package.
     */
    public static dev.finch.ir.vocab.Vocabulary vocabulary() {
        return dev.finch.vm.word.Library.core().vocabulary();
    }

    /**
     * The big-stack worker pool, made on its first task: a run bounded by its own text runs on the calling thread, so
     * a VM may never need one (and a fresh JVM's first submission then loads no executor's classes).
     */
    private static final class Workers {
        private ThreadPoolExecutor pool;
        private boolean shutDown;

        private synchronized ThreadPoolExecutor pool() {
            if (pool == null) {
                pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), new dev.finch.vm.runtime.RunThreads("finch-run-"));
                if (shutDown) pool.shutdownNow(); // refuses the task, as the pool of a closed VM does
            }
            return pool;
        }

        <T> Future<T> submit(java.util.concurrent.Callable<T> task) { return pool().submit(task); }

        synchronized void shutdownNow() {
            shutDown = true;
            if (pool != null) pool.shutdownNow();
        }
    }

    /*
     * The named classes below (Body, Definitions, Rollback) stand where lambdas would: they are made on
     * a fresh JVM's first submission, where linking each lambda costs about 0.7 ms.
     */

    /**
     * Runs {@code task} on one of the VM's big-stack worker threads and waits for it: frontends and the verifier
     * recurse over the program's nesting, so they get the same deep stack as runs, whatever thread the embedder
     * calls from. Runs inline when already on a worker.
     */
    public <T> T onWorker(java.util.function.Supplier<T> task) {
        if (Thread.currentThread().getName().startsWith("finch-run-")) return task.get();
        Future<T> f = workers.submit(task::get);
        handOffs.incrementAndGet();
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new IllegalStateException("interrupted while preparing a program", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A suspended run's live parts (kept in memory; see {@link Suspension}). */
    record Paused(Ctx ctx, ModuleCompiler.Main main, CheckedModule module, VmState base, Map<String, CompiledWord> words,
                  java.util.Set<String> interpreted, boolean onCaller) { }

    private final ModuleCompiler.Tiering tiering;
    /** The bounded worker pool of CPU tasks (defer-cpu), shared by every run of this VM. */
    private final dev.finch.vm.runtime.CpuTasks cpuTasks;

    public Vm() { this(ModuleCompiler.Tiering.AUTO); }

    /** A VM whose tier choice is forced (differential tests and benchmarks); embedders use {@link #Vm()}. */
    public Vm(ModuleCompiler.Tiering tiering) { this(tiering, Runtime.getRuntime().availableProcessors()); }

    /** A VM with {@code cpuWorkers} threads (at least one) for CPU tasks ({@code defer-cpu}). */
    public Vm(ModuleCompiler.Tiering tiering, int cpuWorkers) {
        this.tiering = tiering;
        this.cpuTasks = new dev.finch.vm.runtime.CpuTasks(cpuWorkers);
    }

    /** How many CPU tasks compute at once at most. */
    public int cpuWorkers() { return cpuTasks.workers(); }

    /**
     * Runs {@code module} (verified against {@code state.environment()}) on a snapshot of {@code state}.
     * {@code executionId} names the run in outcomes and suspensions.
     */
    public RunResult run(String executionId, CheckedModule module, VmState state, Limits limits, OutputSink sink, CancelToken cancel) {
        return run(executionId, module, state, limits, sink, cancel, HostConfig.NONE);
    }

    /** Runs with a host: its grants, bindings, mode and observers govern every effect (see {@link RunHost}). */
    public RunResult run(String executionId, CheckedModule module, VmState state, Limits limits, OutputSink sink, CancelToken cancel,
                         HostConfig host) {
        return start(executionId, prepare(module, state), state, limits, sink, cancel, host);
    }

    /**
     * What a program is told when one of its functions holds more calls and constants than a generated class can, even
     * alone (a submission's definitions are otherwise spread over as many classes as they need).
     */
    private static final String TOO_LARGE_AS_ONE_UNIT = "the program is too large to compile: one of its functions holds more calls and constants "
            + "than one compiled unit can; split that function";

    /**
     * A verified module compiled once against {@code state}'s dictionary, constants and library, to run any number of
     * times ({@link #run(String, Program, List, Limits, OutputSink, CancelToken, HostConfig)}) on stacks of the types it
     * was verified for: how {@code Session.call} runs the same call again without verifying or compiling it again. A
     * module that does not compile gives a program whose every run fails with that diagnostic.
     */
    public Program prepare(CheckedModule module, VmState state) {
        try {
            ModuleCompiler.Compiled compiled = ModuleCompiler.compile(module, state, tiering, state.library());
            // A bounded program runs on a calling thread with room or else on a worker: whether it could be replayed never matters.
            boolean bounded = CallerThread.bounded(module, state);
            return new Program(module, state, compiled, bounded, !bounded && CallerThread.replayable(module, state), null);
        } catch (CompiledWord.Unavailable e) {
            // A definition of a restored session that could not be rebuilt: the image's, reported as such.
            return new Program(module, state, null, false, false, new RunResult.Failed(List.of(e.diagnostic()), ""));
        } catch (MethodTooLargeException e) {
            // A JVM-internal method (the class initializer that holds the constants) names no function of the program.
            String what = e.getMethodName().startsWith("<") ? TOO_LARGE_AS_ONE_UNIT
                    : "function '" + e.getMethodName() + "' is too large to compile (" + e.getCodeSize() + " bytes of bytecode)";
            return new Program(module, state, null, false, false, new RunResult.Failed(List.of(VmCode.TOO_LARGE.at(module.main().origin(), what)), ""));
        } catch (ClassTooLargeException e) {
            return new Program(module, state, null, false, false, new RunResult.Failed(List.of(VmCode.TOO_LARGE.at(module.main().origin(),
                    TOO_LARGE_AS_ONE_UNIT)), ""));
        } catch (RuntimeException e) {
            // Finch's own fault: the cause goes to the host's log, never into the program's diagnostic.
            System.getLogger("dev.finch.vm").log(System.Logger.Level.ERROR, "compiling a program failed", e);
            return new Program(module, state, null, false, false, new RunResult.Failed(List.of(VmCode.INTERNAL.at(module.main().origin(),
                    "compilation failed (an internal error of Finch's; the host's log has the cause)")), ""));
        }
    }

    /**
     * A module compiled against one state ({@link #prepare}). It holds no run's state: each run gets its own context,
     * so one program may run again and again (one run at a time or several at once).
     */
    public static final class Program {
        private final CheckedModule module;
        private final VmState state;
        private final ModuleCompiler.Compiled compiled;
        /** Whether its text bounds its depth ({@link CallerThread#bounded}): it may run on a calling thread with room. */
        private final boolean bounded;
        /**
         * Whether nothing a run does can be seen before it ends ({@link CallerThread#replayable}): it may start on a
         * calling thread and start again on a worker if it goes deeper than that thread holds.
         */
        private final boolean replayable;
        private final RunResult.Failed failure;

        private Program(CheckedModule module, VmState state, ModuleCompiler.Compiled compiled, boolean bounded, boolean replayable,
                        RunResult.Failed failure) {
            this.module = module;
            this.state = state;
            this.compiled = compiled;
            this.bounded = bounded;
            this.replayable = replayable;
            this.failure = failure;
        }

        /** The verified module. */
        public CheckedModule module() { return module; }

        /** The state it was compiled against (its stack is not part of the program). */
        public VmState state() { return state; }
    }

    /**
     * Runs {@code program} on its state with {@code stack} as the stack — values of the types its module was verified
     * for — as {@link #run(String, CheckedModule, VmState, Limits, OutputSink, CancelToken, HostConfig)} would run the
     * module on that state: the same limits, host boundary and commit, without compiling it again.
     */
    public RunResult run(String executionId, Program program, List<TypedValue> stack, Limits limits, OutputSink sink, CancelToken cancel,
                         HostConfig host) {
        return start(executionId, program, program.state.withStack(stack), limits, sink, cancel, host);
    }

    /** Runs a prepared program on {@code state} (its own state, perhaps with another stack). */
    private RunResult start(String executionId, Program program, VmState state, Limits limits, OutputSink sink, CancelToken cancel,
                            HostConfig host) {
        if (program.failure != null) return program.failure;
        Ctx ctx = context(executionId, program, state, limits, sink, cancel, host);
        // An embedder's sink is its code, which may block: such a run goes to a worker, so the caller's wait is bounded.
        // Finch's own buffered sink hands the events to a delivery thread and never blocks: the run may stay here.
        boolean quiet = BufferedSink.neverBlocks(sink);
        if (quiet && CallerThread.canRun(program.bounded, state.stack())) return execute(executionId, paused(ctx, program, state, true), limits, cancel);
        if (!quiet || !program.replayable || !CallerThread.canRun(true, state.stack())) {
            return execute(executionId, paused(ctx, program, state, false), limits, cancel);
        }
        // It may recurse, but nothing it does can be seen until it ends (CallerThread.replayable): it runs here as deep
        // as this thread surely holds, and only a run that needs more starts again from the beginning on a worker.
        ctx.maxDepth = Math.min(ctx.maxDepth, CallerThread.REPLAYABLE_DEPTH);
        Paused here = paused(ctx, program, state, true);
        Throwable failure = onCaller(here);
        boolean deeper = failure instanceof StackOverflowError
                || failure instanceof FinchTrap t && t.code() == VmCode.DEPTH_LIMIT && ctx.maxDepth < limits.maxDepth();
        if (!deeper) return finish(executionId, here, failure);
        ctx.host.closeAll();
        ctx.closeOutputs();
        ctx.rollbackFibers();
        Ctx again = context(executionId, program, state, limits, sink, cancel, host);
        // The same run, started again: its deadline and total time count from the first start.
        again.continueFrom(ctx);
        return execute(executionId, paused(again, program, state, false), limits, cancel);
    }

    /** A new run context for {@code program} on {@code state}. */
    private Ctx context(String executionId, Program program, VmState state, Limits limits, OutputSink sink, CancelToken cancel, HostConfig host) {
        Map<String, Object> constants = state.constants().isEmpty() ? Map.of() : new LinkedHashMap<>();
        for (var c : state.constants().entrySet()) constants.put(c.getKey(), c.getValue().value());
        Ctx ctx = new Ctx(limits, sink, cancel, constants);
        ctx.host = new RunHost(executionId, host);
        ctx.cpu = new dev.finch.vm.runtime.CpuTasks.Run(cpuTasks);
        inspection(ctx, state, program.module);
        ctx.stackIn = state.values();
        return ctx;
    }

    private static Paused paused(Ctx ctx, Program program, VmState state, boolean onCaller) {
        return new Paused(ctx, program.compiled.main(), program.module, state, program.compiled.words(), program.compiled.interpreted(), onCaller);
    }

    /** Resumes a run suspended by {@code yield} once; {@code yield} returns unit to it. */
    public RunResult resume(Suspension suspension, Limits limits, OutputSink sink, CancelToken cancel) {
        var refused = suspension.refusal(null);
        if (refused.isPresent()) return new RunResult.Failed(List.of(refused.get()), "");
        return resumeConsumed(suspension, limits, sink, cancel);
    }

    /**
     * Answers the host request a run is paused at ({@code VmResume}): approval with a grant, a deferred result,
     * a denial or a cancellation. An answer {@link Suspension#refusal} refuses (another sequence, the wrong kind, a
     * result of the wrong type) consumes nothing: the run keeps waiting.
     */
    public RunResult resume(Suspension suspension, HostResponse response, Limits limits, OutputSink sink, CancelToken cancel) {
        var refused = suspension.refusal(response);
        if (refused.isPresent()) return new RunResult.Failed(List.of(refused.get()), "");
        if (!suspension.isConsumed()) dev.finch.vm.boundary.RunHost.of(suspension.paused.ctx()).answer(response);
        return resumeConsumed(suspension, limits, sink, cancel);
    }

    private RunResult resumeConsumed(Suspension suspension, Limits limits, OutputSink sink, CancelToken cancel) {
        if (!suspension.consume()) {
            return new RunResult.Failed(List.of(VmCode.ALREADY_RESUMED.at(Origin.UNKNOWN,
                    "execution " + suspension.executionId() + " was already resumed")), "");
        }
        Paused p = suspension.paused;
        p.ctx().renew(limits, sink, cancel);
        return execute(suspension.executionId(), p, limits, cancel);
    }

    private RunResult execute(String executionId, Paused p, Limits limits, CancelToken cancel) {
        Ctx ctx = p.ctx();
        Throwable failure;
        if (p.onCaller()) {
            failure = onCaller(p);
        } else {
            Future<Throwable> f = workers.submit(new Body(p));
            handOffs.incrementAndGet();
            try {
                long waitMs = limits.timeout().toMillis() + 1000;
                try {
                    failure = awaitOrCancel(f, waitMs, cancel);
                    if (failure == ABANDONED) {
                        // Cancelled while the run is held by code that does not look (an embedder's word, a sink): it
                        // is abandoned — its thread interrupted, its late answer discarded — and nothing is committed.
                        f.cancel(true);
                        ctx.host.closeAll();
                        ctx.rollbackFibers();
                        return new RunResult.Cancelled(VmCode.CANCELLED.at(Origin.UNKNOWN, "the run was cancelled"
                                + (cancel.reason() == null ? "" : ": " + cancel.reason())), ctx.publishedText().toString());
                    }
                } catch (TimeoutException e) {
                    // The run checks its deadline at every call, back-edge and charged step of work; one that has not
                    // noticed it yet (a long pause of the JVM) is expired: it stops as late, never as cancelled.
                    ctx.expire();
                    try {
                        failure = f.get(1000, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException again) {
                        f.cancel(true);
                        return new RunResult.Failed(List.of(VmCode.DEADLINE.at(Origin.UNKNOWN, "the run passed its deadline of "
                                + limits.timeout().toMillis() + " ms and did not stop; its thread was interrupted")), ctx.publishedText().toString());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel.cancel("the waiting thread was interrupted");
                return new RunResult.Cancelled(VmCode.CANCELLED.at(Origin.UNKNOWN, "the waiting thread was interrupted"), ctx.publishedText().toString());
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
        }
        return finish(executionId, p, failure);
    }

    /** Answered by {@link #awaitOrCancel} for a run that did not stop within {@link #CANCEL_GRACE_MS} of its cancellation. */
    private static final Throwable ABANDONED = new Throwable("abandoned", null, false, false) { };
    /** How long a cancelled run may take to notice it by itself (at its next check) before it is abandoned. */
    static final long CANCEL_GRACE_MS = 200;
    /** How often a waiting caller looks at its run's cancellation. */
    private static final long WAIT_SLICE_MS = 10;

    /**
     * Waits up to {@code waitMs} for the run, looking at {@code cancel} every {@link #WAIT_SLICE_MS}: answers what the
     * run threw (null when it did not fail), or {@link #ABANDONED} when it was cancelled and did not stop within
     * {@link #CANCEL_GRACE_MS}; {@link TimeoutException} when the wait is over.
     */
    private static Throwable awaitOrCancel(Future<Throwable> f, long waitMs, CancelToken cancel)
            throws InterruptedException, ExecutionException, TimeoutException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (true) {
            long left = until - System.nanoTime();
            if (left <= 0) throw new TimeoutException();
            try {
                return f.get(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, WAIT_SLICE_MS), TimeUnit.MILLISECONDS);
            } catch (TimeoutException slice) {
                if (cancel.isCancelled() && System.nanoTime() - cancel.cancelledAtNanos() > TimeUnit.MILLISECONDS.toNanos(CANCEL_GRACE_MS)) {
                    return ABANDONED;
                }
            }
        }
    }

    /** How many runs (and run continuations) were handed to a worker thread: what {@link CallerThread} saves. */
    public long handOffs() { return handOffs.get(); }

    private final java.util.concurrent.atomic.AtomicLong handOffs = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Runs {@code p} on the calling thread, without a hand-off (CallerThread): it checks its limits as a worker's run
     * does, and the thread's interrupt as a waiting thread's would be.
     */
    private static Throwable onCaller(Paused p) {
        p.ctx().runsOn(Thread.currentThread());
        try {
            return new Body(p).call();
        } finally {
            p.ctx().runsOn(null);
        }
    }

    /** What a run that ended, failed or paused with {@code failure} (null when it did not fail) answers. */
    private static RunResult finish(String executionId, Paused p, Throwable failure) {
        Ctx ctx = p.ctx();
        ctx.endStretch();
        if (failure != null) {
            ctx.host.closeAll();
            ctx.closeOutputs();
            // A failed or cancelled execution has consumed nothing: every fiber it touched is as it was.
            ctx.rollbackFibers();
            return failed(failure, ctx, p);
        }
        if (ctx.suspending && ctx.awaiting != null) {
            // Paused at task-join: no value was published; a plain resume once the task is done continues it.
            return new RunResult.Suspended(new Suspension(executionId, new TypedValue(Type.UNIT, dev.finch.vm.value.Unit.INSTANCE), p), ctx.text(), ctx.log());
        }
        if (ctx.suspending) {
            Type payloadType = p.module().main().signature().yields().map(Type.Yields::yielded).orElse(Type.UNIT);
            return new RunResult.Suspended(new Suspension(executionId, new TypedValue(payloadType, ctx.yielded), p), ctx.text(), ctx.log());
        }
        // What the run's states staged for its commit (memory writes), taken before they close.
        java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> staged = ctx.host.staged();
        ctx.host.closeAll();
        ctx.closeOutputs();
        VmState committed = commit(p, ctx);
        if (committed == null) {
            // A value the run left cannot be read (a defect): nothing is committed, so the session stays readable.
            ctx.rollbackFibers();
            return new RunResult.Failed(List.of(VmCode.INTERNAL.at(p.module().main().origin(),
                    "internal error: the run left a value that cannot be read; nothing was committed")), ctx.output(), ctx.log());
        }
        // Kept until the caller commits: a run it does not commit has consumed nothing.
        return new RunResult.Completed(committed, ctx.output(), new Rollback(ctx), ctx.log(), staged);
    }

    /** A run's root: main (or the steps it paused with), then every step it left; answers what it threw, or null. */
    private record Body(Paused p) implements java.util.concurrent.Callable<Throwable> {
        @Override
        public Throwable call() {
            Ctx ctx = p.ctx();
            dev.finch.vm.runtime.Strands.enter(ctx);
            boolean paused = false;
            try {
                // A resumed run first revives the steps that paused with it; a root that had finished main only drains.
                boolean draining = ctx.strands.resume();
                if (!draining) p.main().run(ctx);
                // Steps the program spawned and never joined still run to their end before the run does.
                if (!ctx.suspending) ctx.strands.drain();
                if (ctx.suspending) {
                    // The run pauses once every step has unwound too: no thread of it runs while it is suspended.
                    ctx.strands.settle();
                    paused = true;
                }
                return null;
            } catch (Throwable t) {
                return t;
            } finally {
                if (!paused) {
                    ctx.strands.shutdown();
                    // A run that ended (not paused) stops the CPU tasks it left running.
                    if (ctx.cpu != null) ctx.cpu.cancelAll();
                }
                dev.finch.vm.runtime.Strands.leave();
            }
        }
    }

    /** Undoes a completed run's fiber writes if its caller does not commit it. */
    private record Rollback(Ctx ctx) implements Runnable {
        @Override
        public void run() { ctx.rollbackFibers(); }
    }

    private static RunResult failed(Throwable t, Ctx ctx, Paused p) {
        if (t instanceof FinchTrap trap) {
            Diagnostic d = trap.diagnostic();
            if (d.origin().equals(Origin.UNKNOWN)) {
                // Limits are checked at calls and back-edges, which carry no origin: keep at least the source identity.
                d = new Diagnostic(d.phase(), d.code(), d.message(), Origin.of(p.module().source().source(), 0, 0), d.expected(), d.found());
            }
            if (trap.code() == VmCode.CANCELLED) return new RunResult.Cancelled(d, ctx.output(), ctx.log());
            return new RunResult.Failed(List.of(d), ctx.output(), ctx.log());
        }
        Origin o = p.module().main().origin();
        Diagnostic d;
        if (t instanceof StackOverflowError) {
            d = VmCode.DEPTH_LIMIT.at(o, "the JVM stack overflowed before the depth limit of " + ctx.maxDepth + "; lower maxDepth");
        } else if (t instanceof OutOfMemoryError) {
            d = VmCode.MEMORY_LIMIT.at(o, "the run ran out of memory");
        } else {
            d = VmCode.INTERNAL.at(o, "internal error: " + t);
        }
        return new RunResult.Failed(List.of(d), ctx.output(), ctx.log());
    }

    /** The state the run leaves, or null when a value it leaves cannot be read (none is ever committed). */
    private static VmState commit(Paused p, Ctx ctx) {
        VmState base = p.base();
        // The bottom the program left as it was — the same types (shared with the row it started from, found through
        // the trie nodes the rows share) holding the same values — keeps its entries: a deep stack is not walked value
        // by value. The types of the entries are, by construction, the rows' (each entry's type is the row's object).
        Row ins = Row.of(p.module().main().signature().ins());
        Row outs = Row.of(p.module().main().signature().outs());
        List<TypedValue> before = base.stack();
        Object[] in = ctx.stackIn;
        Object[] out = ctx.stackOut;
        int sameTypes = ins.size() == before.size() && in != null && in.length == before.size() ? Row.sharedPrefix(ins, outs) : 0;
        TypedValue[] stack = new TypedValue[outs.size()];
        int kept = 0;
        while (kept < sameTypes && out[kept] == in[kept]) {
            stack[kept] = before.get(kept);
            kept++;
        }
        java.util.Iterator<Type> types = outs.listIterator(kept);
        for (int i = kept; i < stack.length; i++) {
            if (out[i] == null) return null;
            stack[i] = new TypedValue(types.next(), out[i]);
        }
        Map<String, CompiledWord> words = base.words();
        if (!p.words().isEmpty()) {
            words = new LinkedHashMap<>(base.words());
            words.putAll(p.words());
        }
        Map<String, TypedValue> constants = base.constants();
        if (!p.module().newConstants().isEmpty()) {
            Map<String, TypedValue> changed = new LinkedHashMap<>(base.constants());
            for (var c : p.module().newConstants().entrySet()) {
                Object v = ctx.constants().get(c.getKey());
                if (v == null) return null;
                changed.put(c.getKey(), new TypedValue(c.getValue(), v));
            }
            constants = changed;
        }
        return base.successor(List.of(stack), out, outs, kept, words, constants);
    }

    /**
     * Compiles a module's definitions onto {@code state} without running anything: how a restored session rebuilds
     * its dictionary from the submissions that defined it.
     */
    public VmState compileOnly(CheckedModule module, VmState state) { return rebuild(module, state).state(); }

    /** A program compiled again without running: the state with its definitions, its words, and what remakes its values. */
    public record Rebuilt(VmState state, Map<String, CompiledWord> words, Remaker remaker) { }

    /**
     * As {@link #compileOnly}, also answering the words compiled and what remakes the program's closures and execution
     * tokens, so that values saved with the session (a closure on its stack) can be remade.
     */
    public Rebuilt rebuild(CheckedModule module, VmState state) {
        ModuleCompiler.Compiled compiled = ModuleCompiler.compile(module, state, tiering, state.library());
        Map<String, CompiledWord> words = new LinkedHashMap<>(state.words());
        words.putAll(compiled.words());
        return new Rebuilt(new VmState(state.library(), state.stack(), words, state.constants()), compiled.words(), compiled);
    }

    /**
     * A suspended run about to be rebuilt from its durable form, in any process (persistence reads the form into
     * {@link Restoring#context()}): {@code module} compiled again against the same {@code base} state (dictionary and
     * stack) it started from, and a fresh context holding {@code host}'s grants — a saved run's authority is what its new
     * host gives it. Nothing runs and nothing is dispatched until the suspension it makes is resumed.
     */
    public Restoring restoring(String executionId, CheckedModule module, VmState base, HostConfig host) {
        ModuleCompiler.Compiled compiled = ModuleCompiler.compile(module, base, tiering, base.library());
        Map<String, Object> constants = new LinkedHashMap<>();
        base.constants().forEach((n, v) -> constants.put(n, v.value()));
        Ctx ctx = new Ctx(Limits.DEFAULT, OutputSink.NONE, new CancelToken(), constants);
        ctx.host = new RunHost(executionId, host);
        ctx.cpu = new dev.finch.vm.runtime.CpuTasks.Run(cpuTasks);
        inspection(ctx, base, module);
        ctx.stackIn = base.values();
        return new Restoring(executionId, module, base, compiled, ctx);
    }

    /** A run being restored ({@link #restoring}): fill its context, then make it a suspension ({@link #suspended}). */
    public static final class Restoring {
        private final String executionId;
        private final CheckedModule module;
        private final VmState base;
        private final ModuleCompiler.Compiled compiled;
        private final Ctx ctx;

        private Restoring(String executionId, CheckedModule module, VmState base, ModuleCompiler.Compiled compiled, Ctx ctx) {
            this.executionId = executionId;
            this.module = module;
            this.base = base;
            this.compiled = compiled;
            this.ctx = ctx;
        }

        /** The run's context, for the saved state (steps, grants' journal, output, constants) to be read into. */
        public Ctx context() { return ctx; }

        /** The functions the module runs interpreted (part of a saved run's module digest). */
        public java.util.Set<String> interpreted() { return compiled.interpreted(); }

        /** What remakes the module's closures and execution tokens in the tier each was compiled to. */
        public Remaker remaker() { return compiled; }

        /**
         * The suspension, once the context holds everything else saved: the paused frames ({@code framesOutermostFirst})
         * and the value the run published when it paused ({@code payload}, null for none).
         */
        public Suspension suspended(List<dev.finch.vm.value.Frame> framesOutermostFirst, TypedValue payload) {
            ctx.suspending = true;
            for (int i = framesOutermostFirst.size() - 1; i >= 0; i--) ctx.pushFrame(framesOutermostFirst.get(i));
            Paused p = new Paused(ctx, compiled.main(), module, base, compiled.words(), compiled.interpreted(), false);
            return new Suspension(executionId, payload == null ? new TypedValue(Type.UNIT, dev.finch.vm.value.Unit.INSTANCE) : payload, p);
        }
    }

    /** What {@code vm-vocabulary} answers in a run of {@code module} on {@code state}: its vocabulary and definitions. */
    private static void inspection(Ctx ctx, VmState state, CheckedModule module) {
        // Spelled only if the program asks (vm-vocabulary): most runs never do, and a big dictionary is many signatures.
        ctx.definitions = new Definitions(state, module);
        ctx.vocabulary = state.library().vocabulary();
    }

    /** The signatures of the words a run sees: its state's, then its module's. */
    private record Definitions(VmState state, CheckedModule module) implements java.util.function.Supplier<Map<String, String>> {
        @Override
        public Map<String, String> get() {
            Map<String, String> defs = new java.util.TreeMap<>();
            for (var w : state.words().entrySet()) defs.put(w.getKey(), w.getValue().signature().toString());
            for (var w : module.words()) defs.put(w.name(), w.signature().toString());
            return defs;
        }
    }

    @Override public void close() {
        workers.shutdownNow();
        cpuTasks.close();
    }
}
