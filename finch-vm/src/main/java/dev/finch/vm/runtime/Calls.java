package dev.finch.vm.runtime;

import dev.finch.ir.type.Type;
import dev.finch.vm.value.Closure;
import java.util.List;

/** Calls of closures and execution tokens through their uniform invoker. */
public final class Calls {
    private Calls() { }

    /**
     * Invokes {@code fn} where the caller cannot resume it (a word such as {@code list-map} running a function value,
     * or an {@code execute} the verifier found cannot pause): a pause inside {@code fn} stops the run with
     * {@code E-RUN-007} rather than losing the frames above it. See {@link #executeResumable}.
     */
    public static Object execute(Ctx ctx, int depth, Object fn, Object[] args) {
        Object r;
        ctx.noPause++;
        try {
            r = executeResumable(ctx, depth, fn, args);
        } finally {
            ctx.noPause--;
        }
        if (ctx.suspending) {
            throw new dev.finch.vm.runtime.FinchTrap(dev.finch.vm.engine.VmCode.STEP_PAUSED, dev.finch.ir.diag.Origin.UNKNOWN,
                    "the run tried to pause (for approval, a deferred answer or a yield) inside a function value run where it cannot be "
                            + "resumed (by list-map, list-filter, list-fold, sorting, or an execute of a function whose type shows no pause); "
                            + "call it directly, or give it a type that says it needs a capability");
        }
        return r;
    }

    /**
     * Invokes {@code fn} with boxed {@code args} at a resume point: if it pauses, its frames are on {@code ctx} and the
     * caller spills its own. One output is returned boxed; several are left boxed in {@code ctx.ro} (the callee wrote
     * them to its typed registers).
     */
    public static Object executeResumable(Ctx ctx, int depth, Object fn, Object[] args) {
        Closure c = (Closure) fn;
        Object r;
        try {
            r = c.invoker().invokeExact(ctx, depth, c.captures(), args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        List<Type> outs = c.type().outs();
        if (outs.size() > 1 && !ctx.suspending) {
            for (int i = 0; i < outs.size(); i++) {
                Type t = outs.get(i);
                if (t == Type.INT) ctx.ro()[i] = ctx.rl()[i];
                else if (t == Type.FLOAT) ctx.ro()[i] = ctx.rd()[i];
                else if (t == Type.BOOL) ctx.ro()[i] = ctx.rl()[i] != 0;
            }
        }
        return r;
    }
}
