package dev.finch.store.jdbc;

import dev.finch.store.Claims;
import dev.finch.store.FinchStore;
import dev.finch.store.Images;
import dev.finch.store.Journal;
import dev.finch.store.Memory;
import dev.finch.store.RememberedGrants;
import dev.finch.store.Schedules;
import dev.finch.store.StoreAccess;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import javax.sql.DataSource;

/**
 * A {@link FinchStore} over a JDBC {@link DataSource} whose schema is up to date: each call of a part borrows a
 * connection for itself; a transaction holds one connection for its work. The same statements serve SQLite and
 * PostgreSQL ({@link Dialect} says what differs).
 */
final class JdbcStore implements FinchStore {
    /** The parts of a store over one {@link Sql}. */
    private record Parts(Images images, Claims claims, Journal journal, RememberedGrants grants, Memory memory, Schedules schedules)
            implements StoreAccess {
        static Parts over(Sql sql, StoreLimits limits, Clock clock) {
            return new Parts(new SqlImages(sql, limits, clock), new SqlClaims(sql, clock), new SqlJournal(sql, limits, clock),
                    new SqlGrants(sql, limits), new SqlMemory(sql, limits, clock), new SqlSchedules(sql, limits));
        }
    }

    private final DataSource dataSource;
    private final AutoCloseable owned;
    private final Dialect dialect;
    private final StoreLimits limits;
    private final String description;
    private final Clock clock = Clock.systemUTC();
    private final ThreadLocal<Boolean> inTransaction = new ThreadLocal<>();
    private final Parts parts;
    private volatile boolean closed;

    /** A store over {@code dataSource}, whose schema is already migrated; {@code owned} is closed with it (null: nothing). */
    JdbcStore(DataSource dataSource, AutoCloseable owned, Dialect dialect, StoreLimits limits, String description) {
        this.dataSource = dataSource;
        this.owned = owned;
        this.dialect = dialect;
        this.limits = limits;
        this.description = description;
        this.parts = Parts.over(new Autonomous(), limits, clock);
    }

    @Override public Images images() { return parts.images(); }

    @Override public Claims claims() { return parts.claims(); }

    @Override public Journal journal() { return parts.journal(); }

    @Override public RememberedGrants grants() { return parts.grants(); }

    @Override public Memory memory() { return parts.memory(); }

    @Override public Schedules schedules() { return parts.schedules(); }

    @Override public StoreLimits limits() { return limits; }

    @Override public String description() { return description; }

    @Override public <T> T transaction(Work<T> work) {
        if (work == null) throw new StoreException(StoreCode.BAD_KEY, "a transaction's work is missing");
        ensureOpen();
        if (Boolean.TRUE.equals(inTransaction.get())) {
            throw new StoreException(StoreCode.NESTED, "a transaction was started inside another one on the same thread; nothing ran");
        }
        Connection c = connect("begin a transaction");
        inTransaction.set(Boolean.TRUE);
        Bound tx = new Bound(c);
        try {
            try {
                c.setAutoCommit(false);
            } catch (SQLException e) {
                throw failure("begin a transaction", e);
            }
            T result;
            try {
                result = work.run(Parts.over(tx, limits, clock));
            } catch (RuntimeException | Error e) {
                tx.ended = true;
                rollback(c, e);
                throw e;
            }
            tx.ended = true;
            try {
                c.commit();
            } catch (SQLException e) {
                rollback(c, e);
                throw failure("commit a transaction", e);
            }
            return result;
        } finally {
            tx.ended = true;
            inTransaction.remove();
            release(c);
        }
    }

    @Override public void close() {
        if (closed) return;
        closed = true;
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                // The pool's own shutdown failed; there is nothing left to release that a caller could act on.
            }
        }
    }

    @Override public String toString() { return "FinchStore(" + description + ")"; }

    private void ensureOpen() {
        if (closed) throw new StoreException(StoreCode.CLOSED, "the store is closed");
    }

    private Connection connect(String what) {
        try {
            return dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            throw failure(what, e);
        }
    }

    private StoreException failure(String what, Throwable e) {
        if (closed && !(e instanceof StoreException)) return new StoreException(StoreCode.CLOSED, "could not " + what + ": the store is closed", e);
        return Failures.of(dialect, what, e);
    }

    private static void rollback(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private static void release(Connection c) {
        try {
            if (!c.getAutoCommit()) c.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
            // The pool resets a connection it gets back; a failure here changes nothing the caller did.
        }
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // As above: the connection is the pool's again, or gone.
        }
    }

    /** Each call on a connection of its own: outside any transaction of this thread. */
    private final class Autonomous implements Sql {
        @Override public <T> T run(String what, Work<T> work) {
            enter();
            Connection c = connect(what);
            try {
                return work.run(c);
            } catch (SQLException | RuntimeException e) {
                throw failure(what, e);
            } finally {
                release(c);
            }
        }

        @Override public <T> T atomic(String what, Work<T> work) {
            enter();
            Connection c = connect(what);
            try {
                c.setAutoCommit(false);
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw failure(what, e);
            } finally {
                release(c);
            }
        }

        private void enter() {
            ensureOpen();
            if (Boolean.TRUE.equals(inTransaction.get())) {
                // On an embedded store this call would wait for the write lock its own thread's transaction holds.
                throw new StoreException(StoreCode.NESTED, "the store was used directly inside a transaction on the same thread; "
                        + "use the transaction's view (its argument) instead; nothing ran");
            }
        }
    }

    /** Every call on the connection of one transaction, until it ends. */
    private final class Bound implements Sql {
        private final Connection c;
        private volatile boolean ended;

        Bound(Connection c) { this.c = c; }

        @Override public <T> T run(String what, Work<T> work) {
            if (ended) throw new StoreException(StoreCode.CLOSED, "could not " + what + ": its transaction has ended");
            ensureOpen();
            try {
                return work.run(c);
            } catch (SQLException | RuntimeException e) {
                throw failure(what, e);
            }
        }

        @Override public <T> T atomic(String what, Work<T> work) { return run(what, work); }
    }
}
