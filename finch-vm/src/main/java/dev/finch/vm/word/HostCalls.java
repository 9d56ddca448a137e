package dev.finch.vm.word;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.declare.WordFailure;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.PathValue;
import dev.finch.vm.value.Sizes;
import dev.finch.vm.value.Values;
import java.util.Optional;

/**
 * Calls of words the embedding host installed, from both tiers. A word whose signature names a capability passes
 * the one host boundary like every host word — authorization against the grants, the effect journal, suspension
 * for approval or a deferred host's answer — and its method runs only once that allows it, at most once. Whatever
 * the method throws, and any answer that is not of the declared type, stops the run with {@code E-HOST-017}; a
 * host's code never crashes a run.
 */
public final class HostCalls {
    private HostCalls() { }

    /** Calls {@code impl} with boxed inputs; null when the run suspends at the boundary. */
    public static Object call(Ctx ctx, int depth, Impl impl, Type.Fn site, Origin origin, Object[] args) {
        Optional<Capability> requirement = requirement(impl, args);
        if (requirement.isEmpty()) return run(ctx, depth, impl, site, origin, args);
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, impl.word().name(), requirement.get(), dev.finch.vm.boundary.EffectRequest.inputs(site, args), site.outs(), origin,
                () -> run(ctx, depth, impl, site, origin, args));
    }

    /**
     * The concrete requirement of one call: the overload's template instantiated with the refined paths and
     * strings among the arguments, else its one declared capability; empty for a pure word.
     */
    static Optional<Capability> requirement(Impl impl, Object[] args) {
        var o = impl.overload();
        if (o.requires().isPresent()) {
            Optional<Capability> c = o.requires().get().instantiate(i -> i < args.length ? known(args[i]) : null);
            if (c.isPresent()) return c;
        }
        return o.signature().effects().stream().filter(c -> !c.equals(Capability.SESSION_EMIT)).findFirst();
    }

    /** Whether {@link Values#conforms} can judge a value of {@code t} (a ground data type). */
    private static boolean checkable(Type t) {
        return Type.isGround(t) && switch (t.kind()) {
            case FN, TASK, FIBER, STREAM, RESOURCE, VAR -> false;
            case PRIM, PATH, OPTION, RESULT, LIST, MAP, RECORD, VARIANT, NAMED -> true;
        };
    }

    /** Charges the work of converting {@code v}: a step per {@link dev.finch.vm.value.Meter#ELEMENTS_PER_STEP} elements of it. */
    private static void charge(Ctx ctx, Object v) {
        long elements = Sizes.of(v) / (Sizes.SLOT + Sizes.VALUE);
        if (elements >= Meter.ELEMENTS_PER_STEP) ctx.charge(elements / Meter.ELEMENTS_PER_STEP);
    }

    private static String known(Object arg) {
        if (arg instanceof PathValue p) return p.path().toString();
        if (arg instanceof String s) return s;
        return null;
    }

    private static Object run(Ctx ctx, int depth, Impl impl, Type.Fn site, Origin origin, Object[] args) {
        // The arguments are converted to the host's values and its answer back and checked: work in their size.
        for (Object a : args) charge(ctx, a);
        Object value;
        try {
            value = impl.invoke(ctx, depth, site, origin, args);
        } catch (FinchTrap t) {
            throw t;
        } catch (WordFailure f) {
            throw new FinchTrap(HostCode.WORD_FAILED, origin, "`" + impl.word().name() + "` failed: " + dev.finch.vm.boundary.HostText.external(f.getMessage()));
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError) && !(e instanceof OutOfMemoryError)) throw e;
            // The exception is the host's: it goes to the host's log, never into the program's diagnostic.
            dev.finch.vm.boundary.HostText.log("host word `" + impl.word().name() + "` threw", e);
            throw new FinchTrap(HostCode.WORD_FAILED, origin, "`" + impl.word().name() + "` failed: the host's code stopped with an error (the host's log has it)");
        }
        // The host's code may have taken long: the run stops now if it was cancelled or passed its deadline meanwhile,
        // and the late answer is discarded (nothing of it is published or committed).
        FinchTrap stop = ctx.stopNow();
        if (stop != null) throw stop;
        // A host's answer is a value like any other: bounded by the run's value limit, refused before it is kept.
        long bytes = Sizes.of(value);
        if (bytes > ctx.maxMemoryBytes()) {
            throw new FinchTrap(dev.finch.vm.engine.VmCode.MEMORY_LIMIT, origin, "`" + impl.word().name() + "` answered a value of about " + bytes
                    + " bytes, more than the run's limit of " + ctx.maxMemoryBytes());
        }
        charge(ctx, value);
        if (!site.outs().isEmpty() && checkable(site.outs().get(0)) && !Values.conforms(site.outs().get(0), value)) {
            throw new FinchTrap(HostCode.WORD_FAILED, origin, "`" + impl.word().name() + "` answered a value that is not a " + site.outs().get(0));
        }
        return site.outs().isEmpty() ? dev.finch.vm.value.Unit.INSTANCE : value;
    }
}
