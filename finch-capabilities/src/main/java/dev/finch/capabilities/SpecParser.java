package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Turns IR capability spellings into typed {@link CapabilitySpec}s, refusing anything malformed. */
final class SpecParser {
    private static final Pattern COUNT = Pattern.compile("0|[1-9][0-9]{0,5}");

    private SpecParser() {}

    static Attempt<CapabilitySpec> parse(String text, Origin origin) {
        return Capability.parse(text)
                .map(c -> of(c, origin))
                .orElseGet(() -> Attempt.refused(CapabilityCode.MALFORMED_SPEC.at(origin,
                        "capability text does not parse as name or name(args)", "e.g. fs.read(${workspace}/src/**)", text)));
    }

    static Attempt<CapabilitySpec> of(Capability c, Origin origin) {
        CapabilityKind kind = CapabilityKind.byName(c.name()).orElse(null);
        if (kind == null)
            return Attempt.refused(CapabilityCode.UNKNOWN_CAPABILITY.at(origin, "unknown capability '" + c.name() + "'",
                    Arrays.toString(CapabilityKind.values()), c.name()));
        List<String> a = c.args();
        switch (kind) {
            case FS_READ:
                return arity(c, 1, origin).flatMap(x -> PathPattern.parse(a.get(0), origin)).map(CapabilitySpec.FsRead::new);
            case FS_WRITE:
                return arity(c, 1, origin).flatMap(x -> PathPattern.parse(a.get(0), origin)).map(CapabilitySpec.FsWrite::new);
            case PROCESS_RUN:
                return arity(c, 1, origin).flatMap(x -> executable(a.get(0), origin)).map(CapabilitySpec.ProcessRun::new);
            case SESSION_EMIT:
                return arity(c, 0, origin).map(x -> new CapabilitySpec.SessionEmit());
            case MEMORY_READ:
                return keyed(c, origin, "tree", "path").flatMap(m -> NamePattern.parse(m.get("tree"), "tree", origin)
                        .flatMap(tree -> SegmentPattern.parse(m.get("path"), origin).map(p -> new CapabilitySpec.MemoryRead(tree, p))));
            case MEMORY_WRITE:
                return keyed(c, origin, "tree", "path").flatMap(m -> NamePattern.parse(m.get("tree"), "tree", origin)
                        .flatMap(tree -> SegmentPattern.parse(m.get("path"), origin).map(p -> new CapabilitySpec.MemoryWrite(tree, p))));
            case AGENT_SPAWN:
                return keyed(c, origin, "max_depth", "max_children").flatMap(m -> count(m.get("max_depth"), "max_depth", origin)
                        .flatMap(d -> count(m.get("max_children"), "max_children", origin).map(k -> new CapabilitySpec.AgentSpawn(d, k))));
            case SCHEDULE_CREATE:
                return keyed(c, origin, "policy").flatMap(m -> NamePattern.parse(m.get("policy"), "policy", origin))
                        .map(CapabilitySpec.ScheduleCreate::new);
            case PROGRAM_INVOKE:
                return keyed(c, origin, "language").flatMap(m -> NamePattern.parse(m.get("language"), "language", origin))
                        .map(CapabilitySpec.ProgramInvoke::new);
            case MCP_CALL:
                return arity(c, 2, origin).flatMap(x -> NamePattern.parse(a.get(0), "server", origin)
                        .flatMap(s -> NamePattern.parse(a.get(1), "tool", origin).map(t -> new CapabilitySpec.McpCall(s, t))));
            case MODEL_ASK:
                return arity(c, 1, origin).flatMap(x -> NamePattern.parse(a.get(0), "model", origin)).map(CapabilitySpec.ModelAsk::new);
            case TOOL_CALL:
                return arity(c, 2, origin).flatMap(x -> NamePattern.parse(a.get(0), "tool", origin)
                        .flatMap(t -> NamePattern.parse(a.get(1), "operation", origin).map(op -> new CapabilitySpec.ToolCall(t, op))));
            case HOST_CALL:
                return arity(c, 1, origin).flatMap(x -> NamePattern.parse(a.get(0), "word", origin)).map(CapabilitySpec.HostCall::new);
            case DESKTOP_AUTOMATE:
                return arity(c, 1, origin).flatMap(x -> automationOperation(a.get(0), origin)).map(CapabilitySpec.DesktopAutomate::new);
            case NET_HTTP:
                return netHttp(c, origin);
            default:
                throw new AssertionError(kind);
        }
    }

