package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;

import java.util.List;

/**
 * A capability (a grant's authority or a requirement) with its parameters parsed and typed. {@link #contains}
 * decides whether this spec, held as a grant, permits another as a requirement; {@code toString()} is the one
 * canonical printer and {@link #parse} the one parser (aliases {@code file.read}/{@code file.write} are read as
 * {@code fs.read}/{@code fs.write}, decisions D9).
 */
public sealed interface CapabilitySpec {

    /** The kind, for exhaustive switches. */
    CapabilityKind kind();

    /** Whether everything {@code inner} allows is allowed by this; false when unsure or of another kind. */
    boolean contains(CapabilitySpec inner);

    /** The IR spelling of this spec. */
    default Capability toCapability() { return Capability.parse(toString()).orElseThrow(); }

    /** Parses canonical or alias spelling; refusals are {@link CapabilityCode} diagnostics. */
    static Attempt<CapabilitySpec> parse(String text) { return SpecParser.parse(text, Origin.UNKNOWN); }

    /** Parses, reporting refusals at {@code origin}. */
    static Attempt<CapabilitySpec> parse(String text, Origin origin) { return SpecParser.parse(text, origin); }

    /** Types an IR capability. */
    static Attempt<CapabilitySpec> of(Capability capability) { return SpecParser.of(capability, Origin.UNKNOWN); }

    /** Types an IR capability, reporting refusals at {@code origin}. */
    static Attempt<CapabilitySpec> of(Capability capability, Origin origin) { return SpecParser.of(capability, origin); }

