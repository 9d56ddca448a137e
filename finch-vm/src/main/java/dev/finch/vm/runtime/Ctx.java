package dev.finch.vm.runtime;

import dev.finch.vm.value.Frame;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.Output;
import dev.finch.vm.OutputEvent;
import dev.finch.vm.OutputLog;
import dev.finch.vm.OutputRecorder;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.value.Meter;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The run context every generated method receives: fuel, limits, output, result registers for words with several
 * outputs, and the suspension protocol (frames pushed innermost first while unwinding, popped outermost first on
 * resume). Confined to the thread that holds the run's baton: a run's concurrent steps ({@link Strands}) each get
 * a child context (their own fuel slice, registers and frames) that shares the run's step pool, output, limits,
 * deadline, cancellation, constants and host with the root.
 *
 * <p>A context is the {@link Meter} of its run: words and value operations charge it for the elements they touch
 * ({@link #charge}), and it bounds the logical size of the values they build ({@link #maxBytes}).
 *
 * <p>Why a run stops is decided in one place ({@link #stopped}): a deadline that passed before any cancellation is
 * {@code E-LIMIT-002} (or {@code E-LIMIT-007} when it is the execution's total time that ran out), however late the
 * run notices it — a waiter that gives up on a run stuck past its deadline {@link #expire expires} it rather than
 * cancelling it — and a cancellation that came first is {@code E-RUN-001}.
 */
public final class Ctx implements Meter {
    /** Steps handed out per slice; the deadline and cancellation are checked once per slice. */
    static final long SLICE = 1 << 14;

    /** Fuel left in the current slice; generated code decrements it at calls and back-edges. */
    public long fuel;
    /** Maximum call depth. */
    public int maxDepth;
    /** Set by a suspending operation; every caller spills its frame and returns. */
    public boolean suspending;
    /** Set when re-entering a suspended run; every method pops its frame and jumps to its resume point. */
    public boolean resuming;
    /**
     * Set when this context unwound for a pause another strand of the run owns (or from a join): on resume its
     * innermost operation re-executes afresh instead of taking a resume value (see {@link Strands}).
     */
    boolean retrying;

    /**
     * The one result of a word whose fuel is threaded through its calls (its body returns the fuel left, so its
     * result travels here): an int or bool, a float, or a reference.
     */
    public long resultJ;
    public double resultD;
    public Object resultA;

    /** Result registers for words with several outputs, indexed by output position. */
    private long[] rl;
    private double[] rd;
    private Object[] ro;

    /** The int/bool result registers, made on first use (most runs call no word with several outputs). */
    public long[] rl() {
        long[] r = rl;
        return r != null ? r : (rl = new long[REGISTERS]);
    }

    /** The float result registers, made on first use. */
    public double[] rd() {
        double[] r = rd;
        return r != null ? r : (rd = new double[REGISTERS]);
    }

    /** The reference result registers, made on first use. */
    public Object[] ro() {
        Object[] r = ro;
        return r != null ? r : (ro = new Object[REGISTERS]);
    }

    /** Result registers of each kind: the most outputs a word may have. */
    private static final int REGISTERS = 256;

    /** Top-level stack in (boxed, bottom to top) and out. */
    public Object[] stackIn;
    public Object[] stackOut;

    final ArrayDeque<Frame> frames = new ArrayDeque<>();
    final Map<String, Object> constants;
    /** The output up to the last flush (published for a waiter that gives up on a stuck run). */
    private volatile Output output = Output.EMPTY;
    /** say text since the last flush, joined into one chunk when flushed (at a pause, the end, or every 64 KiB). */
    private final StringBuilder pending = new StringBuilder();
    private long outputBytes;
    /** The record of the run's events and its open output handles (the root's; a child's is unused). */
    private final OutputRecorder recorder = new OutputRecorder();
    /** Running time of this execution before the current stretch (its earlier runs), in nanoseconds. */
    private long executedNanos;
    /** When the current stretch of running started ({@link System#nanoTime()}). */
    private long stretchStart;
    /** Whether the deadline of this stretch is the execution's total time limit rather than the run's timeout. */
    private boolean deadlineIsExecutionLimit;
    /** Set by a waiter that gave up on this run after its deadline: it stops as past its deadline. */
    private volatile boolean expired;
    private long stepsLeft;
    private long deadlineNanos;
    /**
     * The embedder's thread this run runs on instead of a worker ({@link dev.finch.vm.engine.CallerThread}), or null: the run
     * checks its interrupt once per slice.
     */
    private Thread caller;
    private Limits limits;
    private OutputSink sink;
    private CancelToken cancel;
    /** The value published by the last yield. */
    public Object yielded;
    /** How many fiber bodies run on this context now: a yield then belongs to the innermost ({@link Fibers}). */
    public int fiberDepth;
    /** Set by a yield to the innermost running fiber (not a pause of the run). */
    public boolean fiberYield;
    /** Each fiber this execution changed, as it was before (undone when the execution fails); the root's. */
    private java.util.IdentityHashMap<dev.finch.vm.value.Fiber, dev.finch.vm.value.Fiber.Snapshot> fiberUndo;
    /** The dictionary's definitions visible to the run (name → signature), for vm-vocabulary. */
    public java.util.function.Supplier<java.util.Map<String, String>> definitions = new NoDefinitions();

    /** No definitions: what a run sees until the VM gives it its own. A class, not a method reference: every run makes one. */
    private static final class NoDefinitions implements java.util.function.Supplier<java.util.Map<String, String>> {
        @Override
        public java.util.Map<String, String> get() { return java.util.Map.of(); }
    }
    /** The vocabulary the run was verified against (vm-vocabulary answers it). */
    public dev.finch.ir.vocab.Vocabulary vocabulary = dev.finch.ir.vocab.Vocabulary.EMPTY;
    /** The run's host boundary (grants, journal, bindings, streams). */
    public Boundary host;
    /** The run's scheduler of concurrent steps, shared by the root and every child context. */
    public final Strands strands;
    /** The run's root context; this one for the root itself. */
    private final Ctx root;
    /** The run's CPU tasks (defer-cpu), shared by the root and every child context; null when the VM has no pool. */
    public CpuTasks.Run cpu;
    /** The CPU task this context computes (a task's private context), else null. */
    CpuTasks.Task task;
    /** The task a suspended run waits for (task-join of an unfinished CPU task, agent-await of a running child), else null. */
    public Awaitable awaiting;
    /** How many function values this context runs where it cannot resume ({@link Calls#execute}): a join waits in place. */
    int noPause;

    public Ctx(Limits limits, OutputSink sink, CancelToken cancel, Map<String, Object> constants) {
        this.limits = limits;
        this.maxDepth = limits.maxDepth();
        this.sink = sink;
        this.cancel = cancel;
        this.constants = new HashMap<>(constants);
        this.stepsLeft = limits.maxSteps();
        startStretch();
        this.fuel = 0;
        this.root = this;
        this.strands = new Strands(this);
    }

    /** A child context for one concurrent step of this run (see {@link Strands}). */
    private Ctx(Ctx parent) {
        this.root = parent.root;
        this.limits = root.limits;
        this.maxDepth = root.maxDepth;
        this.sink = root.sink;
        this.cancel = root.cancel;
        this.constants = root.constants;
        this.deadlineNanos = root.deadlineNanos;
        this.deadlineIsExecutionLimit = root.deadlineIsExecutionLimit;
        this.definitions = root.definitions;
        this.vocabulary = root.vocabulary;
        this.host = root.host;
        this.strands = root.strands;
        this.cpu = root.cpu;
        this.fuel = 0;
    }

    Ctx child() { return new Ctx(this); }

    /** Prepares a paused step's context to resume with the run: the root's new limits, sink and cancellation. */
    void renewChild() {
        this.limits = root.limits;
        this.maxDepth = root.maxDepth;
        this.sink = root.sink;
        this.cancel = root.cancel;
        this.deadlineNanos = root.deadlineNanos;
        this.deadlineIsExecutionLimit = root.deadlineIsExecutionLimit;
        this.fuel = 0;
        this.suspending = false;
        this.resuming = true;
    }

    /** Marks this (root) context's run as running on the embedder's thread {@code t}, or on a worker when null. */
    public void runsOn(Thread t) { root.caller = t; }

    /** True for a concurrent step's context. */
    public boolean isChild() { return root != this; }

    /** Remembers {@code f} as it is now, the first time this execution changes it. */
    public void touch(dev.finch.vm.value.Fiber f) {
        if (root.fiberUndo == null) root.fiberUndo = new java.util.IdentityHashMap<>();
        root.fiberUndo.putIfAbsent(f, f.snapshot());
    }

    /** The execution failed or was cancelled: every fiber it changed is as it was before it ran. */
    public void rollbackFibers() {
        if (root.fiberUndo == null) return;
        root.fiberUndo.forEach(dev.finch.vm.value.Fiber::restore);
        root.fiberUndo.clear();
    }

    /** Each fiber this execution changed, with how it was before (what a saved run keeps to undo them). */
    public java.util.Map<dev.finch.vm.value.Fiber, dev.finch.vm.value.Fiber.Snapshot> touched() {
        return root.fiberUndo == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(root.fiberUndo);
    }

    /** Restores that a saved run had changed fiber {@code f}, which was {@code before} (undone if the run fails). */
    public void touched(dev.finch.vm.value.Fiber f, dev.finch.vm.value.Fiber.Snapshot before) {
        if (root.fiberUndo == null) root.fiberUndo = new java.util.IdentityHashMap<>();
        root.fiberUndo.putIfAbsent(f, before);
    }

    /** How fiber {@code f} was before this execution changed it (null when it has not). */
    public dev.finch.vm.value.Fiber.Snapshot before(dev.finch.vm.value.Fiber f) { return root.fiberUndo == null ? null : root.fiberUndo.get(f); }

    /** Prepares a suspended run's context to resume under new limits, sink and cancellation. */
    public synchronized void renew(Limits limits, OutputSink sink, CancelToken cancel) {
        this.limits = limits;
        this.maxDepth = limits.maxDepth();
        this.sink = sink;
        this.cancel = cancel;
        this.stepsLeft = limits.maxSteps();
        this.expired = false;
        startStretch();
        this.fuel = 0;
        this.suspending = false;
        this.resuming = true;
        this.yielded = null;
        this.awaiting = null;
    }

    /** Called when a slice of fuel is used up: charges it, checks the step limit, the deadline and cancellation. */
    public void refuel() {
        strands.checkAbort();
        Strands.stopIfCancelled();
        if (task != null) task.checkCancelled();
        fuel = root.slice();
    }

    /**
     * Starts a stretch of running (a run or a resume): its deadline is its timeout from now, or what is left of the
     * execution's total time when that comes first.
     */
    private void startStretch() {
        stretchStart = System.nanoTime();
        long left = Math.max(0, nanos(limits.maxExecutionTime()) - executedNanos);
        long timeout = nanos(limits.timeout());
        deadlineIsExecutionLimit = left < timeout;
        deadlineNanos = stretchStart + Math.min(timeout, left);
    }

    /**
     * Makes this new context the same run as {@code first}, started again from the beginning (a run abandoned on the
     * calling thread, run again on a worker): its deadline and its total running time count from {@code first}'s start.
     */
    public void continueFrom(Ctx first) {
        stretchStart = first.stretchStart;
        executedNanos = first.executedNanos;
        deadlineNanos = first.deadlineNanos;
        deadlineIsExecutionLimit = first.deadlineIsExecutionLimit;
    }

    /** A duration in nanoseconds, at most about 70 years (so adding it to a nano time cannot overflow). */
    private static long nanos(java.time.Duration d) {
        // Compared by seconds: every run starts a stretch, and a Duration to compare with would be made each time.
        if (d.getSeconds() >= NANOS_CAP / 1_000_000_000L) return NANOS_CAP;
        return Math.max(0, d.toNanos());
    }

    /** The longest duration a deadline counts, in nanoseconds (about 73 years). */
    private static final long NANOS_CAP = Long.MAX_VALUE / 4;

    /** Ends the current stretch (the run paused or finished): its running time counts toward the execution's total. */
    public void endStretch() {
        if (root != this) return;
        executedNanos += Math.max(0, System.nanoTime() - stretchStart);
        stretchStart = System.nanoTime();
    }

    /** The execution's running time so far, over all its stretches (what a saved continuation carries). */
    public long executedNanos() { return executedNanos; }

    /** Restores the running time of an execution saved in another process. */
    public void restoreExecuted(long nanos) { executedNanos = Math.max(0, nanos); }

    /** Stops the run as past its deadline at its next check (a waiter gave up on it: it is late, not cancelled). */
    public void expire() { root.expired = true; }

    /**
     * The trap of a run that must stop — past its deadline or cancelled, whichever came first — or null while it
     * may go on.
     */
    FinchTrap stopped() {
        long now = System.nanoTime();
        boolean late = now - deadlineNanos > 0 || root.expired;
        if (cancel.isCancelled() && !(late && cancel.cancelledAtNanos() - deadlineNanos > 0)) {
            return new FinchTrap(VmCode.CANCELLED, Origin.UNKNOWN, "the run was cancelled" + (cancel.reason() == null ? "" : ": " + cancel.reason()));
        }
        if (!late) return null;
        if (deadlineIsExecutionLimit) {
            return new FinchTrap(VmCode.EXECUTION_TIME, Origin.UNKNOWN, "the execution ran longer than its total time limit of "
                    + limits.maxExecutionTime().toMillis() + " ms (summed over its start and its resumes)");
        }
        return new FinchTrap(VmCode.DEADLINE, Origin.UNKNOWN, "the run passed its deadline of " + limits.timeout().toMillis() + " ms");
    }

    /**
     * Charges one slice of the run's step pool, checking the limits first. Synchronized: the baton holder and the
     * run's CPU tasks charge the one pool concurrently (once per slice each).
     */
    private synchronized long slice() {
        // On the embedder's thread, its interrupt cancels the run, as it cancels one a worker runs while it waits.
        if (caller != null && caller.isInterrupted() && !cancel.isCancelled()) cancel.cancel("the waiting thread was interrupted");
        FinchTrap stop = stopped();
        if (stop != null) throw stop;
        if (stepsLeft <= 0) throw new FinchTrap(VmCode.STEP_LIMIT, Origin.UNKNOWN, "the run used more than " + limits.maxSteps() + " steps");
        long slice = Math.min(SLICE, stepsLeft);
        stepsLeft -= slice;
        return slice - 1;
    }

    /**
     * Charges {@code steps} more steps at once, for a word whose work grows with its input (sorting, building a
     * range, repeating a string): the step limit holds for one call as for many.
     */
    public void charge(long steps) {
        long debt = steps;
        while (debt > fuel) {
            // Use up this slice, then take the next from the run's pool (refuel throws when it is empty).
            debt -= Math.max(fuel, 0);
            fuel = 0;
            refuel();
        }
        fuel -= debt;
    }

    // ---- Meter ----

    /** The run's memory limit: the largest logical size of a value it may build. */
    @Override public long maxBytes() { return limits.maxMemoryBytes(); }

    @Override public RuntimeException overLimit(String message) { return new FinchTrap(VmCode.MEMORY_LIMIT, Origin.UNKNOWN, message); }

    /** Steps used so far. */
    public long stepsUsed() { return limits.maxSteps() - stepsLeft - Math.max(fuel, 0); }

    public void pushFrame(Frame f) { frames.addLast(f); }

    /** Pops the outermost remaining frame while resuming. */
    public Frame popFrame() { return frames.pollLast(); }

    /**
     * Called by the innermost suspending operation: true (and the resume is finished) when this call is the one
     * being resumed, so it returns its resume value instead of suspending again.
     */
    public boolean takeResumePeek() { return resuming && !retrying; }

    public boolean takeResume() {
        if (!resuming) return false;
        resuming = false;
        if (retrying) {
            // This call stood in for one that never paused itself: it runs afresh.
            retrying = false;
            return false;
        }
        return true;
    }

    /**
     * Appends say output, streaming it to the sink as a {@link OutputEvent.Say}, within the output limit; refused
     * ({@code E-OUTPUT-002}) when the sink does not take say events. An empty text is no event.
     */
    public void say(String text, Origin origin) {
        if (task != null) CpuTasks.refuse(this, "say", origin);
        if (root != this) {
            root.say(text, origin);
            return;
        }
        if (text.isEmpty()) return;
        refuseUnaccepted(OutputEvent.Kind.SAY, "say", origin);
        long bytes = dev.finch.vm.value.Sizes.utf8(text);
        if (outputBytes + bytes > limits.maxOutputBytes()) {
            throw new FinchTrap(VmCode.OUTPUT_LIMIT, origin, "say output would exceed the limit of " + limits.maxOutputBytes() + " bytes");
        }
        outputBytes += bytes;
        pending.append(text);
        recorder.said();
        if (pending.length() >= FLUSH_CHARS) flush();
        sink.event(new OutputEvent.Say(text));
    }

    /** The word fails ({@code E-OUTPUT-002}) when the run's sink does not take events of {@code kind}. */
    private void refuseUnaccepted(OutputEvent.Kind kind, String word, Origin origin) {
        if (!sink.accepts(kind)) {
            throw new FinchTrap(VmCode.OUTPUT_REFUSED, origin, "the host does not take " + kind.spelling() + " events, so `" + word + "` cannot run here");
        }
    }

    /**
     * Records and streams an output-handle event (not a say), within the output limit (its cost in the record:
     * {@link OutputRecorder#cost}); refused ({@code E-OUTPUT-002}) when the sink does not take its kind.
     */
    public void emit(OutputEvent e, String word, Origin origin) {
        if (task != null) CpuTasks.refuse(this, word, origin);
        if (root != this) {
            root.emit(e, word, origin);
            return;
        }
        refuseUnaccepted(e.kind(), word, origin);
        long cost = recorder.cost(e);
        if (outputBytes + cost > limits.maxOutputBytes()) {
            throw new FinchTrap(VmCode.OUTPUT_LIMIT, origin, "say output and output events would exceed the limit of " + limits.maxOutputBytes() + " bytes");
        }
        outputBytes += cost;
        recorder.record(e, outputLength());
        sink.event(e);
    }

    /** The run's output handles and the record of its events (the root's). */
    public OutputRecorder outputs() { return root.recorder; }

    /**
     * Closes every output handle the run still holds, in opening order, each with a {@link OutputEvent.Close} (at the
     * end of the run: a host's display of it is finished). Not charged to the output limit (at most
     * {@link OutputRecorder#MAX_OPEN} events).
     */
    public void closeOutputs() {
        for (long id : recorder.openHandles()) {
            OutputEvent.Close c = new OutputEvent.Close(id);
            recorder.close(id);
            recorder.record(c, outputLength());
            try {
                sink.event(c);
            } catch (RuntimeException ignored) {
                // The run has ended; a sink that fails now is the host's concern.
            }
        }
    }

    /** The record of the run's events so far, as an immutable snapshot (see {@link OutputLog}). */
    public OutputLog log() {
        if (root != this) return root.log();
        return recorder.snapshot(outputLength());
    }

    private int outputLength() { return output.length() + pending.length(); }

    /** say text held before it is joined into a chunk of the output. */
    private static final int FLUSH_CHARS = 1 << 16;

    private void flush() {
        if (pending.length() == 0) return;
        output = output.plus(pending.toString());
        pending.setLength(0);
    }

    /**
     * All say text of the execution so far, as an immutable snapshot that costs what was said since the last one
     * (call it on the run's thread, or once the run has stopped running).
     */
    public Output text() {
        if (root != this) return root.text();
        flush();
        return output;
    }

    /** The output as far as it was published, for a thread that gave up waiting on a run that is still running. */
    public Output publishedText() { return root.output; }

    /** All say text so far, joined (see {@link #text()}). */
    public String output() { return text().toString(); }

    /** What the run's say text and output events have taken of its output limit so far. */
    public long outputBytes() { return root.outputBytes; }

    /**
     * Restores the output of a run saved in another process (it is not streamed again): its say text, the record of
     * its events with its open output handles, and what they took of the output limit.
     */
    public void restoreOutput(String text, OutputRecorder.State events, long bytes) {
        pending.setLength(0);
        output = Output.of(text);
        recorder.restore(events);
        outputBytes = bytes;
    }

    public long maxMemoryBytes() { return limits.maxMemoryBytes(); }

    public Map<String, Object> constants() { return constants; }

    public java.util.Deque<Frame> frames() { return frames; }

    /**
     * Why this run must stop now — cancelled, or past its deadline — as the trap that ends it, or null while it may go
     * on. For host bindings that block outside the run's calls and back-edges (a child process): they poll it and give
     * up at once. Costs no steps.
     */
    public FinchTrap stopNow() { return stopped(); }
}
