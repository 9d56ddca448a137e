package dev.finch.vm.boundary;

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
    PROCESS("E-HOST-010", "The process could not be started, timed out, or passed its output bound (killed at once, with every process it started)."),
    UNSUPPORTED_FILE("E-HOST-011", "A symlink or a special file (device, socket, pipe) where a regular file or directory is required."),
    STALE_RESUME("E-HOST-012", "An answer names a sequence the execution does not wait for, or is of the wrong kind for what it waits for (a result before approval, a plain resume at the host boundary); the answer is refused, nothing was dispatched, and the execution still waits."),
    NO_BINDING("E-HOST-013", "The host has no binding installed for this operation."),
    BAD_RESULT("E-HOST-014", "A deferred host answered a request with values that do not fit its expected result row (wrong type or count); the answer is refused and the execution still waits for its result."),
    MODEL_NOT_GRANTED("E-HOST-015", "Retired, no longer raised: an ask whose model.ask(NAME) was not granted before the run used to stop it; an ask now pauses for approval (or a deferred host's answer) like every host word."),
    TOOL_NOT_GRANTED("E-HOST-016", "Retired, no longer raised: a tool call whose tool.call(TOOL,OP) was not granted before the run used to stop it; a call now pauses for approval (or a deferred host's answer) like every host word."),
    WORD_FAILED("E-HOST-017", "A word the host installed failed: its implementation threw (the message is the host's own, or names what it threw)."),
    MALFORMED_RESUME("E-HOST-018", "A VmResume is not one strict JSON object {execution_id, sequence, response} with exactly one of result {values}, denied {reason} or cancelled {reason?} (malformed JSON, a duplicate key, trailing text, an unknown field, too large or too deep); nothing was dispatched."),
    HARD_LINK("E-HOST-019", "A regular file with more than one hard link is refused: another name, possibly outside the root, reaches the same file, so reading or writing it could leave the root (a host may opt in: LocalFileHost.allowingHardLinks)."),
    WORKBOOK("E-HOST-020", "The file is not a readable workbook (XLSX, XLS or ODS), its XML is malformed, or it has no sheet of the given name (workbook-sheets lists them)."),
    WORKBOOK_BOUND("E-HOST-021", "A workbook exceeds a bound: 64 MiB of file (16 MiB for XLS, which is decoded whole), a ZIP part inflating more than 100 times or past 256 MiB (a zip bomb), 10,000,000 cells in a sheet, 1,000,000 shared strings or 32 Mi characters of them, 1 Mi characters in one cell."),
    WORKBOOK_ENTITY("E-HOST-022", "A workbook's XML declares a DOCTYPE; it is refused, so no entity (internal or external: XXE) is ever expanded."),
    AUTOMATION("E-HOST-023", "A desktop automation operation failed: the display cannot be reached (none, or headless), the point is on no screen, a character cannot be typed on this desktop, or the window list cannot be read (no wmctrl)."),
    MCP_NO_SERVER("E-HOST-024", "No MCP server of that name is configured for this session, or the server or tool name is not a capability name (letters, digits, '_', '.', '+', '-'); nothing was asked or sent."),
    MCP_SERVER_FAILED("E-HOST-025", "The MCP server did not answer the call: it could not be started or reached, it stopped (crashed or closed its connection), or it passed its request timeout."),
    MCP_REFUSED("E-HOST-026", "The MCP server refused the call with a protocol error rather than a tool result (an unknown tool, arguments its schema rejects)."),
    MCP_BAD_OUTPUT("E-HOST-027", "An MCP tool's result does not fit the output its word declares: structured content missing or disagreeing with the tool's outputSchema."),
    MCP_TOOL_ERROR("E-HOST-028", "An MCP tool reported an error (isError) to mcp-call, with the tool's own text; the typed mcp.<server>.<tool> word answers such an error as an err value instead.");

    private final String code;
    private final String meaning;

    HostCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
