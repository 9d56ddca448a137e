package dev.finch.agent;

import dev.finch.tools.ToolSpec;
import java.util.List;
import java.util.Objects;

/**
 * A model provider driving a child agent: given the conversation so far and the tools it may call, the next assistant
 * turn — text, tool calls, or both. A child's provider is offered exactly the child's tool surface
 * ({@code submit_program} and the read-only discovery tools); a turn without tool calls is the child's final message.
 * Implementations are called from the scheduler's threads, one turn at a time per child, and may be shared by children.
 */
@FunctionalInterface
public interface AgentProvider {
    /**
     * The next assistant turn.
     *
     * @throws Failure when the provider cannot answer (transport, protocol, refusal, a script with no reply left)
     */
    Turn next(Conversation conversation) throws Failure, InterruptedException;

    /**
     * One request: the model, the child's role (for providers that route by it, such as scripts), the system text, the
     * messages oldest first, the tools, and the most output tokens of one turn.
     */
    record Conversation(String model, String role, String system, List<Message> messages, List<ToolSpec> tools, int maxTokens) {
        public Conversation {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(system, "system");
            messages = List.copyOf(messages);
            tools = List.copyOf(tools);
        }
    }

    /** A message of the conversation. */
    sealed interface Message permits UserText, AssistantTurn, ToolResults { }

    /** The user's text (the child's task and its data context). */
    record UserText(String text) implements Message { }

    /** An assistant turn as it was answered. */
    record AssistantTurn(Turn turn) implements Message { }

    /** The answers to an assistant turn's tool calls, in call order. */
    record ToolResults(List<ToolResult> results) implements Message {
        public ToolResults { results = List.copyOf(results); }
    }

    /** A tool call: the provider's call id, the tool name and its arguments as JSON object text. */
    record ToolCall(String id, String name, String argumentsJson) {
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(argumentsJson, "argumentsJson");
        }
    }

    /** The answer to one tool call: the JSON text the tool surface returned. */
    record ToolResult(String callId, String content) { }

    /** An assistant turn: its text (may be empty), its tool calls (none: the final message) and the stop reason. */
    record Turn(String text, List<ToolCall> calls, String stopReason) {
        public Turn {
            Objects.requireNonNull(text, "text");
            calls = List.copyOf(calls);
            Objects.requireNonNull(stopReason, "stopReason");
        }

        /** A final answer. */
        public static Turn finalMessage(String text) { return new Turn(text, List.of(), "end_turn"); }
    }

    /** Why a provider could not answer. */
    final class Failure extends Exception {
        public Failure(String message) { super(message, null, false, false); }

        public Failure(String message, Throwable cause) { super(message, cause, false, false); }
    }
}
