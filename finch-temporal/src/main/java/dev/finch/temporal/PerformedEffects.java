package dev.finch.temporal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The record of performed requests by idempotency key ({@code <execution id>#<sequence>}, the contract's key): what
 * makes "each effect runs once per sequence" hold when Temporal runs an activity again — a retry after a worker died
 * between performing and reporting, or a timeout whose first attempt still finished. Once an activity's result is in
 * the workflow history, Temporal never runs it again; this covers the window before.
 *
 * <p>{@link #inMemory()} covers one worker process. Workers that share a task queue share the window too: give them
 * one store (a table with the key as primary key: claim the key, perform, record the answer — in the same transaction
 * as the effect where the effect allows it).
 */
@FunctionalInterface
public interface PerformedEffects {
    /**
     * The answer (VmResume JSON) recorded for {@code key}, or {@code perform}'s, recorded: performed at most once per key
     * however often, and however concurrently, it is asked. A {@code perform} that throws records nothing (whether the
     * effect happened is then unknown to the store), so a later call performs again.
     */
    String once(String key, Supplier<String> perform);

    /** The key of request {@code sequence} of {@code executionId}. */
    static String key(String executionId, long sequence) { return executionId + "#" + sequence; }

    /**
     * A Finch store's effect journal ({@code store.journal()}), which every worker on the store shares: a key's intent
     * is recorded before it is performed and its answer after, so a retry anywhere gets the recorded answer, and a key
     * that was begun and never answered (a worker died between) is not performed again — the activity fails instead.
     */
    static PerformedEffects of(dev.finch.store.Journal journal) {
        java.util.Objects.requireNonNull(journal, "journal");
        return (key, perform) -> {
            int hash = key.lastIndexOf('#');
            String executionId = "temporal." + key.substring(0, hash);
            long sequence = Long.parseLong(key.substring(hash + 1));
            var recording = journal.record(new dev.finch.store.Journal.Intent(executionId, sequence, "temporal", "perform",
                    dev.finch.store.Journal.digest(key)));
            if (recording instanceof dev.finch.store.Journal.Recording.Recorded) {
                String answer = perform.get();
                journal.settle(executionId, sequence, new dev.finch.store.Journal.Receipt.Acknowledged(answer));
                return answer;
            }
            dev.finch.store.Journal.Status status = recording instanceof dev.finch.store.Journal.Recording.Duplicate d ? d.status()
                    : ((dev.finch.store.Journal.Recording.Conflict) recording).status();
            if (status instanceof dev.finch.store.Journal.Status.Settled settled
                    && settled.receipt() instanceof dev.finch.store.Journal.Receipt.Acknowledged a) {
                return a.result();
            }
            throw new IllegalStateException("request " + key + " was begun by a worker that never recorded its answer; it is not performed again");
        };
    }

    /** A store in this process's memory; different keys are performed concurrently. */
    static PerformedEffects inMemory() {
        ConcurrentHashMap<String, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
        return (key, perform) -> {
            CompletableFuture<String> mine = new CompletableFuture<>();
            CompletableFuture<String> first = answers.putIfAbsent(key, mine);
            if (first != null) return first.join();
            try {
                String answer = perform.get();
                mine.complete(answer);
                return answer;
            } catch (RuntimeException | Error e) {
                answers.remove(key, mine);
                mine.completeExceptionally(e);
                throw e;
            }
        };
    }
}
