package dev.finch.vm.word;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import dev.finch.vm.Value;
import dev.finch.vm.declare.WordFailure;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A host's word that takes or answers {@link Value}s, the public form of Finch's values: its inputs at a call are
 * converted from the VM's representation at the call's own (instantiated) types, and its answer back, so a host never
 * handles the classes of {@code dev.finch.vm.value}. A {@code Value} parameter accepts a value of any type; a
 * {@code Value} answer is checked against the declared output like any host's answer.
 */
final class PublicValues {
    private PublicValues() { }

    private static final MethodHandle ADAPT;

    static {
        try {
            ADAPT = MethodHandles.lookup().findStatic(PublicValues.class, "adapt", MethodType.methodType(Object.class, MethodHandle.class,
                    boolean[].class, boolean.class, Ctx.class, int.class, Type.Fn.class, Origin.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Whether any input is marked as a {@link Value} or the result is one. */
    static boolean any(boolean[] valueIns, Class<?> result) {
        if (result == Value.class) return true;
        for (boolean v : valueIns) if (v) return true;
        return false;
    }

    /**
     * {@code boxed} (the shape {@link Impl#invoke} calls) with the inputs marked in {@code valueIns} given as
     * {@link Value}s and, when {@code valueOut}, its {@code Value} answer taken back into the VM's representation.
     */
    static MethodHandle adapting(MethodHandle boxed, boolean[] valueIns, boolean valueOut) {
        return MethodHandles.insertArguments(ADAPT, 0, boxed, valueIns.clone(), valueOut);
    }

    @SuppressWarnings("unused") // called through ADAPT
    private static Object adapt(MethodHandle boxed, boolean[] valueIns, boolean valueOut, Ctx ctx, int depth, Type.Fn site, Origin origin,
                                Object[] inputs) throws Throwable {
        Object[] args = inputs.clone();
        for (int k = 0; k < args.length; k++) {
            if (valueIns[k]) args[k] = new TypedValue(site.ins().get(k), args[k]).toValue();
        }
        Object answer = (Object) boxed.invokeExact(ctx, depth, site, origin, args);
        if (!valueOut) return answer;
        if (answer == null) throw new WordFailure("the word answered no value");
        return TypedValue.of((Value) answer).value();
    }
}
