/**
 * Child agents (contract: "Child-agent handles are opaque, persistent task&lt;agent-result&gt; values…"): the scheduler
 * behind the {@code agent-*} words ({@link dev.finch.agent.AgentScheduler}), a child's run as a Finch session driven by a
 * provider through the tool surface ({@code submit_program} and the read-only discovery tools only), provider profiles
 * ({@link dev.finch.agent.AgentProfile}), host-registered context artifacts ({@link dev.finch.agent.ContextArtifacts}),
 * the starting-context digest ({@link dev.finch.agent.StartingContext}) and two providers: Anthropic's Messages API with
 * tool use ({@link dev.finch.agent.AnthropicMessagesProvider}) and a script whose replies are programs
 * ({@link dev.finch.agent.ScriptedProvider}).
 */
package dev.finch.agent;
