package dev.finch.vm.boundary;

import dev.finch.capabilities.Grant;

/**
 * How a suspended request is answered. For a missing grant: {@link Approved} (with the grant to add) or
 * {@link Denied}; in deferred-host mode the contract's {@code VmResume} response: {@link Result} (the operation's
 * result, produced by the host), {@link Denied} or {@link Cancelled}. Each names the sequence it answers.
 */
public sealed interface HostResponse {
    long sequence();

    record Approved(long sequence, Grant grant) implements HostResponse { }

    /** The operation's result as the VM holds it (see {@link dev.finch.vm.TypedValue}); {@link #result} makes one from a public value. */
    record Result(long sequence, Object value) implements HostResponse { }

    /** A deferred host's result {@code value} for request {@code sequence}. */
    static Result result(long sequence, dev.finch.vm.Value value) { return new Result(sequence, dev.finch.vm.TypedValue.of(value).value()); }

    /** The result of a request that answers nothing (its expected row is empty). */
    static Result done(long sequence) { return new Result(sequence, dev.finch.vm.value.Unit.INSTANCE); }

    record Denied(long sequence, String reason) implements HostResponse { }

    record Cancelled(long sequence, String reason) implements HostResponse { }
}
