package dev.finch;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** The diagnostics a session itself reports, before or around a run (phase {@code host}). */
public enum SessionCode implements DiagnosticCode {
    /** The submission was composed against an older VM revision, or a suspended run's session moved on. */
    STALE_REVISION("E-SESSION-001", "The submission states a VM revision other than the session's current one; re-read the VM state and resubmit. Also an approval, result or resume of a suspended execution whose session moved on since it paused: refused before anything is dispatched (it could never commit); it still waits, to be cancelled or denied."),
    /** The submission was composed against an older manifest generation. */
    STALE_GENERATION("E-SESSION-002", "The submission states a manifest generation other than the session's current one; re-read the vocabulary and resubmit."),
    /** Another thread is running a submission on this session. */
    BUSY("E-SESSION-003", "The session is already running a submission on another thread; a session runs one submission at a time."),
    /** resume or cancel named no suspended or running execution. */
    UNKNOWN_EXECUTION("E-SESSION-004", "No suspended execution has this id in this session (it completed, failed, was cancelled or was already resumed)."),
    /** The language has no frontend in this build. */
    LANGUAGE_UNAVAILABLE("E-SESSION-005", "The submission's language has no frontend in this build of Finch."),
    /** Session.call named no callable word, or gave it the wrong number of arguments. */
    CALL("E-SESSION-007", "Session.call named no definition or word of the session, a word whose type or tag is written in the program text, or gave it the wrong number of arguments; nothing ran."),
    /** Another copy of a saved suspension's image continued it first. */
    ALREADY_CONTINUED("E-SESSION-008", "This suspended execution was already continued or cancelled from another copy of its image (a ContinuationLedger claim failed); this copy is discarded and nothing was dispatched."),
    /** The Finch was closed. */
    CLOSED("E-SESSION-009", "The Finch this session belongs to is closed; nothing runs any more."),
    /** A session image cannot be saved or restored, or a definition restored from one cannot be rebuilt. */
    IMAGE("E-SESSION-010", "A session image cannot be restored — it is not authentic, truncated, of an unknown format, saved under another vocabulary, or a definition in it no longer rebuilds the same way under this build of Finch — or a value cannot be saved into one; nothing was restored or saved. A definition of a restored session that cannot be rebuilt when first needed fails the submission that needed it the same way."),
    /** A value of the session's state cannot be read. */
    UNREADABLE("E-SESSION-011", "A value of the session's state cannot be read (a defect of Finch): the stack or report shows this code in its place, and a run that left such a value commits nothing. Please report it."),
    /** A defect inside Finch, reported instead of a Java exception. */
    INTERNAL("E-SESSION-006", "An internal error in Finch stopped the submission; nothing was committed. Please report it.");

    private final String code;
    private final String meaning;

    SessionCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
