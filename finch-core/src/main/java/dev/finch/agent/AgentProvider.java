package dev.finch.agent;

import dev.finch.tools.ToolSpec;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
     * messages oldest first, the tools, the most output tokens of one turn, and the instant by which the answer is
     * needed (null: none), which a provider's retries ({@link Retrying}) do not wait past.
     */
    record Conversation(String model, String role, String system, List<Message> messages, List<ToolSpec> tools, int maxTokens, Instant deadline) {
        public Conversation {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(system, "system");
            messages = List.copyOf(messages);
            tools = List.copyOf(tools);
        }

        /** A request without a deadline. */
        public Conversation(String model, String role, String system, List<Message> messages, List<ToolSpec> tools, int maxTokens) {
            this(model, role, system, messages, tools, maxTokens, null);
        }

        /** This request, answered by {@code deadline} at the latest. */
        public Conversation withDeadline(Instant deadline) {
            return new Conversation(model, role, system, messages, tools, maxTokens, Objects.requireNonNull(deadline, "deadline"));
        }

        /** The instant by which the answer is needed, if any. */
        public Optional<Instant> due() { return Optional.ofNullable(deadline); }
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

    /**
     * The tokens one turn used, as the provider reported them: input (the prompt) and output (the answer); -1 where it
     * reported none.
     */
    record Usage(long inputTokens, long outputTokens) {
        /** A turn whose provider reported no usage (a script). */
        public static final Usage UNKNOWN = new Usage(-1, -1);

        public Usage {
            if (inputTokens < -1 || outputTokens < -1) throw new IllegalArgumentException("token counts are -1 (unknown) or more");
        }

        /** The tokens of both directions that were reported (an unknown count is 0 here). */
        public long total() { return Math.max(0, inputTokens) + Math.max(0, outputTokens); }
    }

    /**
     * An assistant turn: its text (may be empty), its tool calls (none: the final message), the stop reason, the tokens
     * it used ({@link Usage#UNKNOWN} when not reported) and the provider's id of the response (empty when it has none).
     */
    record Turn(String text, List<ToolCall> calls, String stopReason, Usage usage, String responseId) {
        public Turn {
            Objects.requireNonNull(text, "text");
            calls = List.copyOf(calls);
            Objects.requireNonNull(stopReason, "stopReason");
            Objects.requireNonNull(usage, "usage");
            Objects.requireNonNull(responseId, "responseId");
        }

        /** A turn without reported usage or response id. */
        public Turn(String text, List<ToolCall> calls, String stopReason) { this(text, calls, stopReason, Usage.UNKNOWN, ""); }

        /** A final answer. */
        public static Turn finalMessage(String text) { return new Turn(text, List.of(), "end_turn"); }
    }

    /**
     * Why a provider could not answer. An {@linkplain #overloaded() overloaded} failure (HTTP 429 or 529, an
     * "overloaded" error) is one the provider may answer if asked again later: {@link Retrying} asks again.
     */
    final class Failure extends Exception {
        private final boolean overloaded;

        public Failure(String message) { this(message, null, false); }

        public Failure(String message, Throwable cause) { this(message, cause, false); }

        /** A failure, {@code overloaded} when asking again later may succeed. */
        public Failure(String message, Throwable cause, boolean overloaded) {
            super(message, cause, false, false);
            this.overloaded = overloaded;
        }

        /** True when the provider was rate-limited or overloaded (429, 529, "overloaded"): asking again later may succeed. */
        public boolean overloaded() { return overloaded; }
    }
}
