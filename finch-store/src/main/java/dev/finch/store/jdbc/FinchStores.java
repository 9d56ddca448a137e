package dev.finch.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.finch.store.FinchStore;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Opens a {@link FinchStore}: {@linkplain #embedded(Path) embedded}, a SQLite database in a file of a state directory
 * (one machine; any number of processes on it), or {@linkplain #postgres(PostgresOptions) PostgreSQL} (any number of
 * processes on any number of machines). Either way the schema is brought up to date when the store opens.
 */
public final class FinchStores {
    /** The embedded database's file in a state directory. */
    public static final String DATABASE_FILE = "finch.db";

    /** How long an embedded store waits for another writer (a thread or a process) before it fails with E-STORE-002. */
    static final int BUSY_TIMEOUT_MS = 10_000;

    /** Migrations of embedded stores in this JVM, one at a time (the file lock orders them between processes). */
    private static final Object MIGRATING = new Object();

    private FinchStores() { }

    /** The embedded store of {@code stateDir} (created if absent), with the default limits. */
    public static FinchStore embedded(Path stateDir) { return embedded(stateDir, StoreLimits.DEFAULTS); }

    /**
     * The embedded store of {@code stateDir}: the SQLite database {@value #DATABASE_FILE} in it, created with the
     * directory if absent. Its journal is write-ahead (readers do not wait for a writer; a commit is on disk when it
     * returns), and a writer waits up to 10 seconds for another — in this process or any other on the machine.
     * {@code E-STORE-001} when the directory or file cannot be used, {@code E-STORE-007} when the schema cannot.
     */
    public static FinchStore embedded(Path stateDir, StoreLimits limits) {
        if (stateDir == null || limits == null) throw new StoreException(StoreCode.BAD_KEY, "a state directory and limits are needed");
        Path dir = stateDir.toAbsolutePath().normalize();
        Path file = dir.resolve(DATABASE_FILE);
        try {
            Files.createDirectories(dir);
        } catch (IOException | RuntimeException e) {
            throw new StoreException(StoreCode.UNAVAILABLE, "could not create the state directory " + dir, e);
        }
        SQLiteConfig sqlite = new SQLiteConfig();
        sqlite.setJournalMode(SQLiteConfig.JournalMode.WAL);
        sqlite.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        sqlite.setBusyTimeout(BUSY_TIMEOUT_MS);
        sqlite.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        SQLiteDataSource source = new SQLiteDataSource(sqlite);
        source.setUrl("jdbc:sqlite:" + file);
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("finch-store-sqlite");
        pool.setDataSource(source);
        pool.setMaximumPoolSize(4);
        pool.setMinimumIdle(1);
        pool.setConnectionTimeout(BUSY_TIMEOUT_MS);
        pool.setInitializationFailTimeout(1);
        // The first connection to a new file turns its journal to write-ahead, which needs the file to itself: the pool is
        // made and the schema brought up to date holding the directory's lock (and this JVM's), so stores opened together
        // on one new directory, in this process or others, take turns instead of finding the file busy.
        HikariDataSource ds;
        synchronized (MIGRATING) {
            try (FileChannel lock = FileChannel.open(dir.resolve(DATABASE_FILE + ".migrating"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = lock.lock()) {
                ds = open(pool, Dialect.SQLITE, "open the store in " + dir);
                try {
                    Schema.migrate(ds, Dialect.SQLITE);
                } catch (RuntimeException e) {
                    ds.close();
                    throw Failures.of(Dialect.SQLITE, "bring the store's schema up to date", e);
                }
            } catch (IOException e) {
                throw new StoreException(StoreCode.UNAVAILABLE, "could not lock the state directory " + dir + " to bring its schema up to date", e);
            }
        }
        return new JdbcStore(ds, ds, Dialect.SQLITE, limits, "sqlite " + file);
    }

    /** The PostgreSQL store at {@code jdbcUrl}, logging in as {@code user}, with the default pool and limits. */
    public static FinchStore postgres(String jdbcUrl, String user, String password) {
        return postgres(PostgresOptions.of(jdbcUrl, user, password));
    }

    /**
     * The PostgreSQL store {@code options} describe, over a HikariCP pool of its own that {@link FinchStore#close()}
     * closes. {@code E-STORE-001} when the database cannot be reached, {@code E-STORE-007} when the schema cannot be used.
     */
    public static FinchStore postgres(PostgresOptions options) {
        if (options == null) throw new StoreException(StoreCode.BAD_KEY, "PostgreSQL options are needed");
        if (!options.jdbcUrl().startsWith("jdbc:postgresql:")) {
            throw new StoreException(StoreCode.UNAVAILABLE, "\"" + where(options.jdbcUrl()) + "\" is not a PostgreSQL JDBC URL (it names another database, or none)");
        }
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("finch-store-postgresql");
        pool.setDriverClassName("org.postgresql.Driver");
        pool.setJdbcUrl(options.jdbcUrl());
        pool.setUsername(options.user());
        if (options.password() != null) pool.setPassword(options.password());
        pool.setMaximumPoolSize(options.maxConnections());
        pool.setMinimumIdle(1);
        pool.setConnectionTimeout(Math.max(250, options.connectionTimeout().toMillis()));
        pool.setInitializationFailTimeout(1);
        pool.addDataSourceProperty("ApplicationName", "finch");
        HikariDataSource ds = open(pool, Dialect.POSTGRESQL, "open the store at " + where(options.jdbcUrl()));
        try {
            Schema.migrate(ds, Dialect.POSTGRESQL);
        } catch (RuntimeException e) {
            ds.close();
            throw Failures.of(Dialect.POSTGRESQL, "bring the store's schema up to date", e);
        }
        return new JdbcStore(ds, ds, Dialect.POSTGRESQL, options.limits(), "postgresql " + where(options.jdbcUrl()));
    }

    /**
     * The PostgreSQL store in the database {@code dataSource} reaches — a pool the application owns, which
     * {@link FinchStore#close()} leaves open.
     */
    public static FinchStore postgres(DataSource dataSource, StoreLimits limits) {
        if (dataSource == null || limits == null) throw new StoreException(StoreCode.BAD_KEY, "a data source and limits are needed");
        Schema.migrate(dataSource, Dialect.POSTGRESQL);
        return new JdbcStore(dataSource, null, Dialect.POSTGRESQL, limits, "postgresql (the application's data source)");
    }

    private static HikariDataSource open(HikariConfig pool, Dialect dialect, String what) {
        try {
            return new HikariDataSource(pool);
        } catch (RuntimeException e) {
            throw new StoreException(StoreCode.UNAVAILABLE, "could not " + what + " (the host has the cause)", e);
        }
    }

    /** A JDBC URL without its scheme and its parameters (which may hold a password). */
    private static String where(String jdbcUrl) {
        return jdbcUrl.replaceFirst("^jdbc:(postgresql:)?", "").replaceFirst("\\?.*$", "");
    }
}
