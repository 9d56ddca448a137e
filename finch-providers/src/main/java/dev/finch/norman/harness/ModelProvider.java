package dev.finch.norman.harness;

import dev.finch.norman.Askable;
import java.util.List;

/**
 * A model binding at the provider's level (decisions D11): messages, the answer's schema (an askable type) and the
 * most output tokens the ask reserved go in; the reply text with its token usage and finish reason, or a provider
 * error, comes out. Budgets, the clock, validation and failures are the caller's ({@link ScriptedModels}), so a
 * real adapter implements only this. A provider answers in the order it is asked; a scripted one throws the checked
 * run-time error of an exhausted script.
 */
public interface ModelProvider {
    /** One message of the context: its role ({@code System User Assistant Tool}) and its text. */
    record Message(String role, String content) { }

    /** One request: the grant's name and model id, the site, the context, the answer type and the output cap. */
    record Request(String grant, String modelId, String site, List<Message> messages, Askable schema, long maxOutputTokens) {
        public Request { messages = List.copyOf(messages); }
    }

    /** What the provider answered, and how long it took (simulated under a script). */
    sealed interface Response permits Reply, ProviderError, Refusal { long latencyMillis(); }

    /** A reply: the raw text, its token usage (output tokens as reported; -1 when not reported) and finish reason. */
    record Reply(String text, long outputTokens, String finishReason, long latencyMillis) implements Response { }

    /** The provider failed (an outage, a rate limit…): the ask fails with {@code ToolError}. */
    record ProviderError(String message, long latencyMillis) implements Response { }

    /** The provider declined to answer (a safety refusal…), for a reason of {@code category}: the ask fails with {@code Refused}. */
    record Refusal(String category, long latencyMillis) implements Response { }

    /** Sends one request. */
    Response complete(Request request);

    /**
     * True for a provider that answers at once with a simulated latency (a script): its world keeps a simulated
     * clock, calls it with the run's baton, and concurrent steps sleep on that clock, so a run is exactly
     * repeatable. False (the default, a real provider): the world's clock is the wall clock and each request is
     * sent off the baton, so the requests of concurrent steps overlap in real time; the provider must then be safe
     * to call from several threads at once.
     */
    default boolean simulated() { return false; }
}
