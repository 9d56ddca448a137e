package dev.finch.capabilities;

import java.util.Optional;

/** The closed set of capability kinds (decisions D9), each with its canonical name. */
public enum CapabilityKind {
    FS_READ("fs.read"),
    FS_WRITE("fs.write"),
    PROCESS_RUN("process.run"),
    SESSION_EMIT("session.emit"),
    MEMORY_READ("memory.read"),
    MEMORY_WRITE("memory.write"),
    AGENT_SPAWN("agent.spawn"),
    SCHEDULE_CREATE("schedule.create"),
    PROGRAM_INVOKE("program.invoke"),
    MCP_CALL("mcp.call"),
    MODEL_ASK("model.ask"),
    TOOL_CALL("tool.call"),
    HOST_CALL("host.call"),
    DESKTOP_AUTOMATE("desktop.automate"),
    NET_HTTP("net.http");

    private final String canonicalName;

    CapabilityKind(String canonicalName) { this.canonicalName = canonicalName; }

    /** The canonical dotted name, e.g. {@code fs.read}. */
    public String canonicalName() { return canonicalName; }

    /** The kind for a canonical name; aliases such as {@code file.read} are mapped by {@code Capability} first. */
    public static Optional<CapabilityKind> byName(String name) {
        for (CapabilityKind k : values()) if (k.canonicalName.equals(name)) return Optional.of(k);
        return Optional.empty();
    }

    @Override public String toString() { return canonicalName; }
}
