package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The in-memory store performs each key once, even asked twice at once; a failed perform records nothing. */
class PerformedEffectsTest {
    @Test void twoAttemptsAtOnceOfOneKeyPerformOnce() throws Exception {
        PerformedEffects store = PerformedEffects.inMemory();
        AtomicInteger performed = new AtomicInteger();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<String> first = pool.submit(() -> store.once("s1-x-e1#1", () -> {
                performed.incrementAndGet();
                inside.countDown();
                await(release);
                return "answer";
            }));
            inside.await();
            Future<String> second = pool.submit(() -> store.once("s1-x-e1#1", () -> {
                performed.incrementAndGet();
                return "another";
            }));
            // Another key is not held up by the first one's effect.
            assertThat(store.once("s1-x-e1#2", () -> "other key")).isEqualTo("other key");
            release.countDown();
            assertThat(first.get()).isEqualTo("answer");
            assertThat(second.get()).isEqualTo("answer");
            assertThat(performed).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void aFailedPerformIsTriedAgain() {
        PerformedEffects store = PerformedEffects.inMemory();
        assertThatThrownBy(() -> store.once("k", () -> { throw new IllegalStateException("host down"); }))
                .hasMessage("host down");
        assertThat(store.once("k", () -> "done")).isEqualTo("done");
        assertThat(store.once("k", () -> "again")).isEqualTo("done");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
