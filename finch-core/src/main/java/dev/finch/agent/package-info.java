/**
 * Child agents (contract: "Child-agent handles are opaque, persistent task&lt;agent-result&gt; values…"): the scheduler
 * behind the {@code agent-*} words ({@link dev.finch.agent.AgentScheduler}), a child's run as a Finch session driven by a
 * provider through the tool surface ({@code submit_program} and the read-only discovery tools only), provider profiles
 * ({@link dev.finch.agent.AgentProfile}), host-registered context artifacts ({@link dev.finch.agent.ContextArtifacts}),
 * the starting-context digest ({@link dev.finch.agent.StartingContext}), the provider interface
 * ({@link dev.finch.agent.AgentProvider}) with its retries on overload ({@link dev.finch.agent.Retrying}) and the
 * usage meter of a run's token budget ({@link dev.finch.agent.UsageMeter}), and a script whose replies are programs
 * ({@link dev.finch.agent.ScriptedProvider}). The adapters of real providers (Anthropic Messages, OpenAI-compatible
 * chat completions) are in {@code finch-providers} ({@code dev.finch.providers.AgentProviders}).
 */
package dev.finch.agent;
