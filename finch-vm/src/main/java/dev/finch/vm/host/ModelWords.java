package dev.finch.vm.host;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.Vocabulary;
import java.util.List;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;

/**
 * The model words, called from both tiers: {@code model-ask} passes the host boundary with the requirement
 * {@code model.ask(grant)} and is then dispatched to the run's {@link ModelHost}.
 */
public final class ModelWords {
    private ModelWords() { }

    public static Object ask(Ctx ctx, Object context, String grant, String key, String site, Origin o) {
        ModelHost m = ctx.host.config().models();
        if (m == null) throw new FinchTrap(HostCode.NO_BINDING, o, "no model host is installed in this run, so `" + grant + "` cannot be asked");
        // The one choke point: the requirement is the grant's model, so only a host that granted model.ask(grant)
        // lets the ask through; the binding runs after authorization, at most once. model-ask declares no effect
        // in its signature yet (µNorman's effects are not IR effects), so it has no resume point: it must not pause,
        // and an ask that would (not granted, or a deferred host) fails closed before anything is sent.
        Capability requirement = Capability.of("model.ask", grant);
        if (ctx.host.config().deferred() || !ctx.host.grants().permits(requirement)) {
            throw new FinchTrap(HostCode.MODEL_NOT_GRANTED, o, "the ask of `" + grant + "` needs " + requirement
                    + (ctx.host.config().deferred() ? ", and a deferred host cannot answer asks yet" : ", which this run was not granted"));
        }
        return ctx.host.await(ctx, "model-ask", requirement, List.of(grant, site),
                Vocabulary.word("model-ask").orElseThrow().overloads().get(0).outs(), o, () -> m.ask(context, grant, key, site, o));
    }

    /** Budgets bound the run's asks; without a model host nothing can spend, so a scope limits nothing. */
    public static void budgetOpen(Ctx ctx, Object cost, Object time, Origin o) {
        ModelHost m = ctx.host.config().models();
        if (m != null) m.budgetOpen((dev.finch.vm.value.Money) cost, (dev.finch.vm.value.Duration) time);
    }

    public static void budgetClose(Ctx ctx, Origin o) {
        ModelHost m = ctx.host.config().models();
        if (m != null) m.budgetClose();
    }

    public static Object budgetRemaining(Ctx ctx, Origin o) {
        ModelHost m = ctx.host.config().models();
        return m == null ? ModelHost.UNLIMITED : m.remaining();
    }
}
