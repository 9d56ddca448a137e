package dev.finch.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a part of the store runs its statements: on a connection of its own for each call (then {@link #atomic} work
 * is a transaction of its own), or on the connection of a {@link dev.finch.store.FinchStore#transaction transaction}
 * (then everything is part of it). Failures come out as {@link dev.finch.store.StoreException}s.
 */
interface Sql {
    /** Work on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Reads one value from a row. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Runs {@code work}, which reads or makes one write (a single statement is atomic by itself); {@code what} names it for a failure. */
    <T> T run(String what, Work<T> work);

    /** Runs {@code work}, which may make several writes, as one atomic step. */
    <T> T atomic(String what, Work<T> work);

    /** A prepared statement with its parameters bound, in order ({@code Long}, {@code Integer}, {@code String} or null). */
    static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                Object p = params[i];
                if (p == null) ps.setNull(i + 1, java.sql.Types.VARCHAR);
                else if (p instanceof Long l) ps.setLong(i + 1, l);
                else if (p instanceof Integer n) ps.setInt(i + 1, n);
                else if (p instanceof String s) ps.setString(i + 1, s);
                else throw new IllegalArgumentException("unsupported parameter " + p.getClass().getSimpleName());
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /** Runs an update; the number of rows it changed. */
    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return ps.executeUpdate();
        }
    }

    /** Every row a query returns, read by {@code row}. */
    static <T> List<T> query(Connection c, Row<T> row, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            List<T> out = new ArrayList<>();
            while (rs.next()) out.add(row.read(rs));
            return out;
        }
    }

    /** The first row a query returns, read by {@code row}. */
    static <T> Optional<T> first(Connection c, Row<T> row, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
        }
    }
}
