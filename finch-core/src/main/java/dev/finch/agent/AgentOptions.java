package dev.finch.agent;

import dev.finch.host.AgentHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a {@link dev.finch.Finch} runs child agents ({@code Finch.builder().agents(…)}): the provider profiles (the first
 * is the default), the host's bounds on each child's budgets, and how many children run at once at each depth of the
 * tree (a child waiting for its own children never holds a thread they need, so the tree cannot deadlock the pool).
 */
public final class AgentOptions {
    private final Map<String, AgentProfile> profiles;
    private final AgentHost.Bounds bounds;
    private final int concurrency;
    private final int maxTokens;
    private final UsageMeter meter;

    private AgentOptions(Map<String, AgentProfile> profiles, AgentHost.Bounds bounds, int concurrency, int maxTokens, UsageMeter meter) {
        this.profiles = profiles;
        this.bounds = bounds;
        this.concurrency = concurrency;
        this.maxTokens = maxTokens;
        this.meter = meter;
    }

    /** Options over these profiles (at least one; the first is the default), with the default bounds and 4 children at once per depth. */
    public static AgentOptions of(AgentProfile first, AgentProfile... more) {
        Map<String, AgentProfile> m = new LinkedHashMap<>();
        List<AgentProfile> all = new ArrayList<>();
        all.add(first);
        all.addAll(List.of(more));
        for (AgentProfile p : all) {
            if (m.putIfAbsent(p.name(), p) != null) throw new IllegalArgumentException("two profiles named " + p.name());
        }
        return new AgentOptions(java.util.Collections.unmodifiableMap(m), AgentHost.Bounds.DEFAULT, 4, 4096, UsageMeter.NONE);
    }

    /** These options with {@code b} bounding every child's budgets. */
    public AgentOptions withBounds(AgentHost.Bounds b) { return new AgentOptions(profiles, java.util.Objects.requireNonNull(b), concurrency, maxTokens, meter); }

    /** These options running at most {@code n} children at once at each depth. */
    public AgentOptions withConcurrency(int n) {
        if (n < 1) throw new IllegalArgumentException("concurrency must be at least 1");
        return new AgentOptions(profiles, bounds, n, maxTokens, meter);
    }

    /** These options asking providers for at most {@code n} output tokens a turn (default 4096). */
    public AgentOptions withMaxTokens(int n) {
        if (n < 1) throw new IllegalArgumentException("maxTokens must be at least 1");
        return new AgentOptions(profiles, bounds, concurrency, n, meter);
    }

    /**
     * These options charging each child turn's token usage to {@code m} (default {@link UsageMeter#NONE}): when it
     * refuses, the child stops with {@code E-AGENT-013}.
     */
    public AgentOptions withMeter(UsageMeter m) { return new AgentOptions(profiles, bounds, concurrency, maxTokens, java.util.Objects.requireNonNull(m, "meter")); }

    /** The profiles by name, the default first. */
    public Map<String, AgentProfile> profiles() { return profiles; }

    /** The profile {@code name} names; the default for an empty name. */
    public Optional<AgentProfile> profile(String name) {
        if (name.isEmpty()) return Optional.of(profiles.values().iterator().next());
        return Optional.ofNullable(profiles.get(name));
    }

    public AgentHost.Bounds bounds() { return bounds; }

    public int concurrency() { return concurrency; }

    public int maxTokens() { return maxTokens; }

    public UsageMeter meter() { return meter; }
}
