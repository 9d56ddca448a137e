package dev.finch.cli;

/** A mistake in how the command was invoked: a short message and exit status 2 (decisions D2). */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) { super(message, null, false, false); }
}
