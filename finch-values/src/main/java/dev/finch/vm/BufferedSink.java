package dev.finch.vm;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finch's own buffered sink: the run hands each event to a queue and returns at once; a delivery thread of Finch's
 * passes the events on to the {@code target} sink in order, as they come (so say text still streams). The run never
 * waits for the target, so whatever the target does — block on a full pipe, never return — the run keeps its deadline
 * and its cancellation. That is why a run whose sink is one of these (or {@link OutputSink#NONE}) may run on the
 * calling thread (the engine's {@code CallerThread}), while any other sink is the embedder's code and sends the run to a worker.
 *
 * <p>Delivery may end after the run: call {@link #awaitDelivered} before reading what the target received (the
 * outcome itself always has all the say text). The target's exceptions are dropped, as a broken host sink's always are
 * (the outcome still has the text). Which kinds of event the target {@linkplain OutputSink#accepts accepts} is asked
 * once, when this sink is made.
 */
public final class BufferedSink implements OutputSink {
    /** Made on first use (a run without a buffered sink never starts its pool: docs/performance.md, Start-up). */
    private static final class Delivery {
        private static final AtomicLong THREADS = new AtomicLong();
        /** One delivery at a time per sink, on a thread of this pool: a target that never returns holds only its own thread. */
        static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "finch-output-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private final OutputSink target;
    private final Set<OutputEvent.Kind> accepted;
    private final ConcurrentLinkedQueue<OutputEvent> queue = new ConcurrentLinkedQueue<>();
    /** Events handed in and not yet delivered (or dropped). */
    private final AtomicInteger undelivered = new AtomicInteger();
    /** Whether a delivery task owns the queue. */
    private final AtomicBoolean delivering = new AtomicBoolean();
    private final Object delivered = new Object();

    private BufferedSink(OutputSink target) {
        this.target = target;
        Set<OutputEvent.Kind> kinds = EnumSet.noneOf(OutputEvent.Kind.class);
        for (OutputEvent.Kind k : OutputEvent.Kind.values()) {
            try {
                if (target.accepts(k)) kinds.add(k);
            } catch (RuntimeException refuses) {
                // A policy that throws refuses that kind.
            }
        }
        this.accepted = kinds;
    }

    /** A buffered sink delivering to {@code target}; {@code target} itself when it is none or already buffered. */
    public static OutputSink of(OutputSink target) {
        java.util.Objects.requireNonNull(target, "target");
        return target == OutputSink.NONE || target instanceof BufferedSink ? target : new BufferedSink(target);
    }

    /** Whether a run with this sink reaches no code of the embedder's through it (none, or a buffered sink). */
    public static boolean neverBlocks(OutputSink sink) { return sink == OutputSink.NONE || sink instanceof BufferedSink; }

    @Override public void say(String chunk) { event(new OutputEvent.Say(chunk)); }

    @Override public void event(OutputEvent event) {
        undelivered.incrementAndGet();
        queue.add(event);
        if (delivering.compareAndSet(false, true)) Delivery.POOL.execute(this::deliver);
    }

    @Override public boolean accepts(OutputEvent.Kind kind) { return accepted.contains(kind); }

    /** Delivers what is queued, in order, until the queue is empty and no event arrived meanwhile. */
    private void deliver() {
        while (true) {
            for (OutputEvent e; (e = queue.poll()) != null; ) {
                try {
                    target.event(e);
                } catch (RuntimeException | Error dropped) {
                    // The target's failure is the host's concern (the outcome has the text); later events are still delivered.
                } finally {
                    if (undelivered.decrementAndGet() == 0) {
                        synchronized (delivered) {
                            delivered.notifyAll();
                        }
                    }
                }
            }
            delivering.set(false);
            // An event queued after the loop saw the queue empty, but before the flag was cleared, is delivered here.
            if (queue.isEmpty() || !delivering.compareAndSet(false, true)) return;
        }
    }

    /** Waits until every event handed in so far has reached the target; false when {@code timeout} passed first. */
    public boolean awaitDelivered(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        synchronized (delivered) {
            while (undelivered.get() > 0) {
                long left = until - System.nanoTime();
                if (left <= 0) return false;
                TimeUnit.NANOSECONDS.timedWait(delivered, left);
            }
        }
        return true;
    }

    /** Waits, without a bound, until every event handed in so far has reached the target. */
    public void awaitDelivered() throws InterruptedException {
        synchronized (delivered) {
            while (undelivered.get() > 0) delivered.wait();
        }
    }
}
