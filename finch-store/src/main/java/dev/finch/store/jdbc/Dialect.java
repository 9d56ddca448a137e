package dev.finch.store.jdbc;

import dev.finch.store.StoreCode;
import java.sql.SQLException;

/**
 * What differs between the two databases: where the schema's migrations are, and how a database's failure is
 * classified. Everything else — every statement of the store — is the same SQL on both (upserts and inserts that
 * ignore a duplicate key are spelled {@code ON CONFLICT …}, which SQLite and PostgreSQL share).
 */
enum Dialect {
    SQLITE("sqlite"), POSTGRESQL("postgresql");

    private final String name;

    Dialect(String name) { this.name = name; }

    /** The folder of this database's migrations, under {@code dev/finch/store/jdbc/schema/}. */
    String schemaFolder() { return name; }

    /** The database's name, for a description. */
    String spelling() { return name; }

    /**
     * The store code of one failure of this database (not of its chain), or null when it says nothing Finch classifies.
     * SQLite reports a result code as the vendor code (extended codes keep the primary one in their low byte);
     * PostgreSQL reports an SQLSTATE.
     */
    StoreCode classify(SQLException e) {
        return switch (this) {
            case SQLITE -> switch (e.getErrorCode() & 0xff) {
                case 5, 6 -> StoreCode.BUSY;                      // SQLITE_BUSY, SQLITE_LOCKED
                case 8, 10, 13, 14, 15, 26 -> StoreCode.UNAVAILABLE; // READONLY, IOERR, FULL, CANTOPEN, PROTOCOL, NOTADB
                case 11 -> StoreCode.CORRUPT;                     // SQLITE_CORRUPT
                default -> null;
            };
            case POSTGRESQL -> postgres(e.getSQLState());
        };
    }

    private static StoreCode postgres(String state) {
        if (state == null || state.length() != 5) return null;
        switch (state) {
            case "40001", "40P01", "55P03", "57014": return StoreCode.BUSY; // serialization, deadlock, lock wait, cancelled
            case "XX001", "XX002": return StoreCode.CORRUPT;               // data or index corrupted
            default: break;
        }
        return switch (state.substring(0, 2)) {
            case "08", "28", "3D", "53", "57", "58" -> StoreCode.UNAVAILABLE; // connection, auth, no database, resources, shutdown, system
            default -> null;
        };
    }
}
