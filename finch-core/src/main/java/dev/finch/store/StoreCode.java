package dev.finch.store;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * The diagnostics a {@link FinchStore} reports (phase {@code host}). The message of each says what could not be done in
 * Finch's words; no database or driver message reaches it — the original failure is the exception's cause, for the host.
 */
public enum StoreCode implements DiagnosticCode {
    /** The store cannot be opened or reached. */
    UNAVAILABLE("E-STORE-001", "The store cannot be opened or reached: its file or directory cannot be used, or the database refused or lost the connection; nothing of the call was written."),
    /** Another writer held the store past the wait, or the database aborted the transaction to resolve a conflict. */
    BUSY("E-STORE-002", "The store stayed locked by another writer (a thread or another process) longer than its wait, or the database aborted the transaction to resolve a conflict; nothing of the call was written, and it may be tried again."),
    /** A value is over one of the store's bounds. */
    TOO_LARGE("E-STORE-003", "A value is over one of the store's bounds (StoreLimits): a memory value, a memory path, the entries of one memory tree, a listing, a session image, an effect's result or the grants of one scope; nothing was written."),
    /** A key is malformed. */
    BAD_KEY("E-STORE-004", "A key is malformed: an empty, over-long or unprintable id, a memory path that is not a concrete relative path, a pause or sequence below 1, a remembered grant whose scope is not project or global, or an owner that does not fit its memory tree; nothing was read or written."),
    /** A receipt names an effect the journal never recorded. */
    UNKNOWN_EFFECT("E-STORE-005", "A receipt names an effect that the journal never recorded (an effect is recorded before it is dispatched and settled after); nothing was written."),
    /** A stored entry cannot be read back. */
    CORRUPT("E-STORE-006", "An entry of the store cannot be read back (a memory value that is not JSON, a receipt of an unknown kind, a remembered grant whose capability no longer parses, or a database that reports damage); the entry is left as it is."),
    /** The database's schema is newer than this build, or bringing it up to date failed. */
    SCHEMA("E-STORE-007", "The store's schema cannot be used: the database was written by a newer build of Finch, or bringing its schema up to date failed; the store was not opened."),
    /** The store, or the transaction, is closed. */
    CLOSED("E-STORE-008", "The store was closed, or a transaction's view was used after its transaction ended; nothing was read or written."),
    /** A transaction was started inside another on the same thread. */
    NESTED("E-STORE-009", "A store transaction was started inside another one on the same thread (it could wait forever for the outer one's lock); nothing ran. Do the work in the outer transaction."),
    /** The database failed the operation for another reason. */
    FAILED("E-STORE-010", "The database failed the operation for a reason Finch does not classify (the host has the cause); nothing of the call was written."),
    EFFECT_RECORDED("E-STORE-011", "The effect journal already holds this request of this execution: another copy of the run performed it, or began to and stopped before its receipt (a crash); it is not performed again, and the run fails.");

    private final String code;
    private final String meaning;

    StoreCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
