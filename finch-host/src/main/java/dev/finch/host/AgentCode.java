package dev.finch.host;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** Diagnostics of child agents: creation checks, ownership, and how a child's work ended (phase {@code host}). */
public enum AgentCode implements DiagnosticCode {
    NO_SCHEDULER("E-AGENT-001", "No agent scheduler is installed in this session (the embedder configured no agent provider profile); no child can be created."),
    BAD_REQUEST("E-AGENT-002", "An agent-spawn-with record is out of bounds: a budget (max-turns, timeout-ms, max-output-bytes) not positive or above the host's bound, more than 64 context references, a digest that is not 64 hexadecimal digits, or an empty task."),
    CONTEXT_REF("E-AGENT-003", "A context reference names no artifact the host registered, or the registered content does not hash to its sha256; nothing was allocated."),
    GRANT_NOT_HELD("E-AGENT-004", "A capability-grant resource is no longer delegable: it was revoked or expired, was a once grant, or comes from another session; nothing was allocated."),
    NOT_OWNER("E-AGENT-005", "The agent handle belongs to another node of the agent tree; only the agent that created a child (or restored the run holding its handle) may poll, await or cancel it."),
    UNKNOWN_PROFILE("E-AGENT-006", "The provider (or model) names no configured profile of the scheduler; nothing was allocated."),
    TURNS("E-AGENT-007", "The child used all of its max-turns without answering a final message."),
    TIMEOUT("E-AGENT-008", "The child ran past its timeout-ms and was stopped."),
    OUTPUT("E-AGENT-009", "The child's output (what its programs said plus its final message) passed its max-output-bytes and it was stopped."),
    PROVIDER("E-AGENT-010", "The child's provider failed: an HTTP or protocol error, a malformed reply, or a scripted provider with no reply left."),
    CANCELLED("E-AGENT-011", "The child was cancelled (agent-cancel, or its scheduler closed) before it answered."),
    LOST("E-AGENT-012", "A restored agent handle names a task this scheduler neither has nor can make again (its delegated ceiling is not within the restored run's grants)."),
    BUDGET("E-AGENT-013", "The run's token budget refused the tokens a child's turn used (the host's usage meter, such as finch's --budget): the child was stopped.");

    private final String code;
    private final String meaning;

    AgentCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
