package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import dev.finch.ir.diag.Origin;
import java.util.List;

/**
 * The binding a run's tool calls go to (word {@code tool-call}), installed by whoever runs the program (the µNorman
 * test harness installs a scripted one). It answers a {@code result}: the validated value (a new
 * {@link ToolCapability} for a kernel's {@code fork}), or a failure value ({@code Invalid}, {@code ToolError}, …);
 * a checked run-time error (an undeclared operation, an exhausted script) is thrown as a trap. The key identifies
 * the operation's declared result type to the binding.
 */
@FunctionalInterface
public interface ToolHost {
    /** One call: the capability, the operation, its arguments as text, and the declared result type's key. */
    Object call(ToolCapability capability, String op, List<String> args, String key, Origin origin) throws HostFailure;

    /**
     * A call a deferred host answered itself: {@code result} is the tool's result text, untrusted, read exactly like
     * the tool's own (a declared Text verbatim with its bound, another type as JSON). By default a host cannot.
     */
    default Object answered(ToolCapability capability, String op, List<String> args, String key, String result, Origin origin) throws HostFailure {
        throw new HostFailure(HostCode.NO_BINDING, "this tool host cannot take a deferred host's answer to a call of `" + capability.grant() + "`");
    }

    /**
     * True when calls may run off the run's baton, from several concurrent steps at once (thread-safe bindings doing
     * real I/O): the waits of concurrent steps then overlap in real time. False (the default): each call runs with
     * the baton, one at a time, in the scheduler's deterministic order.
     */
    default boolean concurrent() { return false; }
}
