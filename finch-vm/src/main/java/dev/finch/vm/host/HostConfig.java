package dev.finch.vm.host;

import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Revocations;
import java.util.List;

/**
 * What an embedder plugs in for a run: the grants in force, the file and process bindings, whether every approved
 * request is deferred to the host ({@code VmResume}), observers, and bounds. {@link #NONE} has no grants and no
 * bindings: every host word then pauses for approval and cannot be dispatched. {@code agents} is the scheduler of
 * child agents ({@link AgentHost}); null: no child can be created. {@code mcp} answers MCP tool calls ({@link McpHost});
 * null: no MCP server. {@code revocations} are the session's revoked grant ids, which take a grant away from the run at
 * its next capability boundary however long ago it started ({@link RunHost#grants}); null: none.
 */
public record HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred,
                         List<EffectObserver> observers, long maxFileReadBytes, ModelHost models, ToolHost tools, EditorHost editor,
                         AutomationHost automation, AgentHost agents, McpHost mcp, Revocations revocations) {
    public static final HostConfig NONE = new HostConfig(GrantSet.EMPTY, null, null, false, List.of(), 8L << 20);

    public HostConfig {
        observers = List.copyOf(observers);
        if (revocations == null) revocations = new Revocations();
    }

    /** A configuration whose grants nothing revokes while a run holds them. */
    public HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes,
                      ModelHost models, ToolHost tools, EditorHost editor, AutomationHost automation, AgentHost agents, McpHost mcp) {
        this(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, null);
    }

    /** A configuration without a model host. */
    public HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes) {
        this(grants, files, processes, deferred, observers, maxFileReadBytes, null, null, null);
    }

    /** A configuration without an agent scheduler or an MCP host. */
    public HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes,
                      ModelHost models, ToolHost tools, EditorHost editor, AutomationHost automation) {
        this(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, null, null);
    }

    /** A configuration without an automation host. */
    public HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes,
                      ModelHost models, ToolHost tools, EditorHost editor) {
        this(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, null);
    }

    /** A configuration without an editor host. */
    public HostConfig(GrantSet grants, FileHost files, ProcessHost processes, boolean deferred, List<EffectObserver> observers, long maxFileReadBytes,
                      ModelHost models, ToolHost tools) {
        this(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, null);
    }

    /** The same configuration with {@code e} showing proposals ({@code proposal-open}); null: proposals pause for the host. */
    public HostConfig withEditor(EditorHost e) { return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, e, automation, agents, mcp, revocations); }

    /** The same configuration with {@code a} as the desktop the {@code automation-*} words drive; null: no desktop. */
    public HostConfig withAutomation(AutomationHost a) {
        return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, a, agents, mcp, revocations);
    }

    /** The same configuration with {@code a} as the scheduler of child agents ({@code agent-*}); null: no children. */
    public HostConfig withAgents(AgentHost a) {
        return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, a, mcp, revocations);
    }

    /** The same configuration with {@code m} answering model asks. */
    public HostConfig withModels(ModelHost m) { return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, m, tools, editor, automation, agents, mcp, revocations); }

    /** The same configuration with {@code t} answering tool calls. */
    public HostConfig withTools(ToolHost t) { return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, t, editor, automation, agents, mcp, revocations); }

    /** The same configuration with {@code m} answering MCP tool calls ({@code mcp-call}, {@code mcp.<server>.<tool>}); null: none. */
    public HostConfig withMcp(McpHost m) { return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, m, revocations); }

    /** The same configuration with {@code r} as the revocations its runs consult. */
    public HostConfig withRevocations(Revocations r) {
        return new HostConfig(grants, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, r);
    }

    public HostConfig withGrants(GrantSet g) { return new HostConfig(g, files, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, revocations); }

    public HostConfig withFiles(FileHost f) { return new HostConfig(grants, f, processes, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, revocations); }

    public HostConfig withProcesses(ProcessHost p) { return new HostConfig(grants, files, p, deferred, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, revocations); }

    public HostConfig withDeferred(boolean d) { return new HostConfig(grants, files, processes, d, observers, maxFileReadBytes, models, tools, editor, automation, agents, mcp, revocations); }

    public HostConfig withObserver(EffectObserver o) {
        List<EffectObserver> all = new java.util.ArrayList<>(observers);
        all.add(o);
        return new HostConfig(grants, files, processes, deferred, all, maxFileReadBytes, models, tools, editor, automation, agents, mcp, revocations);
    }
}