    private static Attempt<Boolean> arity(Capability c, int n, Origin origin) {
        if (c.args().size() == n) return Attempt.ok(true);
        return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                c.name() + " takes " + n + " argument" + (n == 1 ? "" : "s"), String.valueOf(n), String.valueOf(c.args().size())));
    }

    /** Exactly the given keys, each once, in any order; values are the raw text after the first {@code =}. */
    private static Attempt<Map<String, String>> keyed(Capability c, Origin origin, String... keys) {
        List<String> wanted = List.of(keys);
        Map<String, String> out = new LinkedHashMap<>();
        for (String arg : c.args()) {
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg : arg.substring(0, eq).strip();
            if (eq < 0 || !wanted.contains(key))
                return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                        c.name() + " takes key=value parameters " + wanted, String.join(",", wanted), arg));
            if (out.put(key, arg.substring(eq + 1).strip()) != null)
                return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "duplicate parameter '" + key + "'", null, arg));
        }
        for (String k : wanted)
            if (!out.containsKey(k) || out.get(k).isEmpty())
                return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, c.name() + " needs parameter '" + k + "'", k, c.toString()));
        return Attempt.ok(out);
    }

    private static Attempt<Integer> count(String raw, String parameter, Origin origin) {
        if (!COUNT.matcher(raw).matches())
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                    "parameter '" + parameter + "' must be a whole number from 0 to 999999 without sign or leading zeros",
                    "0..999999", raw));
        return Attempt.ok(Integer.parseInt(raw));
    }

    /** {@code *} or one of the operations the automation words perform: a misspelt operation would be a grant for nothing. */
    private static Attempt<NamePattern> automationOperation(String raw, Origin origin) {
        if (!raw.equals("*") && !CapabilitySpec.DesktopAutomate.OPERATIONS.contains(raw))
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                    "desktop.automate takes one of " + CapabilitySpec.DesktopAutomate.OPERATIONS + " or *",
                    String.join("|", CapabilitySpec.DesktopAutomate.OPERATIONS) + "|*", raw));
        return NamePattern.parse(raw, "operation", origin);
    }

    /** {@code net.http(URL)} or {@code net.http(URL,method=M)}. */
    private static Attempt<CapabilitySpec> netHttp(Capability c, Origin origin) {
        List<String> a = c.args();
        if (a.size() != 1 && a.size() != 2)
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "net.http takes a URL selector and optionally method=METHOD",
                    "1 or 2", String.valueOf(a.size())));
        NamePattern method = NamePattern.ANY;
        if (a.size() == 2) {
            String m = a.get(1).startsWith("method=") ? a.get(1).substring("method=".length()).strip() : null;
            if (m == null || !(m.equals("*") || CapabilitySpec.NetHttp.METHODS.contains(m)))
                return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "net.http's second parameter is method=one of "
                        + CapabilitySpec.NetHttp.METHODS + " or method=*", "method=GET", a.get(1)));
            method = m.equals("*") ? NamePattern.ANY : new NamePattern(m);
        }
        NamePattern chosen = method;
        return UrlPattern.parse(a.get(0), origin).map(u -> new CapabilitySpec.NetHttp(u, chosen));
    }

    /** An absolute executable selector; {@code **} alone means any executable. Never a bare name: no PATH search. */
    private static Attempt<SegmentPattern> executable(String raw, Origin origin) {
        if (raw.equals("**")) return SegmentPattern.parse("**", origin);
        if (!raw.startsWith("/"))
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                    "process.run takes an absolute executable path such as /usr/bin/git, or **", "/absolute/path or **", raw));
        return SegmentPattern.parse(raw.substring(1), origin);
    }
}
