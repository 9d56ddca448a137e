package dev.finch.host;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Diagnostics of the memory words ({@code memory-get}, {@code memory-put}, {@code memory-list}, {@code memory-delete}). */
public enum MemoryCode implements DiagnosticCode {
    BAD_TREE("E-MEMORY-001", "The memory tree is not one of session, project or global."),
    BAD_PATH("E-MEMORY-002", "The memory path is not one concrete entry: empty, a '..', an empty segment, a wildcard, or over 1,024 bytes."),
    TOO_LARGE("E-MEMORY-003", "The value is over the store's bound for one memory entry (compact JSON; 64 KiB unless the host configured another), or a run staged more than 1,000 writes."),
    NO_PROJECT("E-MEMORY-004", "The project tree was named but this session has no project (the host gives one: Finch.Builder.project, the CLI's --project or workspace)."),
    UNAVAILABLE("E-MEMORY-005", "The memory store could not be read or written (the host has the cause); nothing was written.");

    private final String code;
    private final String meaning;

    MemoryCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
