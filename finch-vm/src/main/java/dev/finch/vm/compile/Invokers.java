package dev.finch.vm.compile;

import dev.finch.ir.type.Type;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Adapts a compiled method to the uniform closure invoker shape {@code (Ctx, int, Object[] captures, Object[] args) Object}. */
final class Invokers {
    private Invokers() { }

    static MethodHandle uniform(MethodHandle target, Type.Fn sig, boolean closure) {
        MethodHandle mh = closure ? target : MethodHandles.dropArguments(target, 2, Object[].class);
        int n = sig.ins().size();
        Class<?>[] params = new Class<?>[3 + n];
        params[0] = Ctx.class;
        params[1] = int.class;
        params[2] = Object[].class;
        for (int i = 0; i < n; i++) params[3 + i] = Object.class;
        mh = mh.asType(MethodType.methodType(Object.class, params));
        return mh.asSpreader(Object[].class, n);
    }
}
