package dev.finch.lib;

import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.Typing;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.Closure;
import dev.finch.vm.value.Fiber;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;

/**
 * Fibers: user-defined lazy producers over the typed yield effect (contract "fiber&lt;Y,R&gt; is a first-class,
 * checkpointable handle…"). How a fiber runs is {@link dev.finch.vm.runtime.Fibers}.
 */
public final class Fibers {
    private Fibers() { }

    @Word(name = "fiber-new", category = Category.CONTROL, typing = Typing.FIBER_NEW,
            doc = "A fiber over a closure that yields; nothing runs yet. The closure's effects are the fiber-new's.")
    @Overload(sig = "( -> b yields<a,unit>) -> fiber<a,b>")
    public static Object fiberNew(Object closure, Type.Fn site) {
        return new Fiber((Closure) closure, (Type.FiberT) site.outs().get(0));
    }

    @Word(name = "fiber-next", category = Category.CONTROL, pauses = true,
            doc = "Runs the fiber to its next yield: ok(value), or err(end(r)) once its body has returned. "
                    + "A cancelled fiber is a checked run-time error (E-RUN-008).")
    @Overload(sig = "fiber<a,b> -> result<a,variant{end(b)}>")
    public static Object fiberNext(Ctx ctx, int depth, Object fiber, Origin o) {
        return dev.finch.vm.runtime.Fibers.next(ctx, depth, (Fiber) fiber, o);
    }

    @Word(name = "fiber-join", category = Category.CONTROL, pauses = true,
            doc = "Runs the fiber to its end, discarding what it yields, and answers what its body returned.")
    @Overload(sig = "fiber<a,b> -> b")
    public static Object fiberJoin(Ctx ctx, int depth, Object fiber, Origin o) {
        return dev.finch.vm.runtime.Fibers.join(ctx, depth, (Fiber) fiber, o);
    }

    @Word(name = "fiber-cancel", category = Category.CONTROL,
            doc = "Stops the fiber for good (its copies too): later fiber-next or fiber-join of it is a checked run-time error (E-RUN-008).")
    @Overload(sig = "fiber<a,b> ->")
    public static void fiberCancel(Ctx ctx, Object fiber, Origin o) {
        dev.finch.vm.runtime.Fibers.cancel(ctx, (Fiber) fiber, o);
    }
}
