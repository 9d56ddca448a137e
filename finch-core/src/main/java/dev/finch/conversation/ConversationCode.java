package dev.finch.conversation;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/** How a conversation's turn ended other than with an answer (phase {@code host}). */
public enum ConversationCode implements DiagnosticCode {
    TURN_MODEL_CALLS("E-CONVERSATION-001", "The turn used all of its model calls (max-model-calls) without the model answering in a program that completed or in nothing; the turn ended."),
    TURN_TIMEOUT("E-CONVERSATION-002", "The turn ran past its time budget; it ended after the model call or program in progress."),
    PROVIDER("E-CONVERSATION-003", "The model provider could not answer (transport, protocol, refusal, a script with no reply left); the turn ended, the transcript keeps what came before."),
    NOT_PAUSED("E-CONVERSATION-004", "approve or deny was called while the turn was not waiting for an approval."),
    PAUSED("E-CONVERSATION-005", "A new turn was started while the last one still waits for an approval; approve or deny it first."),
    BAD_SAVE("E-CONVERSATION-006", "A saved conversation is not one this build reads (malformed JSON, another format, a missing part)."),
    TURN_TOKENS("E-CONVERSATION-007", "The turn's model calls used more tokens than its budget (max-turn-tokens, as the provider reported them); the turn ended."),
    TURN_SPEND("E-CONVERSATION-008", "The turn's model calls cost more than its money budget, at the prices the host stated per million tokens; the turn ended."),
    CANCELLED("E-CONVERSATION-009", "The host cancelled the turn (its thread was interrupted: Ctrl-C in finch chat); the program running then was cancelled and committed nothing.");

    private final String code;
    private final String meaning;

    ConversationCode(String code, String meaning) { this.code = code; this.meaning = meaning; }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }
}
