package dev.finch.host;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Diagnostics of the schedule words ({@code schedule-create}, {@code schedule-list}, {@code schedule-cancel}). */
public enum ScheduleCode implements DiagnosticCode {
    BAD_WHEN("E-SCHEDULE-001", "The schedule's when is not an ISO-8601 instant in the future, a positive ISO-8601 duration (PT10S) or a five-field cron expression that fires, or it falls after the policy's lifetime."),
    UNKNOWN_POLICY("E-SCHEDULE-002", "The host defined no schedule policy of that name (Finch.Builder.schedulePolicy); nothing was scheduled."),
    BAD_PROGRAM("E-SCHEDULE-003", "The scheduled program is empty or over 64 KiB, or its language is not lisp, forth or norman."),
    TOO_MANY("E-SCHEDULE-004", "The Finch or its store already holds its most schedules (1,000 unless the store says); cancel one first."),
    UNAVAILABLE("E-SCHEDULE-005", "The scheduler or its store could not keep the schedule (closed, or the store failed; the host has the cause); nothing changed."),
    UNKNOWN_WORD("E-SCHEDULE-006", "No word of that name is defined in the session (a core word is not scheduled by name: schedule a program that calls it)."),
    WORD_TAKES_INPUTS("E-SCHEDULE-007", "The word takes inputs: a scheduled word is called on an empty stack, so define one that takes none."),
    WORD_NOT_KEPT("E-SCHEDULE-008", "The word cannot be kept apart from its session: it reads a constant with no literal form, links to a version of a word redefined since, or its definitions do not verify in a new session.");

    private final String code;
    private final String meaning;

    ScheduleCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
