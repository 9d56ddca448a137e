package dev.finch.cli;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.Executable;

/**
 * A hang guard for the command-line tests' dynamic cases (which JUnit's {@code @Timeout} does not reach): the body runs
 * on a thread of its own, with the JVM's default stack, and a broken build that hangs is stopped after a minute. It never
 * bounds how long work may take — what a case asserts is the outcome its program ends in.
 */
final class HangGuard {
    /** A minute: far past anything a case takes on a loaded machine. */
    static final long MILLIS = 60_000;

    private HangGuard() { }

    /** Runs {@code body}, rethrowing what it threw; a body still running after the guard fails the case. */
    static void run(String what, Executable body) throws Throwable {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.execute();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "hang-guard: " + what);
        t.setDaemon(true);
        t.start();
        t.join(MILLIS);
        if (t.isAlive()) {
            t.interrupt();
            throw new AssertionError(what + " did not end within the hang guard (a minute): it hangs");
        }
        if (failure.get() != null) throw failure.get();
    }
}
