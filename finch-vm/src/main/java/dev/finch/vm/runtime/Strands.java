package dev.finch.vm.runtime;

import dev.finch.vm.value.Frame;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.VmCode;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The deterministic scheduler of one run's concurrent steps (words {@code step-spawn} and {@code step-join}; µNorman's
 * {@code workflow}, {@code par} and {@code best-of}).
 *
 * <p>Each step is a <em>strand</em>: a closure running on its own big-stack thread with its own child {@link Ctx}.
 * Exactly one strand holds the run's <em>baton</em> at a time, and only the holder runs VM code or touches the run's
 * shared state (the host boundary, the step pool, the output, a host's world). A strand gives the baton up only at
 * a scheduling point — joining a step that has not finished, ending, sleeping on a simulated clock, or doing host
 * work off the baton — and the baton then goes to the ready strand with the lowest id (ids follow spawn order). So
 * the interleaving is a function of the program and of when off-baton work finishes, never of thread timing:
 * <ul>
 *   <li>{@link #offBaton} runs real host work (a model request, an HTTP call) without the baton, so the waits of
 *       concurrent steps overlap in real time;</li>
 *   <li>{@link #sleepUntil} waits on a {@link SimClock}: when no strand is ready and none is working off the baton,
 *       the clock jumps to the earliest wake-up (ties by id), so under a script the whole run is exactly
 *       repeatable.</li>
 * </ul>
 * The first checked run-time error of any strand aborts the run: every strand stops at its next scheduling point
 * or fuel slice, and the run fails with that diagnostic. At most {@link #MAX_LIVE} strands are alive at once
 * ({@code E-LIMIT-006}).
 *
 * <p><b>A step that fails its siblings.</b> A step that ends with an err may stop its siblings — the other live steps
 * its spawner started, whose result has the same error type — with that err ({@link #failSiblings}, the word
 * {@code step-fail-siblings}; µNorman's {@code workflow} does it, so nothing is spent after its outcome is decided).
 * A stopped step ends at its next check — before it starts, in a join, at a fuel slice, or where its host starts
 * its next request ({@link #stopIfCancelled}) — never in the middle of a request, so what it already asked for is
 * settled and charged; a join of it answers the err, and the steps it spawned stop too.
 *
 * <p><b>Pausing while steps run.</b> Any strand may pause the run (a request waiting for approval or for a deferred
 * host's answer, or the root's yield). The first to reach a pause point <em>claims</em> the run's pause
 * ({@link #claimPause}): its request becomes the host's one pending request and it unwinds its own frames into its own
 * context; a step's thread then ends. A strand that reaches a pause point while the pause is claimed creates no
 * request and uses no sequence number: it unwinds <em>to retry</em>, so that on resume its call is issued afresh. The
 * other strands go on until nothing can progress (no strand ready, none working off the baton, none asleep); then
 * every strand waiting in a {@code step-join} unwinds too (lowest id first), the join to be re-executed on resume, and
 * the run is suspended once every strand has unwound (the root waits for that in {@link #settle}). A root that had
 * finished main and was draining its steps records so ({@link #resume} answers it). On resume every unwound step is
 * revived on a thread with its frames; the strand that claimed the pause runs first and alone consumes the answer,
 * then the others in id order, retrying what they had not issued — so each effect happens once and the sequence
 * numbers are a function of the program.
 */
public final class Strands {
    /** The most steps alive at once in one run. */
    public static final int MAX_LIVE = 256;

    /** Strands alive in this JVM, all runs together (for tests and monitoring). */
    private static final AtomicInteger ALIVE = new AtomicInteger();
    /**
     * The threads strands run on: big stacks like the VM's workers, reused while idle for 30 s (a strand costs a
     * hand-off, not a thread start); a strand never waits for a thread.
     */
    private static final class StepPool {
        // A holder, made when the first strand starts: a run without strands (most) loads no executor's classes.
        static final java.util.concurrent.ThreadPoolExecutor THREAD_POOL = new java.util.concurrent.ThreadPoolExecutor(
                0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new java.util.concurrent.SynchronousQueue<>(), new RunThreads("finch-run-step-"));
    }

    /*
     * WakeOrder is a named class, not a lambda: a fresh JVM's first submission makes it, where
     * linking each lambda costs about 0.7 ms.
     */

    /** Sleepers by wake time, then by age. */
    private static final class WakeOrder implements java.util.Comparator<Strand> {
        @Override
        public int compare(Strand a, Strand b) {
            return a.wakeAt != b.wakeAt ? Long.compare(a.wakeAt, b.wakeAt) : Long.compare(a.id, b.id);
        }
    }
    private static final ThreadLocal<Strand> CURRENT = new ThreadLocal<>();
    private static final Object[] NO_ARGS = new Object[0];

    /** A clock that the scheduler advances when every strand waits on it (a host's simulated time). */
    public interface SimClock {
        /** Moves the clock forward to {@code millis} (never backward). */
        void advanceTo(long millis);
    }

    /** One step of the run: its id, the strand that spawned it, its context and its value or failure once done. */
    public final class Strand {
        private final long id;
        private final Strand parent;
        private final Ctx ctx;
        private Object local;
        /** The step's closure (null for the root): re-entered with its frames when a paused run resumes. */
        private Object closure;
        /** Whether the step unwound for the run's pause: its frames are on its context and it has no thread. */
        private boolean paused;
        private boolean done;
        private Object value;
        private Throwable failure;
        private Thread thread;
        private long wakeAt;
        private SimClock clock;
        private final List<Strand> joiners = new ArrayList<>(1);
        /** Set when a sibling's failure stops this step ({@link #failSiblings}): it ends with {@link #cancelWith} at its next check. */
        private volatile boolean cancelled;
        private volatile Object cancelWith;

        private Strand(long id, Strand parent, Ctx ctx, Object local, Object closure) {
            this.id = id;
            this.parent = parent;
            this.ctx = ctx;
            this.local = local;
            this.closure = closure;
        }

        private Strands owner() { return Strands.this; }

        /** The strand's id: 0 for the run's root, then in spawn order. */
        public long id() { return id; }

        /** A host's per-strand value (a budget scope chain, say), inherited from the spawner at spawn time. */
        public Object local() { return local; }

        public void local(Object value) { this.local = value; }

        /** Whether the step has ended (its value is {@link #result}). */
        public boolean isDone() { return done; }

        /** The value of a step that has ended. */
        public Object result() { return value; }

        @Override public String toString() { return "step#" + id; }
    }

    private final Ctx root;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Strand rootStrand;
    private final TreeMap<Long, Strand> ready = new TreeMap<>();
    private final PriorityQueue<Strand> sleepers = new PriorityQueue<>(new WakeOrder());
    private final TreeMap<Long, Strand> live = new TreeMap<>();
    private Strand running;
    private int off;
    private long nextId = 1;
    private volatile FinchTrap abort;
    /** Which strand holds each stateful resource the run's steps have used (see {@link #claim}). */
    private final java.util.HashMap<Object, Strand> owners = new java.util.HashMap<>();
    /** The strand that claimed the run's pause (its request is pending, or it yielded), or null (see {@link #claimPause}). */
    private Strand pauseOwner;
    /** Set when nothing could progress while the pause was claimed: every strand waiting in a join unwinds. */
    private boolean unwinding;
    /** Steps unwound for the pause, by id: revived when the run resumes. */
    private final TreeMap<Long, Strand> paused = new TreeMap<>();
    /** Whether the root had finished main and was draining its steps when the run paused. */
    private boolean rootDraining;

    Strands(Ctx root) {
        this.root = root;
        this.rootStrand = new Strand(0, null, root, null, null);
        this.running = rootStrand;
    }

    // ---- binding the run's threads ----------------------------------------------------------------------------

    /**
     * Marks the calling thread as running {@code ctx}'s root strand and binds its {@link dev.finch.vm.value.Meter} (the VM
     * calls this when a run starts or resumes; each step's thread binds its own context).
     */
    public static void enter(Ctx ctx) {
        CURRENT.set(ctx.strands.rootStrand);
        dev.finch.vm.value.Meter.bind(ctx);
    }

    /**
     * Unbinds the calling thread at the end of a run. It sets the slots to null rather than removing them: a thread
     * that runs again and again (a caller's) then finds its entries where they were, instead of each run adding them
     * to its thread-local table and taking them out again; a null holds nothing of the run.
     */
    public static void leave() {
        CURRENT.set(null);
        dev.finch.vm.value.Meter.unbind();
    }

    /** The strand the calling thread runs, or null outside any run. */
    public static Strand current() { return CURRENT.get(); }

    // ---- the words ----------------------------------------------------------------------------------------------

    /** {@code step-spawn}: starts {@code closure} (no inputs, one output) as a new strand; the caller keeps the baton. */
    public static Object spawn(Ctx ctx, Object closure, Origin origin) { return ctx.strands.spawnStrand(ctx, closure, origin); }

    /** {@code step-join}: the step's value, waiting (off the baton) until it has ended. */
    public static Object join(Ctx ctx, Object task, Origin origin) {
        // A join the run paused in is simply joined again when it resumes.
        ctx.takeResume();
        Strand t = (Strand) task;
        if (t.owner() != ctx.strands) {
            // A step of an earlier run (its handle was left on the stack): that run ended only after all its steps did.
            if (t.failure != null) throw asTrap(t.failure);
            return t.value;
        }
        return ctx.strands.joinStrand(t, origin);
    }

    private Strand spawnStrand(Ctx ctx, Object closure, Origin origin) {
        Strand me = CURRENT.get();
        Object inherited = me == null ? null : me.local;
        lock.lock();
        try {
            checkAbort();
            checkCancelled(me);
            if (live.size() >= MAX_LIVE) {
                throw new FinchTrap(VmCode.STRANDS_LIMIT, origin, "more than " + MAX_LIVE + " concurrent steps would be alive at once");
            }
            Strand s = new Strand(nextId++, me == null || me.owner() != this ? rootStrand : me, ctx.child(), inherited, closure);
            live.put(s.id, s);
            ready.put(s.id, s);
            ALIVE.incrementAndGet();
            try {
                StepPool.THREAD_POOL.execute(() -> body(s));
            } catch (RuntimeException | OutOfMemoryError e) {
                // The JVM could not start a thread: the step never existed.
                live.remove(s.id);
                ready.remove(s.id);
                ALIVE.decrementAndGet();
                throw new FinchTrap(VmCode.STRANDS_LIMIT, origin, "the host could not start a thread for another concurrent step");
            }
            return s;
        } finally {
            lock.unlock();
        }
    }

    private void body(Strand s) {
        CURRENT.set(s);
        dev.finch.vm.value.Meter.bind(s.ctx);
        boolean unwound = false;
        try {
            lock.lock();
            try {
                s.thread = Thread.currentThread();
                awaitTurn(s);
                checkCancelled(s); // a step stopped before it started starts nothing
            } finally {
                lock.unlock();
            }
            Object v = Calls.executeResumable(s.ctx, 0, s.closure, NO_ARGS);
            if (s.ctx.suspending && !s.cancelled) unwound = true;
            else s.value = s.cancelled ? s.cancelWith : v;
        } catch (Throwable t) {
            // A stopped step ends with its sibling's failure, whatever stopped it at its check.
            if (s.cancelled && t instanceof FinchTrap) s.value = s.cancelWith;
            else s.failure = t;
        } finally {
            CURRENT.set(null);
            dev.finch.vm.value.Meter.unbind();
            lock.lock();
            try {
                s.thread = null;
                if (unwound) {
                    // Paused with the run: its frames stay on its context until the run resumes (or is dropped).
                    s.paused = true;
                    paused.put(s.id, s);
                } else {
                    s.done = true;
                    live.remove(s.id);
                    if (s.failure != null && abort == null) abort = asTrap(s.failure);
                    for (Strand j : s.joiners) ready.put(j.id, j);
                    s.joiners.clear();
                }
                if (running == s) dispatch();
                changed.signalAll();
            } finally {
                lock.unlock();
                ALIVE.decrementAndGet();
            }
        }
    }

    /** How many strands are alive in this JVM right now, across all runs. */
    public static int alive() { return ALIVE.get(); }

    private Object joinStrand(Strand task, Origin origin) {
        Strand me = CURRENT.get();
        lock.lock();
        try {
            checkAbort();
            checkCancelled(me);
            if (!task.done) {
                if (me == null || me == task) throw new FinchTrap(VmCode.INTERNAL, origin, "a step cannot wait for itself");
                task.joiners.add(me);
                giveUp(me);
                awaitTurn(me);
                if (me.cancelled) {
                    // Stopped while it waited (made ready for that): it ends here.
                    task.joiners.remove(me);
                    checkCancelled(me);
                }
                if (!task.done && unwinding) {
                    // The run pauses and this join cannot end before it resumes: unwind, to join again then.
                    task.joiners.remove(me);
                    unwindToRetry(me.ctx);
                    return null;
                }
            }
            if (task.failure != null) throw asTrap(task.failure);
            // Whatever the step held is ordered before the joiner now.
            if (me != null) owners.replaceAll((k, v) -> v == task ? me : v);
            return task.value;
        } finally {
            lock.unlock();
        }
    }

    // ---- a step that fails its siblings ------------------------------------------------------------------------

    /**
     * {@code step-fail-siblings}: when {@code result} is an err, stops every other live step spawned by the caller's
     * spawner whose closure answers a result with error type {@code err} — each ends at its next check with this err —
     * and every step those spawned. Answers {@code result}; an ok, or a caller that is no step, stops nothing.
     */
    public static Object failSiblings(Ctx ctx, Object result, dev.finch.ir.type.Type err) {
        if (!(result instanceof dev.finch.vm.value.ResultValue r) || r.isOk()) return result;
        Strand me = CURRENT.get();
        if (me == null || me.owner() != ctx.strands || me.parent == null) return result;
        ctx.strands.stopSiblings(me, result, err);
        return result;
    }

    private void stopSiblings(Strand me, Object err, dev.finch.ir.type.Type errType) {
        lock.lock();
        try {
            for (Strand s : List.copyOf(live.values())) {
                if (s == me || s.done || s.cancelled || s.parent != me.parent || !answersError(s.closure, errType)) continue;
                stop(s, err);
            }
            // What a stopped step spawned stops too (nobody is left to join it); it ends with nothing.
            boolean more = true;
            while (more) {
                more = false;
                for (Strand s : List.copyOf(live.values())) {
                    if (!s.cancelled && s.parent != null && s.parent.cancelled) {
                        stop(s, null);
                        more = true;
                    }
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code closure} answers one result whose error type is {@code err}: the err it may end with fits it. */
    private static boolean answersError(Object closure, dev.finch.ir.type.Type err) {
        if (!(closure instanceof dev.finch.vm.value.Closure c) || c.type().outs().size() != 1) return false;
        return c.type().outs().get(0) instanceof dev.finch.ir.type.Type.ResultT t && dev.finch.ir.type.Type.equivalent(t.err(), err);
    }

    /** Marks {@code s} stopped with {@code value}; one waiting in a join is made ready to notice, one unwound for a pause ends now. */
    private void stop(Strand s, Object value) {
        s.cancelled = true;
        s.cancelWith = value;
        if (s.paused) {
            s.paused = false;
            paused.remove(s.id);
            s.done = true;
            s.value = value;
            live.remove(s.id);
            for (Strand j : s.joiners) ready.put(j.id, j);
            s.joiners.clear();
            return;
        }
        for (Strand t : live.values()) if (t.joiners.remove(s)) ready.put(s.id, s);
        if (rootStrand.joiners.remove(s)) ready.put(s.id, s);
    }

    /** Ends the calling step if a sibling's failure stopped it: at a fuel slice, and where a host starts a request. */
    public static void stopIfCancelled() {
        Strand me = CURRENT.get();
        if (me != null && me.cancelled) throw stopped();
    }

    private static void checkCancelled(Strand me) {
        if (me != null && me.cancelled) throw stopped();
    }

    private static FinchTrap stopped() {
        return new FinchTrap(VmCode.STEP_CANCELLED, Origin.UNKNOWN, "the step was stopped: a sibling step failed");
    }

    // ---- what hosts use -----------------------------------------------------------------------------------------

    /**
     * Runs {@code work} without the baton, so other steps go on meanwhile; returns (or throws) once the caller holds
     * the baton again. With no other step alive it simply runs {@code work}. {@code work} must not touch the run's
     * shared state.
     */
    public static <T> T offBaton(java.util.function.Supplier<T> work) {
        Strand me = CURRENT.get();
        if (me == null) return work.get();
        Strands s = me.ctx.strands;
        return s.off(me, work);
    }

    private <T> T off(Strand me, java.util.function.Supplier<T> work) {
        boolean alone;
        lock.lock();
        try {
            alone = live.isEmpty();
            if (!alone) {
                off++;
                giveUp(me);
            }
        } finally {
            lock.unlock();
        }
        if (alone) return work.get();
        try {
            return work.get();
        } finally {
            lock.lock();
            try {
                off--;
                ready.put(me.id, me);
                if (running == null) dispatch();
                awaitTurn(me);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Waits until {@code clock} reads {@code millis}: the caller sleeps, the other steps run, and when every strand
     * waits the clock jumps to the earliest wake-up. With no other step alive the clock simply advances.
     */
    public static void sleepUntil(SimClock clock, long millis) {
        Strand me = CURRENT.get();
        if (me == null) {
            clock.advanceTo(millis);
            return;
        }
        me.ctx.strands.sleep(me, clock, millis);
    }

    private void sleep(Strand me, SimClock clock, long millis) {
        lock.lock();
        try {
            if (live.isEmpty() || live.size() == 1 && live.containsKey(me.id) && sleepers.isEmpty() && ready.isEmpty() && off == 0) {
                clock.advanceTo(millis);
                return;
            }
            me.wakeAt = millis;
            me.clock = clock;
            sleepers.add(me);
            giveUp(me);
            awaitTurn(me);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims a stateful resource (a kernel or filesystem instance) for the calling step. A resource serves one step at
     * a time: the first step to use it holds it, a step it spawned may use it (its parent waits meanwhile), and a step
     * that joins the holder after it ended takes it over; any other step that reaches it while the holder's use is not
     * ordered before its own — two steps that may run concurrently, whatever the timing — stops the run with a checked
     * run-time error before anything is sent. Runs without steps never conflict.
     */
    public static void claim(Ctx ctx, Object resource, String what, Origin origin) {
        Strand me = CURRENT.get();
        if (me == null || me.owner() != ctx.strands) return;
        ctx.strands.claimFor(me, resource, what, origin);
    }

    private void claimFor(Strand me, Object resource, String what, Origin origin) {
        lock.lock();
        try {
            Strand holder = owners.get(resource);
            if (holder == null || holder == me || isAncestor(holder, me)) {
                owners.put(resource, me);
                return;
            }
            throw new FinchTrap(VmCode.PROGRAM_ERROR, origin, "two concurrent steps use " + what + " (" + holder + " and " + me
                    + "); a stateful tool serves one step at a time: fork a kernel for each step, or make them one step");
        } finally {
            lock.unlock();
        }
    }

    private static boolean isAncestor(Strand a, Strand b) {
        for (Strand p = b.parent; p != null; p = p.parent) if (p == a) return true;
        return false;
    }

    // ---- pausing ------------------------------------------------------------------------------------------------

    /** Whether any concurrent step of {@code ctx}'s run is alive. */
    public static boolean stepsLive(Ctx ctx) {
        Strands s = ctx.strands;
        s.lock.lock();
        try {
            return !s.live.isEmpty();
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Called by a pause point (a host request that must wait, a yield) on the strand holding the baton: true when the
     * caller now owns the run's pause and records it (its request pending, its yield published) and unwinds; false when
     * another strand owns it — the caller has then been marked to unwind and retry ({@code ctx.suspending} is set), and
     * must return at once without recording anything.
     */
    public static boolean claimPause(Ctx ctx, Origin origin) {
        Strands s = ctx.strands;
        Strand me = CURRENT.get();
        if (me == null || me.owner() != s) me = s.rootStrand;
        return s.claimFor(me);
    }

    private boolean claimFor(Strand me) {
        lock.lock();
        try {
            if (pauseOwner == null || pauseOwner == me) {
                pauseOwner = me;
                return true;
            }
            unwindToRetry(me.ctx);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For a pause point that is about to record something (a request, with its sequence number): when another strand
     * already owns the run's pause, marks the caller to unwind and retry on resume and answers true; the caller
     * returns at once, having recorded nothing.
     */
    public static boolean retryIfPauseTaken(Ctx ctx) {
        Strands s = ctx.strands;
        Strand me = CURRENT.get();
        if (me == null || me.owner() != s) me = s.rootStrand;
        s.lock.lock();
        try {
            if (s.pauseOwner == null || s.pauseOwner == me) return false;
            unwindToRetry(ctx);
            return true;
        } finally {
            s.lock.unlock();
        }
    }

    /** Unwinds {@code ctx}'s strand so that, on resume, the operation it stands in re-executes afresh. */
    private static void unwindToRetry(Ctx ctx) {
        ctx.suspending = true;
        ctx.retrying = true;
    }

    /**
     * Called by the root once it has unwound for a pause (its main returned suspending, or its drain did): gives up the
     * baton and waits until every live step has unwound too, so that no thread of the run still runs when it is
     * suspended. Throws the run's abort if a step failed meanwhile.
     */
    public void settle() {
        lock.lock();
        try {
            if (pauseOwner == null) pauseOwner = rootStrand; // a root that paused with no step alive
            giveUp(rootStrand);
            awaitUntil(this::everyStepPaused);
            running = null;
        } finally {
            lock.unlock();
        }
    }

    private boolean everyStepPaused() {
        for (Strand s : live.values()) if (!s.paused) return false;
        return true;
    }

    /**
     * Called by the root when a paused run resumes, before it re-enters main: revives every unwound step on a thread
     * (its context resuming from its frames), lets the strand that owned the pause run first (it consumes the answer),
     * and returns once the root holds the baton — true when the root had finished main and only drains its steps.
     */
    public boolean resume() {
        lock.lock();
        try {
            Strand owner = pauseOwner == null ? rootStrand : pauseOwner;
            pauseOwner = null;
            unwinding = false;
            boolean draining = rootDraining;
            rootDraining = false;
            if (draining) {
                root.resuming = false;
                root.retrying = false;
            }
            running = rootStrand;
            if (paused.isEmpty()) return draining;
            List<Strand> revive = new ArrayList<>(paused.values());
            paused.clear();
            for (Strand s : revive) {
                s.paused = false;
                s.ctx.renewChild();
                ready.put(s.id, s);
            }
            if (owner != rootStrand && revive.contains(owner)) {
                ready.remove(owner.id);
                ready.put(rootStrand.id, rootStrand);
                running = owner;
            } else {
                running = rootStrand;
            }
            for (Strand s : revive) {
                ALIVE.incrementAndGet();
                try {
                    StepPool.THREAD_POOL.execute(() -> body(s));
                } catch (RuntimeException | OutOfMemoryError e) {
                    ALIVE.decrementAndGet();
                    s.done = true;
                    live.remove(s.id);
                    ready.remove(s.id);
                    if (abort == null) abort = new FinchTrap(VmCode.STRANDS_LIMIT, Origin.UNKNOWN, "the host could not start a thread to resume a step");
                }
            }
            changed.signalAll();
            awaitTurn(rootStrand);
            return draining;
        } finally {
            lock.unlock();
        }
    }

    // ---- saving and restoring a paused run (dev.finch.vm.persist.Continuations) ---------------------------------

    /**
     * A step unwound for the run's pause, as a continuation saves it: its id and spawner, its closure, its frames
     * (outermost first), whether it resumes by retrying, and its host's per-step state ({@link Strand#local}, null for
     * none), which the model host saves ({@code ModelHost.saveLocal}).
     */
    public record SavedStep(long id, long parent, Object closure, List<Frame> framesOutermostFirst, boolean retrying, Object local) {
        /** Whether the step holds its host's per-step state. */
        public boolean holdsHostState() { return local != null; }
    }

    /** The steps unwound for the run's pause, in id order (empty when it paused with no step alive). */
    public List<SavedStep> pausedSteps() {
        lock.lock();
        try {
            List<SavedStep> out = new ArrayList<>();
            for (Strand s : paused.values()) {
                List<Frame> frames = new ArrayList<>();
                s.ctx.frames.descendingIterator().forEachRemaining(frames::add);
                out.add(new SavedStep(s.id, s.parent == null ? 0 : s.parent.id, s.closure, frames, s.ctx.retrying, s.local));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** The id of the strand that owns the run's pause (0: the root). */
    public long pauseOwnerId() { return pauseOwner == null ? 0 : pauseOwner.id; }

    /** The id the next spawned step gets. */
    public long nextId() { return nextId; }

    /** Whether the root had finished main and was draining its steps when the run paused. */
    public boolean rootDraining() { return rootDraining; }

    /** Whether {@code ctx} resumes by retrying its innermost operation rather than taking an answer. */
    public static boolean retrying(Ctx ctx) { return ctx.retrying; }

    /** {@code v} as a step of this run, or null when it is not one. */
    public Strand handle(Object v) { return v instanceof Strand s && s.owner() == this ? s : null; }

    /** Rebuilds a step of a saved run that had unwound for its pause; its closure and frames follow ({@link #restoreStep}). */
    public Strand restorePausedStep(long id, long parentId, java.util.Map<Long, Strand> known) {
        lock.lock();
        try {
            Strand parent = known.getOrDefault(parentId, rootStrand);
            Strand s = new Strand(id, parent, root.child(), null, null);
            s.paused = true;
            live.put(id, s);
            paused.put(id, s);
            known.put(id, s);
            return s;
        } finally {
            lock.unlock();
        }
    }

    /** The root's host-private state (its budget scopes), null for none. */
    public Object rootLocal() { return rootStrand.local; }

    /** Restores the root's host-private state of a saved run. */
    public void restoreRootLocal(Object local) { rootStrand.local = local; }

    /** Gives a rebuilt paused step its closure, frames (outermost first) and its host's per-step state. */
    public void restoreStep(Strand s, Object closure, List<Frame> framesOutermostFirst, boolean retrying, Object local) {
        s.local = local;
        s.closure = closure;
        for (int i = framesOutermostFirst.size() - 1; i >= 0; i--) s.ctx.pushFrame(framesOutermostFirst.get(i));
        s.ctx.suspending = true;
        s.ctx.retrying = retrying;
    }

    /** Rebuilds a step of a saved run that had ended with {@code value} (a handle to it was still held). */
    public Strand restoreDoneStep(long id, Object value) {
        Strand s = new Strand(id, rootStrand, root, null, null);
        s.done = true;
        s.value = value;
        return s;
    }

    /** Restores who owned a saved run's pause, the next step id and whether the root was draining or retrying. */
    public void restorePause(long ownerId, long nextId, boolean rootDraining, boolean rootRetrying) {
        lock.lock();
        try {
            this.pauseOwner = ownerId == 0 ? rootStrand : paused.get(ownerId);
            this.nextId = Math.max(this.nextId, nextId);
            this.rootDraining = rootDraining;
            this.running = null;
            root.retrying = rootRetrying;
        } finally {
            lock.unlock();
        }
    }

    // ---- the run's lifecycle ------------------------------------------------------------------------------------

    /** Called by the root when its main body has finished: every step still alive runs to its end (ids in order). */
    public void drain() {
        while (true) {
            Strand next;
            lock.lock();
            try {
                next = live.isEmpty() ? null : live.firstEntry().getValue();
            } finally {
                lock.unlock();
            }
            if (next == null) return;
            joinStrand(next, Origin.UNKNOWN);
            if (root.suspending) {
                // The run paused while the root drained: on resume it drains again, main being done.
                rootDraining = true;
                return;
            }
        }
    }

    /** Called when the run ends in any way: stops every strand still alive (they end at their next scheduling point). */
    public void shutdown() {
        lock.lock();
        try {
            if (live.isEmpty()) return;
            if (abort == null) abort = new FinchTrap(VmCode.CANCELLED, Origin.UNKNOWN, "the run ended while a step was running");
            // Only strands still running: a pooled thread whose strand has ended may already serve another run.
            for (Strand s : live.values()) if (s.thread != null && !s.done) s.thread.interrupt();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Throws the run's abort, if a step stopped it. */
    void checkAbort() {
        FinchTrap a = abort;
        if (a != null) throw a;
    }

    // ---- the baton (the lock is held) ---------------------------------------------------------------------------

    private void giveUp(Strand me) {
        if (running == me) dispatch();
    }

    /** Hands the baton to the lowest ready strand; else wakes the earliest sleepers; else nobody holds it. */
    private void dispatch() {
        Strand next = null;
        if (!ready.isEmpty()) {
            next = ready.pollFirstEntry().getValue();
        } else if (off == 0 && !sleepers.isEmpty()) {
            next = sleepers.poll();
            next.clock.advanceTo(next.wakeAt);
            while (!sleepers.isEmpty() && sleepers.peek().wakeAt == next.wakeAt) {
                Strand also = sleepers.poll();
                ready.put(also.id, also);
            }
        } else if (off == 0 && pauseOwner != null) {
            // The run pauses and nothing else can progress: every strand waiting in a join unwinds, lowest id first.
            unwinding = true;
            for (Strand j : rootStrand.joiners) ready.put(j.id, j);
            for (Strand s : live.values()) for (Strand j : s.joiners) ready.put(j.id, j);
            if (!ready.isEmpty()) next = ready.pollFirstEntry().getValue();
        } else if (off == 0 && abort == null && hasWaiters()) {
            abort = new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "every step of the run waits for another (a deadlock)");
        }
        running = next;
        changed.signalAll();
    }

    private boolean hasWaiters() { return !live.isEmpty() || !rootStrand.joiners.isEmpty(); }

    /** Waits (releasing the lock) until {@code me} holds the baton; throws if the run was stopped meanwhile. */
    private void awaitTurn(Strand me) { awaitUntil(() -> running == me); }

    /** Waits (releasing the lock) until {@code done} holds; throws if the run was stopped or aborted meanwhile. */
    private void awaitUntil(java.util.function.BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            checkAbort();
            FinchTrap stop = root.stopped();
            if (stop != null) {
                if (abort == null) abort = stop;
                changed.signalAll();
                throw abort;
            }
            try {
                changed.await(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                if (abort == null) abort = new FinchTrap(VmCode.CANCELLED, Origin.UNKNOWN, "the run was interrupted");
                changed.signalAll();
                throw abort;
            }
        }
        checkAbort();
    }

    private static FinchTrap asTrap(Throwable t) {
        if (t instanceof FinchTrap f) return f;
        if (t instanceof StackOverflowError) return new FinchTrap(VmCode.DEPTH_LIMIT, Origin.UNKNOWN, "a step's JVM stack overflowed");
        if (t instanceof OutOfMemoryError) return new FinchTrap(VmCode.MEMORY_LIMIT, Origin.UNKNOWN, "a step ran out of memory");
        return new FinchTrap(VmCode.INTERNAL, Origin.UNKNOWN, "a step failed inside the VM: " + t);
    }
}
