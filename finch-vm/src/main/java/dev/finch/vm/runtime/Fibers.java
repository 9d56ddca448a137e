package dev.finch.vm.runtime;

import dev.finch.vm.value.Frame;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.value.Fiber;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;

/**
 * Running fibers on the run's own frames (contract "yield consumes and publishes one typed value…").
 *
 * <p>A fiber's body runs on the caller's thread and context. A {@code yield} inside it (while {@link Ctx#fiberDepth}
 * is positive) belongs to the innermost running fiber: the body unwinds into frames exactly as a paused run does, and
 * {@link #next} takes those frames into the fiber and answers {@code ok(value)}. The next {@code fiber-next} puts them
 * back and re-enters the body, which resumes after its yield. Anything else that pauses inside the body (approval, a
 * deferred answer, a task) pauses the whole run: the body's frames stay on the context below the caller's, and when
 * the run resumes, the caller re-enters {@code fiber-next}, which re-enters the body with them.
 *
 * <p>Every fiber a run changes is remembered as it was ({@link Ctx#touch}); a run that fails or is cancelled puts
 * each back, so a failed program has consumed no yield.
 */
public final class Fibers {
    private Fibers() { }

    private static final Object[] NO_ARGS = new Object[0];

    /** {@code fiber-next}: the body's next yielded value, {@code err(end(r))} once it has returned; null when the run pauses. */
    public static Object next(Ctx ctx, int depth, Fiber f, Origin o) {
        if (ctx.resuming) return drive(ctx, depth, f, o, true);
        switch (f.status()) {
            case DONE: return ResultValue.err(new VariantValue("end", f.result()));
            case CANCELLED: throw new FinchTrap(VmCode.FIBER_CANCELLED, o, "this fiber was cancelled (fiber-cancel); it answers nothing more");
            case RUNNING: throw new FinchTrap(VmCode.FIBER_CANCELLED, o, "a fiber cannot resume itself while its body runs");
            case NEW: case SUSPENDED: return drive(ctx, depth, f, o, false);
            default: throw new IllegalStateException(f.status().name());
        }
    }

    /** {@code fiber-join}: runs the body to its end, discarding what it yields; null when the run pauses. */
    public static Object join(Ctx ctx, int depth, Fiber f, Origin o) {
        while (true) {
            Object r = next(ctx, depth, f, o);
            if (ctx.suspending) return null;
            ResultValue rv = (ResultValue) r;
            if (!rv.isOk()) return ((VariantValue) rv.value()).payload();
        }
    }

    /** {@code fiber-cancel}: the fiber stops for good; a running body cannot be cancelled from inside itself. */
    public static void cancel(Ctx ctx, Fiber f, Origin o) {
        if (f.status() == Fiber.Status.RUNNING) throw new FinchTrap(VmCode.FIBER_CANCELLED, o, "a fiber cannot cancel itself while its body runs");
        ctx.touch(f);
        f.cancel();
    }

    private static Object drive(Ctx ctx, int depth, Fiber f, Origin o, boolean resumingRun) {
        if (resumingRun) {
            // The run paused inside this fiber's body: its frames are next on the context.
            if (f.status() != Fiber.Status.RUNNING) throw new FinchTrap(VmCode.INTERNAL, o, "a resumed run found its fiber " + f.status());
        } else {
            if (!ctx.frames.isEmpty()) throw new FinchTrap(VmCode.INTERNAL, o, "a fiber was entered with frames pending");
            ctx.touch(f);
            Frame[] saved = f.enter();
            for (Frame fr : saved) ctx.pushFrame(fr);
            if (saved.length > 0) ctx.resuming = true;
        }
        ctx.fiberDepth++;
        Object r;
        try {
            r = Calls.executeResumable(ctx, depth, f.body(), NO_ARGS);
        } finally {
            ctx.fiberDepth--;
        }
        if (!ctx.suspending) {
            f.finished(f.body().type().outs().isEmpty() ? Unit.INSTANCE : r);
            return ResultValue.err(new VariantValue("end", f.result()));
        }
        if (!ctx.fiberYield) return null;
        // The body yielded to this fiber: its frames are the fiber's, and the run goes on.
        ctx.fiberYield = false;
        ctx.suspending = false;
        Object value = ctx.yielded;
        ctx.yielded = null;
        f.suspended(ctx.frames.toArray(new Frame[0]));
        ctx.frames.clear();
        return ResultValue.ok(value);
    }
}
