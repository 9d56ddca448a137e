package dev.finch.store.jdbc;

import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;

/**
 * A database's failure in Finch's words: a {@link StoreException} whose code says what kind of failure it was and whose
 * message says what could not be done — never the driver's message, which stays in the cause, for the host.
 */
final class Failures {
    private Failures() { }

    /** {@code e}, which happened while trying to {@code what}, as a store failure. */
    static StoreException of(Dialect dialect, String what, Throwable e) {
        if (e instanceof StoreException s) return s;
        StoreCode code = classify(dialect, e);
        return new StoreException(code, "could not " + what + ": " + reason(code), e);
    }

    private static StoreCode classify(Dialect dialect, Throwable e) {
        boolean transientConnection = false;
        for (Throwable t = e; t != null; t = next(t)) {
            if (t instanceof SQLException s) {
                StoreCode c = dialect.classify(s);
                if (c != null) return c;
                if (s instanceof SQLTransientConnectionException) transientConnection = true;
                else if (s instanceof SQLRecoverableException) return StoreCode.UNAVAILABLE;
                else if (s instanceof SQLTransientException) return StoreCode.BUSY;
            }
        }
        // A pool that gave out no connection in time, for no reason the database stated: every connection was busy.
        return transientConnection ? StoreCode.BUSY : StoreCode.FAILED;
    }

    private static Throwable next(Throwable t) {
        if (t instanceof SQLException s && s.getNextException() != null && s.getNextException() != t) return s.getNextException();
        return t.getCause() == t ? null : t.getCause();
    }

    private static String reason(StoreCode code) {
        return switch (code) {
            case BUSY -> "the store is busy (another writer held it past the wait, or the database ended the transaction to resolve a conflict); nothing was written";
            case UNAVAILABLE -> "the store cannot be reached or used (its file, or the database server, refused it)";
            case CORRUPT -> "the database reports that its data is damaged";
            case SCHEMA -> "the store's schema cannot be used";
            case CLOSED -> "the store is closed";
            case TOO_LARGE, BAD_KEY, UNKNOWN_EFFECT, NESTED, EFFECT_RECORDED -> "refused";
            case FAILED -> "the database failed the operation (the host has the cause); nothing was written";
        };
    }
}
