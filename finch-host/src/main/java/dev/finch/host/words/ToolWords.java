package dev.finch.host.words;

import dev.finch.host.ToolCapability;
import dev.finch.host.ToolHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The tool words, called from both tiers: {@code tool-call} passes the host boundary with the requirement
 * {@code tool.call(grant,op)} and is then dispatched to the run's {@link ToolHost}.
 */
public final class ToolWords {
    private ToolWords() { }

    /** The grant's own capability value (instance 0); authority is checked per call, never by holding the value. */
    @Word(name = "tool-capability", category = Category.CONTROL,
            doc = "The capability value a µNorman tool grant names (and whether the tool keeps state); it confers nothing by itself (every call needs tool.call(grant,op)).")
    @Overload(sig = "string bool -> capability", refines = true)
    public static Object capability(Ctx ctx, String grant, boolean stateful, Origin o) { return new ToolCapability(grant, 0, stateful); }

    @Word(name = "capability-grant", category = Category.CONTROL, doc = "The name of the grant a tool capability comes from (what a call through it requires: tool.call(name,op)).")
    @Overload(sig = "capability -> string")
    public static String grant(Object capability) { return ((ToolCapability) capability).grant(); }

    @Word(name = "tool-call", category = Category.CONTROL,
            doc = "Call one operation of a granted tool once (capability, operation, arguments, result key): the validated result or a failure, through the run's tool host.")
    @Overload(sig = "capability string list<string> string -> result<b,e> ! {tool.call(*,*)}", requires = "tool.call($0,$1)")
    public static Object call(Ctx ctx, Object capability, String op, Object args, String key, Type.Fn site, Origin o) {
        ToolCapability cap = (ToolCapability) capability;
        ToolHost t = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(ToolHost.class);
        if (t == null) throw new FinchTrap(HostCode.NO_BINDING, o, "no tool host is installed in this run, so `" + cap.grant() + "` cannot be called");
        // A stateful tool serves one step at a time: a second concurrent step reaching the same instance is a checked
        // run-time error, before anything is authorized or sent.
        // Forking is not a use (each step may fork its own).
        if (cap.stateful() && !op.equals("fork")) dev.finch.vm.runtime.Strands.claim(ctx, cap, "the stateful tool `" + cap + "`", o);
        // As for model-ask: one choke point; the call may pause for approval or a deferred answer and resume here.
        Capability requirement = Capability.of("tool.call", cap.grant(), op);
        var inputs = EffectRequest.inputs(site, capability, op, args, key);
        List<String> texts = new ArrayList<>();
        for (Object a : (ListValue) args) texts.add((String) a);
        if (dev.finch.vm.boundary.RunHost.of(ctx).config().deferred()) {
            // A deferred host answers the call itself, with the result text, which is then read like the tool's.
            Object result = dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "tool-call", requirement, inputs, List.of(Type.STRING), o, () -> {
                throw new HostFailure(HostCode.NO_BINDING, "a deferred host answers calls itself");
            });
            if (result == null) return null;
            try {
                return t.answered(cap, op, List.copyOf(texts), key, (String) result, o);
            } catch (HostFailure f) {
                throw new FinchTrap(f.code(), o, f.getMessage());
            }
        }
        return dev.finch.vm.boundary.RunHost.of(ctx).await(ctx, "tool-call", requirement, inputs, site.outs(), o, () -> dispatch(t, cap, op, List.copyOf(texts), key, o));
    }

    /** The binding's call: off the baton when the binding allows it, so concurrent steps' calls overlap. */
    private static Object dispatch(ToolHost t, ToolCapability cap, String op, List<String> args, String key, Origin o) throws HostFailure {
        if (!t.concurrent()) return t.call(cap, op, args, key, o);
        Object[] failure = {null};
        Object r = dev.finch.vm.runtime.Strands.offBaton(() -> {
            try {
                return t.call(cap, op, args, key, o);
            } catch (HostFailure f) {
                failure[0] = f;
                return null;
            }
        });
        if (failure[0] != null) throw (HostFailure) failure[0];
        return r;
    }
}
