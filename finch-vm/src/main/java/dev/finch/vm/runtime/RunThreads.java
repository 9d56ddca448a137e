package dev.finch.vm.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads Finch runs programs on: daemons with a big stack, named {@code <prefix><n>}. Every prefix starts with
 * {@code finch-run-}, which is how a thread is known to be one of the VM's own run threads. A named class, not a
 * lambda: the pools are made on a fresh JVM's first run that needs one, where linking a lambda costs about 0.7 ms.
 */
public final class RunThreads implements ThreadFactory {
    /** A run thread's stack: generous, so that {@code Limits.maxDepth()} is reached long before the JVM's stack ends. */
    public static final long STACK_BYTES = 1L << 29;

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    /** Threads named {@code prefix} and a number. */
    public RunThreads(String prefix) { this.prefix = prefix; }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(null, r, prefix + count.incrementAndGet(), STACK_BYTES);
        t.setDaemon(true);
        return t;
    }
}
