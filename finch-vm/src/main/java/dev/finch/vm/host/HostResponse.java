package dev.finch.vm.host;

import dev.finch.capabilities.Grant;

/**
 * How a suspended request is answered. For a missing grant: {@link Approved} (with the grant to add) or
 * {@link Denied}; in deferred-host mode the contract's {@code VmResume} response: {@link Result} (the operation's
 * result, produced by the host), {@link Denied} or {@link Cancelled}. Each names the sequence it answers.
 */
public sealed interface HostResponse {
    long sequence();

    record Approved(long sequence, Grant grant) implements HostResponse { }

    record Result(long sequence, Object value) implements HostResponse { }

    record Denied(long sequence, String reason) implements HostResponse { }

    record Cancelled(long sequence, String reason) implements HostResponse { }
}
