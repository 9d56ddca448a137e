package dev.finch.agent;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A configured provider profile (contract: "Provider/model names go through the scheduler's configured-profile
 * resolver rather than capturing the frontend's current provider"): its name, the model it uses unless a child names
 * another, and the provider. {@code agent-spawn-with}'s {@code provider} field selects a profile by name (empty: the
 * scheduler's first profile) and its {@code model} field overrides the model.
 */
public record AgentProfile(String name, String model, AgentProvider provider) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    public AgentProfile {
        if (name == null || !NAME.matcher(name).matches()) throw new IllegalArgumentException("bad profile name: " + name);
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
    }
}
