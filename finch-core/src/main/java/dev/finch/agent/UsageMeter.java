package dev.finch.agent;

import java.util.Optional;

/**
 * Where the tokens child agents use are charged ({@link AgentOptions#withMeter}): after each turn a child's provider
 * answered, the scheduler charges the turn's {@link AgentProvider.Usage} (as the provider reported it) under the
 * child's profile and model. A meter that refuses — the run's budget is spent — answers why, and the child stops with
 * {@code E-AGENT-013}. Called from the scheduler's threads, possibly at once for several children.
 */
@FunctionalInterface
public interface UsageMeter {
    /** Charges nothing and refuses nothing (the default). */
    UsageMeter NONE = (profile, model, usage) -> Optional.empty();

    /** Charges one turn's usage; empty when it was charged, else why the budget refuses it. */
    Optional<String> charge(String profile, String model, AgentProvider.Usage usage);
}
