package dev.finch.host.words;

import dev.finch.host.ModelHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.util.List;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;

/**
 * The model words, called from both tiers: {@code model-ask} passes the host boundary with the requirement
 * {@code model.ask(grant)} and is then dispatched to the run's {@link ModelHost}.
 */
public final class ModelWords {
    private ModelWords() { }

    /** The model a µNorman model grant names; authority is checked per ask, never by holding the value. */
    @Word(name = "model-capability", category = Category.CONTROL,
            doc = "The model value a µNorman model grant names; it confers nothing by itself (every ask needs model.ask(grant)).")
    @Overload(sig = "string -> model", refines = true)
    public static Object capability(Ctx ctx, String grant, Origin o) { return new ModelCapability(grant); }

    @Word(name = "model-grant", category = Category.CONTROL, doc = "The name of the grant a model value names (what an ask through it requires: model.ask(name)).")
    @Overload(sig = "model -> string")
    public static String grant(Object model) { return ((ModelCapability) model).grant(); }

    @Word(name = "model-ask", category = Category.CONTROL,
            doc = "Ask a granted model once (context, grant, ask key, site): the validated answer or a failure, through the run's model host.")
    @Overload(sig = "a string string string -> result<b,e> ! {model.ask(*)}", requires = "model.ask($1)")
    public static Object ask(Ctx ctx, Object context, String grant, String key, String site, Type.Fn call, Origin o) {
        ModelHost m = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ModelHost.class);
        if (m == null) throw new FinchTrap(HostCode.NO_BINDING, o, "no model host is installed in this run, so `" + grant + "` cannot be asked");
        // The one choke point: the requirement is the grant's model, so only a host that granted model.ask(grant)
        // lets the ask through, and the binding runs after authorization, at most once. Like every host word it may
        // pause the run (for approval, or for a deferred host's answer) and resume exactly here.
        Capability requirement = Capability.of("model.ask", grant);
        // The request carries the word's inputs as they are: the context (the messages), the grant, the answer type's
        // key and the site, so a deferred host has what the model host would have had.
        var inputs = EffectRequest.inputs(call, context, grant, key, site);
        if (dev.finch.vm.boundary.RunHost.of(ctx).config().deferred()) {
            // A deferred host answers the ask itself, with the reply text, which is then read like any reply.
            Object reply = dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "model-ask", requirement, inputs, List.of(Type.STRING), o, () -> {
                throw new HostFailure(HostCode.NO_BINDING, "a deferred host answers asks itself");
            });
            if (reply == null) return null;
            try {
                return m.answered(context, grant, key, site, (String) reply, o);
            } catch (HostFailure f) {
                throw new FinchTrap(f.code(), o, f.getMessage());
            }
        }
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "model-ask", requirement, inputs, call.outs(), o, () -> m.ask(context, grant, key, site, o));
    }

    /** Budgets bound the run's asks; without a model host nothing can spend, so a scope limits nothing. */
    @Word(name = "budget-open", category = Category.CONTROL,
            doc = "Open a budget scope of at most this money and time (nesting takes the smaller; spending is charged outside too).")
    @Overload(sig = "money duration ->")
    public static void budgetOpen(Ctx ctx, Object cost, Object time, Origin o) {
        ModelHost m = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ModelHost.class);
        if (m != null) m.budgetOpen((dev.finch.vm.value.Money) cost, (dev.finch.vm.value.Duration) time);
    }

    @Word(name = "budget-close", category = Category.CONTROL, doc = "Close the innermost budget scope.")
    @Overload(sig = "->")
    public static void budgetClose(Ctx ctx, Origin o) {
        ModelHost m = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ModelHost.class);
        if (m != null) m.budgetClose();
    }

    @Word(name = "budget-remaining", category = Category.CONTROL, doc = "The money and time left in the innermost budget scope.")
    @Overload(sig = "-> record{cost:money,time:duration}")
    public static Object budgetRemaining(Ctx ctx, Origin o) {
        ModelHost m = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ModelHost.class);
        return m == null ? ModelHost.UNLIMITED : m.remaining();
    }
}
