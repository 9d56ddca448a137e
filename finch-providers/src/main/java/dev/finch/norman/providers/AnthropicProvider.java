package dev.finch.norman.providers;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.AnthropicException;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.MessageCreateParams;
import dev.finch.norman.harness.ModelProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link ModelProvider} over Anthropic's Messages API, on the official Java SDK ({@code com.anthropic:anthropic-java},
 * an optional dependency of this module: decisions D1/D11). One request is one {@code POST /v1/messages}:
 * <ul>
 *   <li>the context's {@code System} messages become the system prompt (joined by blank lines), followed by the
 *       instruction to answer with JSON only, matching the answer type's JSON Schema ({@link AskableSchema});</li>
 *   <li>{@code User} and {@code Assistant} messages become the message list, in order; a {@code Tool} message is
 *       sent as a user message whose text starts with {@code "Tool output:"};</li>
 *   <li>{@code max_tokens} is the request's output cap (the ask's reservation; at least 1);</li>
 *   <li>the model is the request's model id (the grant's {@code [id "…"]}); when the grant declared none the harness
 *       passes the grant's name, and the builder's {@link Builder#defaultModel default model}, if set, is used
 *       instead.</li>
 * </ul>
 * The reply is the text of the answer's text blocks (concatenated), {@code usage.output_tokens} and
 * {@code stop_reason}, with the wall-clock latency of the call (retries included). Every failure — the network, a
 * timeout, an HTTP error status (rate limits, overload, a bad request, …), a body that is not a Messages response —
 * is a {@link ModelProvider.ProviderError} with a short message, never an exception; the caller
 * ({@code ScriptedModels}) turns it into the ask's {@code ToolError}. Prices, budgets and validation are the
 * caller's too: prices come from the host's {@code ModelWorld}, never from the program or the API. Thread-safe;
 * {@link #close()} releases the HTTP client.
 */
public final class AnthropicProvider implements ModelProvider, AutoCloseable {
    /** The longest provider-error message, in characters. */
    static final int MAX_MESSAGE = ProviderText.MAX_MESSAGE;

    private final AnthropicClient client;
    private final String defaultModel;

    private AnthropicProvider(AnthropicClient client, String defaultModel) {
        this.client = Objects.requireNonNull(client, "client");
        this.defaultModel = defaultModel;
    }

    /** A provider over a client the embedder configured itself ({@code defaultModel} may be null). */
    public static AnthropicProvider of(AnthropicClient client, String defaultModel) {
        return new AnthropicProvider(client, defaultModel);
    }

    /** A builder: an explicit API key is required; nothing is read from the environment. */
    public static Builder builder() { return new Builder(); }

    /** Settings of the SDK client; unset ones keep the SDK's defaults (base URL, timeout, 2 retries). */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private Duration timeout;
        private Integer maxRetries;
        private String defaultModel;

        private Builder() { }

        /** The API's base URL (default {@code https://api.anthropic.com}). */
        public Builder baseUrl(String url) { this.baseUrl = Objects.requireNonNull(url, "baseUrl"); return this; }

        /** The API key, sent as {@code x-api-key}. Required: the provider never reads it from the environment. */
        public Builder apiKey(String key) { this.apiKey = Objects.requireNonNull(key, "apiKey"); return this; }

        /** The timeout of one request (the SDK's default is 10 minutes). */
        public Builder timeout(Duration t) { this.timeout = Objects.requireNonNull(t, "timeout"); return this; }

        /** How many times the SDK retries a retryable failure (connection errors, 408, 409, 429, 5xx); 0 for none. */
        public Builder maxRetries(int n) {
            if (n < 0) throw new IllegalArgumentException("maxRetries must be >= 0");
            this.maxRetries = n;
            return this;
        }

        /** The model asked when the grant declares no {@code [id "…"]}. */
        public Builder defaultModel(String model) { this.defaultModel = Objects.requireNonNull(model, "defaultModel"); return this; }

        /** The provider, with its own HTTP client (close it when done). */
        public AnthropicProvider build() {
            if (apiKey == null || apiKey.isBlank()) throw new IllegalStateException("an API key is required (apiKey)");
            // builder(), never fromEnv(): the key and URL are exactly what was set here.
            AnthropicOkHttpClient.Builder b = AnthropicOkHttpClient.builder().apiKey(apiKey);
            if (baseUrl != null) b.baseUrl(baseUrl);
            if (timeout != null) b.timeout(timeout);
            if (maxRetries != null) b.maxRetries(maxRetries);
            return new AnthropicProvider(b.build(), defaultModel);
        }
    }

    @Override public Response complete(Request request) {
        long start = System.nanoTime();
        MessageCreateParams params;
        try {
            params = params(request);
        } catch (IllegalArgumentException e) {
            return new ProviderError(ProviderText.shorten("cannot send the request: " + e.getMessage()), 0);
        }
        try {
            com.anthropic.models.messages.Message m = client.messages().create(params);
            StringBuilder text = new StringBuilder();
            for (ContentBlock b : m.content()) b.text().ifPresent(t -> text.append(t.text()));
            long out = m.usage().outputTokens();
            String finish = m.stopReason().map(Object::toString).orElse("none");
            return new Reply(text.toString(), out, finish, ProviderText.millisSince(start));
        } catch (AnthropicServiceException e) {
            return new ProviderError(ProviderText.shorten(status(e)), ProviderText.millisSince(start));
        } catch (AnthropicIoException e) {
            return new ProviderError(ProviderText.shorten("network error: " + ProviderText.cause(e)), ProviderText.millisSince(start));
        } catch (AnthropicInvalidDataException e) {
            return new ProviderError(ProviderText.shorten("malformed response: " + ProviderText.cause(e)), ProviderText.millisSince(start));
        } catch (AnthropicException e) {
            return new ProviderError(ProviderText.shorten("provider error: " + ProviderText.cause(e)), ProviderText.millisSince(start));
        } catch (RuntimeException e) {
            return new ProviderError(ProviderText.shorten("provider failure: " + e.getClass().getSimpleName() + ": " + ProviderText.cause(e)), ProviderText.millisSince(start));
        }
    }

    /** The Messages API request of one ask. */
    MessageCreateParams params(Request request) {
        List<String> system = new ArrayList<>();
        MessageCreateParams.Builder p = MessageCreateParams.builder()
                .model(model(request))
                .maxTokens(Math.max(1, request.maxOutputTokens()));
        int turns = 0;
        for (ModelProvider.Message m : request.messages()) {
            switch (m.role()) {
                case "System" -> system.add(m.content());
                case "User" -> { p.addUserMessage(m.content()); turns++; }
                case "Assistant" -> { p.addAssistantMessage(m.content()); turns++; }
                case "Tool" -> { p.addUserMessage("Tool output:\n" + m.content()); turns++; }
                default -> throw new IllegalArgumentException("a message has the unknown role " + m.role());
            }
        }
        if (turns == 0) throw new IllegalArgumentException("the context has no User, Assistant or Tool message");
        system.add(ProviderText.instruction(request));
        return p.system(String.join("\n\n", system)).build();
    }

    private String model(Request r) { return ProviderText.model(r, defaultModel); }

    private static String status(AnthropicServiceException e) {
        StringBuilder s = new StringBuilder("HTTP ").append(e.statusCode());
        e.errorType().ifPresent(t -> s.append(' ').append(t));
        s.append(": ").append(e.apiMessage().orElse(e.getClass().getSimpleName()));
        return s.toString();
    }

    @Override public void close() { client.close(); }
}
