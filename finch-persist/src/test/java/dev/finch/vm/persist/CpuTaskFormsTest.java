package dev.finch.vm.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.CpuTasks;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.Closure;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The durable forms of CPU tasks: a finished task is saved as its end (value or error) and joins to it after a round
 * trip; a task still computing, or a step, has no form. Task bodies are Java functions behind a closure's invoker, held
 * with latches — no timing is assumed.
 */
class CpuTaskFormsTest {
    private static final Origin O = Origin.of("test", 1, 1);
    private static final Type.Fn INT_THUNK = Type.Fn.of(List.of(), List.of(Type.INT));
    private final CpuTasks pool = new CpuTasks(1);

    @AfterEach void closePool() { pool.close(); }

    /** A task body: {@code body} behind a closure's invoker signature {@code (Ctx, int, Object[], Object[]) Object}. */
    private static Closure thunk(Supplier<Object> body) {
        try {
            MethodHandle get = MethodHandles.publicLookup().findVirtual(Supplier.class, "get", MethodType.methodType(Object.class)).bindTo(body);
            return new Closure(MethodHandles.dropArguments(get, 0, Ctx.class, int.class, Object[].class, Object[].class),
                    new Object[0], INT_THUNK, "test-thunk");
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch l) throws InterruptedException {
        assertThat(l.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test void finishedTasksHaveDurableForms() throws Exception {
        Ctx ctx = new Ctx(Limits.DEFAULT, OutputSink.NONE, new CancelToken(), Map.of());
        ctx.cpu = new CpuTasks.Run(pool);
        Type type = new Type.TaskT(Type.INT);
        CpuTasks.Task done = CpuTasks.spawn(ctx, thunk(() -> 42L), O);
        CpuTasks.Task failed = CpuTasks.spawn(ctx, thunk(() -> {
            throw new FinchTrap(VmCode.DIVIDE_BY_ZERO, O, "division by zero");
        }), O);
        done.whenDone().get(30, TimeUnit.SECONDS);
        failed.whenDone().get(30, TimeUnit.SECONDS);
        Object back = ValueCodec.decode(type, ValueCodec.encode(type, done));
        assertThat(CpuTasks.join(ctx, back, O)).isEqualTo(42L);
        Object backFailed = ValueCodec.decode(type, ValueCodec.encode(type, failed));
        assertThatThrownBy(() -> CpuTasks.join(ctx, backFailed, O)).isInstanceOfSatisfying(FinchTrap.class,
                f -> assertThat(f.diagnostic().code()).isEqualTo("E-ARITH-002"));
        // A task still computing is saved as its closure: only a program's own closure literal has a durable form.
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CpuTasks.Task running = CpuTasks.spawn(ctx, thunk(() -> {
            started.countDown();
            try {
                await(release);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 1L;
        }), O);
        await(started);
        assertThatThrownBy(() -> ValueCodec.encode(type, running)).isInstanceOf(ValueCodec.NotDurable.class);
        assertThatThrownBy(() -> ValueCodec.encode(type, "a step")).isInstanceOf(ValueCodec.NotDurable.class).hasMessageContaining("step");
        release.countDown();
        running.whenDone().get(30, TimeUnit.SECONDS);
    }
}
