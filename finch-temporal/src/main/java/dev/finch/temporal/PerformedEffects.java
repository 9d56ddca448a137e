package dev.finch.temporal;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The record of performed requests by idempotency key ({@code <execution id>#<sequence>}, the contract's key): what
 * makes "each effect runs once per sequence" hold when Temporal runs an activity again — a retry after a worker died
 * between performing and reporting, or a timeout whose first attempt still finished. Once an activity's result is in
 * the workflow history, Temporal never runs it again; this covers the window before.
 *
 * <p>{@link #inMemory()} covers one worker process. Workers that share a task queue share the window too: give them
 * one store (a table with the key as primary key, written in the same transaction as the effect where the effect
 * allows it).
 */
public interface PerformedEffects {
    /** The recorded answer (VmResume JSON) for {@code key}, if it was performed. */
    Optional<String> recorded(String key);

    /** Records {@code answer} for {@code key}; the first record of a key wins and is returned. */
    String record(String key, String answer);

    /** The key of request {@code sequence} of {@code executionId}. */
    static String key(String executionId, long sequence) { return executionId + "#" + sequence; }

    /**
     * The recorded answer for {@code key}, or {@code perform}'s, recorded — performed at most once per key in this
     * store however often it is asked, even by two threads at once.
     */
    default String once(String key, Supplier<String> perform) {
        Optional<String> known = recorded(key);
        if (known.isPresent()) return known.get();
        synchronized (this) {
            known = recorded(key);
            return known.isPresent() ? known.get() : record(key, perform.get());
        }
    }

    /** A store in this process's memory. */
    static PerformedEffects inMemory() {
        ConcurrentHashMap<String, String> answers = new ConcurrentHashMap<>();
        return new PerformedEffects() {
            @Override public Optional<String> recorded(String key) { return Optional.ofNullable(answers.get(key)); }
            @Override public String record(String key, String answer) {
                String first = answers.putIfAbsent(key, answer);
                return first == null ? answer : first;
            }
        };
    }
}
