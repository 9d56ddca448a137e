package dev.finch.norman.providers;

import dev.finch.norman.harness.ModelProvider;

/**
 * What every provider adapter says and reports the same way: the answer-format instruction that ends the system prompt,
 * the model id a request names, and short one-line error messages.
 */
final class ProviderText {
    private ProviderText() { }

    /** The longest provider-error message, in characters. */
    static final int MAX_MESSAGE = 240;

    /** The answer-format instruction that ends the system prompt: JSON only, matching the answer type's JSON Schema. */
    static String instruction(ModelProvider.Request request) {
        return "Answer with a single JSON value and nothing else (no prose, no code fences), matching this JSON Schema "
                + "(maxLength counts UTF-8 bytes):\n" + AskableSchema.of(request.schema());
    }

    /**
     * The model a request goes to: the grant's model id; when the grant declared none (the harness then passes the grant's
     * name), {@code defaultModel} if set.
     */
    static String model(ModelProvider.Request r, String defaultModel) {
        String id = r.modelId();
        boolean undeclared = id == null || id.isBlank() || id.equals(r.grant());
        if (undeclared && defaultModel != null) return defaultModel;
        if (id == null || id.isBlank()) throw new IllegalArgumentException("the grant " + r.grant() + " names no model id and no default model is set");
        return id;
    }

    /** The exception's message, with its root cause's when that says more (e.g. "Request failed (Connection refused)"). */
    static String cause(Throwable e) {
        String m = e.getMessage();
        if (m == null || m.isBlank()) m = e.getClass().getSimpleName();
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String r = root == e ? null : root.getMessage();
        return r == null || r.isBlank() || m.contains(r) ? m : m + " (" + r + ")";
    }

    /** One line of at most {@link #MAX_MESSAGE} characters. */
    static String shorten(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() <= MAX_MESSAGE ? one : one.substring(0, MAX_MESSAGE - 1) + "…";
    }

    static long millisSince(long startNanos) { return Math.max(0, (System.nanoTime() - startNanos) / 1_000_000); }
}
