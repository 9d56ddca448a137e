package dev.finch.vm.host;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Diagnostics of the host boundary and the local host bindings (phase {@code host}). */
public enum HostCode implements DiagnosticCode {
    DENIED("E-HOST-001", "The person or host denied the capability request; the effect did not happen."),
    NOT_INSTALLED("E-HOST-002", "The path's root (workspace, host-machine, project, task.output) is not installed on this host."),
    ESCAPE("E-HOST-003", "The canonical path leaves its root (a symlink, or a race swapping a directory for one); refused."),
    NOT_FOUND("E-HOST-004", "No such file or directory."),
    IO("E-HOST-005", "The file operation failed."),
    TOO_LARGE("E-HOST-006", "A file or slice exceeds its bound (file-read 8 MiB per call unless configured, file-slice 8 MiB, lines 1 MiB)."),
    BAD_ARGUMENT("E-HOST-007", "An argument is out of range (negative offset or length, entry count outside 0..100000)."),
    STREAM_CLOSED("E-HOST-008", "The stream is closed or belongs to another run."),
    CSV("E-HOST-009", "Malformed CSV (an unterminated or misplaced quote, or an oversized field), with its line."),
    PROCESS("E-HOST-010", "The process could not be started, timed out, or exceeded its output bound."),
    UNSUPPORTED_FILE("E-HOST-011", "A symlink or a special file (device, socket, pipe) where a regular file or directory is required."),
    STALE_RESUME("E-HOST-012", "A resume names a sequence or execution that is not the pending one; nothing was dispatched."),
    NO_BINDING("E-HOST-013", "The host has no binding installed for this operation."),
    BAD_RESULT("E-HOST-014", "A deferred host answered a request with a value of the wrong type; the run stops."),
    MODEL_NOT_GRANTED("E-HOST-015", "Retired, no longer raised: an ask whose model.ask(NAME) was not granted before the run used to stop it; an ask now pauses for approval (or a deferred host's answer) like every host word."),
    TOOL_NOT_GRANTED("E-HOST-016", "Retired, no longer raised: a tool call whose tool.call(TOOL,OP) was not granted before the run used to stop it; a call now pauses for approval (or a deferred host's answer) like every host word."),
    WORD_FAILED("E-HOST-017", "A word the host installed failed: its implementation threw (the message is the host's own, or names what it threw).");

    private final String code;
    private final String meaning;

    HostCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
