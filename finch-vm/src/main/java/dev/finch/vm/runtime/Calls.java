package dev.finch.vm.runtime;

import dev.finch.ir.type.Type;
import dev.finch.vm.value.Closure;
import java.util.List;

/** Calls of closures and execution tokens through their uniform invoker. */
public final class Calls {
    private Calls() { }

    /**
     * Invokes {@code fn} with boxed {@code args}. One output is returned boxed; several are left boxed in
     * {@code ctx.ro} (the callee wrote them to its typed registers).
     */
    public static Object execute(Ctx ctx, int depth, Object fn, Object[] args) {
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
                if (t == Type.INT) ctx.ro[i] = ctx.rl[i];
                else if (t == Type.FLOAT) ctx.ro[i] = ctx.rd[i];
                else if (t == Type.BOOL) ctx.ro[i] = ctx.rl[i] != 0;
            }
        }
        return r;
    }
}
