package dev.finch.vm.boundary;

import java.util.Optional;

/**
 * Why the run a host serves must stop now — cancelled, or past its deadline — or empty while it may go on: what host
 * code that waits (a process, a server's answer) polls, to give up as soon as the run does. Costs no steps.
 */
@FunctionalInterface
public interface Watch {
    /** Why the run must stop now, or empty while it may go on. */
    Optional<String> stop();

    /** A watch that never stops: work outside any run's deadline or cancellation. */
    Watch NONE = Optional::empty;
}
