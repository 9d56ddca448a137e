package dev.finch.vm.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.value.Closure;
import dev.finch.vm.value.OptionValue;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU-task runtime below the frontends: the pool's bound, the join's two ways (pause at the root, wait in place
 * elsewhere, running a queued task itself), cancellation at the next fuel slice and the shared step pool (their
 * durable forms: finch-persist's CpuTaskFormsTest). Task bodies here are Java functions behind a closure's invoker, so
 * a test holds a task exactly where it wants it with a latch — no timing is assumed.
 */
class CpuTasksTest {
    private static final Origin O = Origin.of("test", 1, 1);
    private static final Type.Fn INT_THUNK = Type.Fn.of(List.of(), List.of(Type.INT));
    private static final MethodHandle INVOKE;

    static {
        try {
            INVOKE = MethodHandles.lookup().findStatic(CpuTasksTest.class, "invoke",
                    MethodType.methodType(Object.class, Ctx.class, int.class, Object[].class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CpuTasks pool = new CpuTasks(1);

    @AfterEach void closePool() { pool.close(); }

    /** The invoker of every test closure: its one capture is the body, a function of the task's context. */
    @SuppressWarnings("unchecked")
    private static Object invoke(Ctx ctx, int depth, Object[] captures, Object[] args) {
        return ((Function<Ctx, Object>) captures[0]).apply(ctx);
    }

    private static Closure thunk(Function<Ctx, Object> body) { return new Closure(INVOKE, new Object[] {body}, INT_THUNK, "test-thunk"); }

    private Ctx root(Limits limits) {
        Ctx ctx = new Ctx(limits, OutputSink.NONE, new CancelToken(), Map.of());
        ctx.cpu = new CpuTasks.Run(pool);
        return ctx;
    }

    private static void await(CountDownLatch l) {
        try {
            assertThat(l.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static Function<Ctx, Object> blocked(CountDownLatch started, CountDownLatch release, long value) {
        return c -> {
            started.countDown();
            await(release);
            return value;
        };
    }

    @Test void theJoinOfAnUnfinishedTaskPausesTheRootAndTheResumeAnswersItsValue() throws Exception {
        Ctx ctx = root(Limits.DEFAULT);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CpuTasks.Task t = CpuTasks.spawn(ctx, thunk(blocked(started, release, 42L)), O);
        await(started);
        assertThat(CpuTasks.poll(ctx, t, O)).isEqualTo(OptionValue.NONE);
        assertThat(CpuTasks.join(ctx, t, O)).isNull();
        assertThat(ctx.suspending).isTrue();
        assertThat(CpuTasks.awaited(ctx)).contains(t);
        release.countDown();
        t.whenDone().get(30, TimeUnit.SECONDS);
        // The resume re-executes the join, which now answers.
        ctx.suspending = false;
        ctx.resuming = true;
        assertThat(CpuTasks.join(ctx, t, O)).isEqualTo(42L);
        assertThat(ctx.resuming).isFalse();
        assertThat(CpuTasks.poll(ctx, t, O)).isEqualTo(OptionValue.some(42L));
    }

    @Test void thePoolIsBoundedAndAJoinThatCannotPauseRunsAQueuedTaskItself() throws Exception {
        Ctx ctx = root(Limits.DEFAULT);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CpuTasks.Task hog = CpuTasks.spawn(ctx, thunk(blocked(started, release, 1L)), O);
        await(started);
        Thread[] ranOn = new Thread[1];
        CpuTasks.Task queued = CpuTasks.spawn(ctx, thunk(c -> {
            ranOn[0] = Thread.currentThread();
            return 7L;
        }), O);
        // One worker, held by the hog: the second task waits in the queue.
        assertThat(queued.finished()).isFalse();
        ctx.noPause++;
        try {
            assertThat(CpuTasks.join(ctx, queued, O)).isEqualTo(7L);
        } finally {
            ctx.noPause--;
        }
        assertThat(ctx.suspending).isFalse();
        assertThat(ranOn[0]).isSameAs(Thread.currentThread());
        assertThat(hog.finished()).isFalse();
        release.countDown();
        hog.whenDone().get(30, TimeUnit.SECONDS);
    }

    @Test void aCancelledTaskStopsAtItsNextFuelSliceAndHasNoValue() throws Exception {
        Ctx ctx = root(Limits.DEFAULT.withMaxSteps(Long.MAX_VALUE));
        CountDownLatch started = new CountDownLatch(1);
        CpuTasks.Task t = CpuTasks.spawn(ctx, thunk(c -> {
            started.countDown();
            while (true) c.charge(1000);
        }), O);
        await(started);
        CpuTasks.cancel(t, O);
        t.whenDone().get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> CpuTasks.join(ctx, t, O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.code()).isEqualTo(VmCode.TASK_CANCELLED));
        // The end of the run cancels a task still queued (behind a task holding the only worker) at once.
        CountDownLatch hogStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CpuTasks.Task hog = CpuTasks.spawn(ctx, thunk(blocked(hogStarted, release, 1L)), O);
        await(hogStarted);
        CpuTasks.Task never = CpuTasks.spawn(ctx, thunk(c -> 1L), O);
        assertThat(never.finished()).isFalse();
        ctx.cpu.cancelAll();
        assertThat(never.finished()).isTrue();
        assertThatThrownBy(() -> CpuTasks.join(ctx, never, O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.code()).isEqualTo(VmCode.TASK_CANCELLED));
        release.countDown();
        hog.whenDone().get(30, TimeUnit.SECONDS);
    }

    @Test void aTasksStepsComeFromItsRunsPool() throws Exception {
        Ctx ctx = root(Limits.DEFAULT.withMaxSteps(100_000));
        CpuTasks.Task t = CpuTasks.spawn(ctx, thunk(c -> {
            c.charge(60_000);
            return 1L;
        }), O);
        t.whenDone().get(30, TimeUnit.SECONDS);
        assertThat(CpuTasks.join(ctx, t, O)).isEqualTo(1L);
        CpuTasks.Task over = CpuTasks.spawn(ctx, thunk(c -> {
            c.charge(60_000);
            return 2L;
        }), O);
        over.whenDone().get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> CpuTasks.join(ctx, over, O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.code()).isEqualTo(VmCode.STEP_LIMIT));
    }

    @Test void aTaskCannotSayOrUseSteps() throws Exception {
        Ctx ctx = root(Limits.DEFAULT);
        CpuTasks.Task t = CpuTasks.spawn(ctx, thunk(c -> {
            c.say("x", O);
            return 1L;
        }), O);
        t.whenDone().get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> CpuTasks.join(ctx, t, O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.code()).isEqualTo(VmCode.TASK_IMPURE));
        assertThat(ctx.text().toString()).isEmpty();
        assertThatThrownBy(() -> CpuTasks.join(ctx, "a step", O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.code()).isEqualTo(VmCode.TASK_KIND));
    }

    @Test void aPoolHasAtLeastOneWorker() {
        assertThatThrownBy(() -> new CpuTasks(0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(pool.workers()).isEqualTo(1);
    }
}