    /** {@code fs.read(selector)}. */
    record FsRead(PathPattern path) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.FS_READ; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof FsRead r && path.contains(r.path); }

        @Override public String toString() { return kind() + "(" + path + ")"; }
    }

    /** {@code fs.write(selector)}; writing never implies reading, nor the reverse. */
    record FsWrite(PathPattern path) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.FS_WRITE; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof FsWrite w && path.contains(w.path); }

        @Override public String toString() { return kind() + "(" + path + ")"; }
    }

    /**
     * {@code process.run(/usr/bin/git)} or {@code process.run(**)}: a selector over absolute executable paths
     * (the segments after the leading {@code /}); {@code **} alone is printed for "any executable".
     */
    record ProcessRun(SegmentPattern executable) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.PROCESS_RUN; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof ProcessRun p && executable.contains(p.executable);
        }

        @Override public String toString() {
            String sel = executable.segments().equals(List.of("**")) ? "**" : "/" + executable;
            return kind() + "(" + sel + ")";
        }
    }

    /** {@code session.emit}: the {@code say} effect. */
    record SessionEmit() implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.SESSION_EMIT; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof SessionEmit; }

        @Override public String toString() { return kind().canonicalName(); }
    }

    /** {@code memory.read(tree=…,path=…)}: path is a segment selector inside the memory tree. */
    record MemoryRead(NamePattern tree, SegmentPattern path) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.MEMORY_READ; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof MemoryRead m && tree.contains(m.tree) && path.contains(m.path);
        }

        @Override public String toString() { return kind() + "(tree=" + tree + ",path=" + path + ")"; }
    }

    /**
     * {@code memory.write(tree=…,path=…)}: writing (or deleting) the entries the path selects in the memory tree. It
     * confers no read, as {@code fs.write} confers none.
     */
    record MemoryWrite(NamePattern tree, SegmentPattern path) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.MEMORY_WRITE; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof MemoryWrite m && tree.contains(m.tree) && path.contains(m.path);
        }

        @Override public String toString() { return kind() + "(tree=" + tree + ",path=" + path + ")"; }
    }

    /** {@code agent.spawn(max_depth=…,max_children=…)}: a grant covers requirements with smaller or equal bounds. */
    record AgentSpawn(int maxDepth, int maxChildren) implements CapabilitySpec {
        public AgentSpawn {
            if (maxDepth < 0 || maxChildren < 0) throw new IllegalArgumentException("negative agent bound");
        }

        @Override public CapabilityKind kind() { return CapabilityKind.AGENT_SPAWN; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof AgentSpawn a && a.maxDepth <= maxDepth && a.maxChildren <= maxChildren;
        }

        @Override public String toString() { return kind() + "(max_depth=" + maxDepth + ",max_children=" + maxChildren + ")"; }
    }

    /** {@code schedule.create(policy=…)}, exact or {@code *}. */
    record ScheduleCreate(NamePattern policy) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.SCHEDULE_CREATE; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof ScheduleCreate s && policy.contains(s.policy); }

        @Override public String toString() { return kind() + "(policy=" + policy + ")"; }
    }

    /** {@code program.invoke(language=…)}, exact or {@code *}: one artifact language confers no other. */
    record ProgramInvoke(NamePattern language) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.PROGRAM_INVOKE; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof ProgramInvoke p && language.contains(p.language); }

        @Override public String toString() { return kind() + "(language=" + language + ")"; }
    }

    /** {@code mcp.call(server,tool)}, each exact or {@code *}. */
    record McpCall(NamePattern server, NamePattern tool) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.MCP_CALL; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof McpCall c && server.contains(c.server) && tool.contains(c.tool);
        }

        @Override public String toString() { return kind() + "(" + server + "," + tool + ")"; }
    }

    /** {@code model.ask(model)}, exact or {@code *}: consult the model a µNorman grant names. */
    record ModelAsk(NamePattern model) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.MODEL_ASK; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof ModelAsk m && model.contains(m.model); }

        @Override public String toString() { return kind() + "(" + model + ")"; }
    }

    /** {@code tool.call(tool,op)}, each exact or {@code *}: one operation of the tool a µNorman grant names. */
    record ToolCall(NamePattern tool, NamePattern op) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.TOOL_CALL; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof ToolCall c && tool.contains(c.tool) && op.contains(c.op); }

        @Override public String toString() { return kind() + "(" + tool + "," + op + ")"; }
    }

    /**
     * {@code host.call(word)}, exact or {@code *}: call a word the embedding host installed and declared with this
     * requirement (its authority is the host's to define; Finch only checks it at the boundary).
     */
    record HostCall(NamePattern word) implements CapabilitySpec {
        @Override public CapabilityKind kind() { return CapabilityKind.HOST_CALL; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof HostCall h && word.contains(h.word); }

        @Override public String toString() { return kind() + "(" + word + ")"; }
    }

    /**
     * {@code desktop.automate(OP)}: one desktop automation operation — {@code availability}, {@code displays},
     * {@code windows}, {@code click} or {@code type} ({@link #OPERATIONS}) — or {@code *} for all of them. One operation
     * confers no other: reading the window list never permits a click, nor a click typing.
     */
    record DesktopAutomate(NamePattern operation) implements CapabilitySpec {
        /** The operations a grant can name, one per {@code automation-*} word. */
        public static final java.util.List<String> OPERATIONS = java.util.List.of("availability", "displays", "windows", "click", "type");

        @Override public CapabilityKind kind() { return CapabilityKind.DESKTOP_AUTOMATE; }

        @Override public boolean contains(CapabilitySpec inner) { return inner instanceof DesktopAutomate d && operation.contains(d.operation); }

        @Override public String toString() { return kind() + "(" + operation + ")"; }
    }

    /**
     * {@code net.http(URL-SELECTOR)} or {@code net.http(URL-SELECTOR,method=METHOD)}: HTTP requests to the URLs the
     * selector names ({@link UrlPattern}), with any method or only the one named ({@link #METHODS}). A requirement
     * always names its method; a grant without one permits every method.
     */
    record NetHttp(UrlPattern url, NamePattern method) implements CapabilitySpec {
        /** The methods a grant or request can name. */
        public static final java.util.List<String> METHODS = java.util.List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

        public NetHttp {
            java.util.Objects.requireNonNull(url, "url");
            java.util.Objects.requireNonNull(method, "method");
        }

        @Override public CapabilityKind kind() { return CapabilityKind.NET_HTTP; }

        @Override public boolean contains(CapabilitySpec inner) {
            return inner instanceof NetHttp n && url.contains(n.url) && method.contains(n.method);
        }

        @Override public String toString() { return kind() + "(" + url + (method.isAny() ? "" : ",method=" + method) + ")"; }
    }
}
