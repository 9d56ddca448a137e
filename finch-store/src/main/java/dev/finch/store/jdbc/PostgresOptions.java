package dev.finch.store.jdbc;

import dev.finch.store.StoreLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link FinchStores#postgres(PostgresOptions)} reaches a PostgreSQL database.
 *
 * @param jdbcUrl           {@code jdbc:postgresql://host:port/database} (a {@code currentSchema} parameter puts the
 *                          store's tables in that schema)
 * @param user              the role to log in as; it creates the store's tables the first time
 * @param password          its password (null: none)
 * @param maxConnections    the most connections the store's pool holds
 * @param connectionTimeout how long a call waits for a connection before it fails with {@code E-STORE-002}
 * @param limits            the bounds the store enforces
 */
public record PostgresOptions(String jdbcUrl, String user, String password, int maxConnections, Duration connectionTimeout,
                              StoreLimits limits) {
    public PostgresOptions {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        Objects.requireNonNull(limits, "limits");
        if (maxConnections < 1) throw new IllegalArgumentException("a pool holds at least one connection");
    }

    /** Options with 8 connections, a 10-second wait for one, and the default limits. */
    public static PostgresOptions of(String jdbcUrl, String user, String password) {
        return new PostgresOptions(jdbcUrl, user, password, 8, Duration.ofSeconds(10), StoreLimits.DEFAULTS);
    }

    /** These options with another pool size. */
    public PostgresOptions withMaxConnections(int connections) {
        return new PostgresOptions(jdbcUrl, user, password, connections, connectionTimeout, limits);
    }

    /** These options with other limits. */
    public PostgresOptions withLimits(StoreLimits other) {
        return new PostgresOptions(jdbcUrl, user, password, maxConnections, connectionTimeout, other);
    }

    /** Never shows the password. */
    @Override public String toString() {
        return "PostgresOptions[" + jdbcUrl.replaceFirst("\\?.*$", "") + ", user=" + user + ", maxConnections=" + maxConnections + "]";
    }
}
