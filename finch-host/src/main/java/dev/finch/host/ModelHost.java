package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.ir.diag.Origin;

/**
 * The binding a run's model asks go to (word {@code model-ask}), installed by whoever runs the program (the µNorman
 * test harness installs a scripted one). It answers a {@code result}: the validated value, or a failure value
 * ({@code Invalid}, {@code ToolError}, {@code OverBudget}, {@code PastDeadline}); a checked run-time error (an
 * exhausted script) is thrown as a trap. The grant names a model the program declared; the key identifies the
 * ask's answer type to the binding. Authority stays unforgeable: the model is never a value of the program, only
 * the grant's name at the ask site.
 */
@FunctionalInterface
public interface ModelHost extends dev.finch.vm.boundary.StrandStates {
    /** One ask: the context (a µNorman list of Messages, as VM values), the grant, the answer type's key, the site. */
    Object ask(Object context, String grant, String key, String site, Origin origin) throws HostFailure;

    /**
     * An ask a deferred host answered itself ({@code HostConfig.withDeferred}): {@code reply} is the model's reply
     * text as the host obtained it, untrusted, to be read exactly like a provider's reply (validated against the
     * ask's type, {@code Invalid} with the raw text). By default a host cannot take such answers.
     */
    default Object answered(Object context, String grant, String key, String site, String reply, Origin origin) throws HostFailure {
        throw new HostFailure(HostCode.NO_BINDING, "this model host cannot take a deferred host's answer to the ask of `" + grant + "`");
    }

    /** Opens a budget scope of at most {@code cost} and {@code time} more (nesting takes the smaller). */
    default void budgetOpen(dev.finch.vm.value.Money cost, dev.finch.vm.value.Duration time) { }

    /** Closes the innermost budget scope; what it spent stays spent outside. */
    default void budgetClose() { }

    /** The money and time left in the innermost scope, as a {@code record{cost:money,time:duration}}. */
    default Object remaining() { return UNLIMITED; }

    /** Unlimited money and time. */
    Object UNLIMITED = new dev.finch.vm.value.RecordValue(new Object[] {dev.finch.vm.value.Money.UNLIMITED, dev.finch.vm.value.Duration.UNLIMITED});
}
