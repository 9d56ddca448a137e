package dev.finch.norman.providers;

import dev.finch.agent.AgentProvider;
import dev.finch.norman.harness.ModelProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * µNorman's {@code ask} on the provider layer: a {@link ModelProvider} over any {@link AgentProvider} — the same adapters
 * ({@code dev.finch.providers.AgentProviders}: Anthropic Messages, OpenAI-compatible chat completions, with their
 * retries) that serve child agents and conversations. One ask is one turn without tools:
 * <ul>
 *   <li>the context's {@code System} messages and the answer-format instruction (JSON only, matching the answer type's
 *       JSON Schema) are the system text; {@code User} and {@code Assistant} messages follow in order; a {@code Tool}
 *       message is a user message starting with {@code "Tool output:"};</li>
 *   <li>the model is the grant's model id (or the adapter's default model when the grant declared none), and the most
 *       output tokens is the ask's reservation (at least 1).</li>
 * </ul>
 * The reply is the turn's text with its reported output tokens (-1 when none) and stop reason. A {@code content_filter}
 * or {@code refusal} stop is a {@link ModelProvider.Refusal}; a provider failure (after its retries) or a turn that
 * answers only tool calls is a {@link ModelProvider.ProviderError} with a short message, never an exception. Prices,
 * budgets and validation are the caller's ({@code ModelWorld}).
 */
public final class AgentModelProvider implements ModelProvider {
    private final AgentProvider provider;
    private final String defaultModel;

    private AgentModelProvider(AgentProvider provider, String defaultModel) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.defaultModel = defaultModel;
    }

    /** Asks sent to {@code provider} under the grant's model id. */
    public static AgentModelProvider of(AgentProvider provider) { return new AgentModelProvider(provider, null); }

    /** Asks sent to {@code provider}, under {@code defaultModel} when the grant names no model id. */
    public static AgentModelProvider of(AgentProvider provider, String defaultModel) {
        return new AgentModelProvider(provider, Objects.requireNonNull(defaultModel, "defaultModel"));
    }

    /** The provider asked. */
    public AgentProvider provider() { return provider; }

    @Override public Response complete(Request request) {
        long start = System.nanoTime();
        AgentProvider.Conversation conversation;
        try {
            conversation = conversation(request);
        } catch (IllegalArgumentException e) {
            return new ProviderError(ProviderText.shorten("cannot send the request: " + e.getMessage()), 0);
        }
        try {
            AgentProvider.Turn t = provider.next(conversation);
            if (t.stopReason().equals("content_filter") || t.stopReason().equals("refusal")) return new Refusal(t.stopReason(), ProviderText.millisSince(start));
            if (t.text().isEmpty() && !t.calls().isEmpty()) {
                return new ProviderError("malformed response: the model answered no text (it asked to run a tool)", ProviderText.millisSince(start));
            }
            return new Reply(t.text(), t.usage().outputTokens(), t.stopReason().isEmpty() ? "none" : t.stopReason(), ProviderText.millisSince(start));
        } catch (AgentProvider.Failure f) {
            return new ProviderError(ProviderText.shorten(f.getMessage()), ProviderText.millisSince(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ProviderError("the ask was interrupted", ProviderText.millisSince(start));
        } catch (RuntimeException e) {
            return new ProviderError(ProviderText.shorten("provider failure: " + ProviderText.cause(e)), ProviderText.millisSince(start));
        }
    }

    /** The turn request of one ask. */
    AgentProvider.Conversation conversation(Request request) {
        List<String> system = new ArrayList<>();
        List<AgentProvider.Message> turns = new ArrayList<>();
        for (ModelProvider.Message m : request.messages()) {
            switch (m.role()) {
                case "System" -> system.add(m.content());
                case "User" -> turns.add(new AgentProvider.UserText(m.content()));
                case "Assistant" -> turns.add(new AgentProvider.AssistantTurn(AgentProvider.Turn.finalMessage(m.content())));
                case "Tool" -> turns.add(new AgentProvider.UserText("Tool output:\n" + m.content()));
                default -> throw new IllegalArgumentException("a message has the unknown role " + m.role());
            }
        }
        if (turns.isEmpty()) throw new IllegalArgumentException("the context has no User, Assistant or Tool message");
        system.add(ProviderText.instruction(request));
        int cap = (int) Math.max(1, Math.min(Integer.MAX_VALUE, request.maxOutputTokens()));
        return new AgentProvider.Conversation(ProviderText.model(request, defaultModel), request.grant(), String.join("\n\n", system), turns, List.of(), cap);
    }
}
