package dev.finch.store;

/**
 * Where what should outlive a process is kept: session images, continue-once claims, the effect journal, remembered
 * grants and memory trees — one store that every process of a deployment can share. Each method of its parts
 * ({@link StoreAccess}) is one atomic step on its own; {@link #transaction} makes several steps one (a run's memory
 * writes and its commit, together or not at all). Every failure is a {@link StoreException} with a {@link StoreCode}.
 *
 * <p>Stores: {@code dev.finch.store.jdbc.FinchStores} (module {@code finch-store}) opens an embedded database in a file
 * (SQLite) or a PostgreSQL database; the same contract test suite runs against both. A store is thread-safe; its
 * parts may be used from any thread, a transaction's view only inside its work, on the thread that runs it.
 */
public interface FinchStore extends StoreAccess, AutoCloseable {
    /** Work done in one transaction, given the transaction's view of the store. */
    @FunctionalInterface
    interface Work<T> {
        T run(StoreAccess tx);
    }

    /**
     * Runs {@code work} in one transaction and commits it: every write it made through {@code tx} happens, or — when
     * {@code work} throws, or the commit fails — none does (the exception propagates as it was; a failed commit is a
     * {@link StoreException}). A transaction holds the store's write lock while it runs on an embedded store, so keep it
     * short, and do no effect inside it. A transaction inside another on the same thread is refused ({@code E-STORE-009}).
     */
    <T> T transaction(Work<T> work);

    /** The bounds this store enforces. */
    StoreLimits limits();

    /** What this store is, for a person: {@code sqlite /home/ada/.finch/state/finch.db}, {@code postgresql //db:5432/finch}. */
    String description();

    /** Closes the store (its connections); every later call fails with {@code E-STORE-008}. Closing twice is harmless. */
    @Override void close();
}
