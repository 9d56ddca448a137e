package dev.finch.vm.declare;

/**
 * Thrown by a host-installed word's implementation to fail the call with a message of its own: the run stops with
 * {@code E-HOST-017} and that message, cut to a bound (any other exception stops it with the same code and a message
 * that names nothing of it: the exception itself goes to the host's log, {@link dev.finch.vm.boundary.HostText#log}).
 * Like every run-time error, it commits nothing.
 */
public final class WordFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WordFailure(String message) { super(message, null, false, false); }
}
