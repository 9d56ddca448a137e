package dev.finch.ir.cap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One capability requirement or grant in its canonical spelling, e.g. {@code fs.read(${workspace}/src/**)},
 * {@code mcp.call(server,tool)} or {@code session.emit}. This type owns only the syntax; what a capability
 * permits (scopes, containment) is decided in {@code finch-capabilities}.
 *
 * @param name the dotted capability name, canonical (decisions D9: {@code file.read} is read as {@code fs.read})
 * @param args the arguments between the parentheses, split at top-level commas; empty when there are none
 */
public record Capability(String name, List<String> args) implements Comparable<Capability> {

    /** Spellings accepted on input and printed canonically (decisions D9). */
    private static final Map<String, String> ALIASES = Map.of("file.read", "fs.read", "file.write", "fs.write");

    public static final Capability SESSION_EMIT = new Capability("session.emit", List.of());

    public Capability {
        name = ALIASES.getOrDefault(name, name);
        args = List.copyOf(args);
    }

    public static Capability of(String name, String... args) { return new Capability(name, List.of(args)); }

    /**
     * A capability's name: dotted segments (compiled once, when a spelling is first parsed: a parse per type annotation
     * must not compile it again, and a fresh JVM that builds capabilities without parsing any compiles no pattern).
     */
    private static final class Names {
        static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9_-]*(\\.[a-z0-9_<>-]+)*");
    }

    /** Parses one capability spelling; empty when it is malformed. */
    public static Optional<Capability> parse(String text) {
        String s = text.strip();
        int open = s.indexOf('(');
        String name = open < 0 ? s : s.substring(0, open).strip();
        if (!Names.NAME.matcher(name).matches()) return Optional.empty();
        if (open < 0) return Optional.of(new Capability(name, List.of()));
        if (!s.endsWith(")")) return Optional.empty();
        String inner = s.substring(open + 1, s.length() - 1);
        List<String> args = splitTopLevel(inner, ',');
        if (args == null) return Optional.empty();
        List<String> trimmed = new ArrayList<>();
        for (String a : args) {
            String t = a.strip();
            if (t.isEmpty()) return Optional.empty();
            trimmed.add(t);
        }
        return Optional.of(new Capability(name, trimmed));
    }

    /** Splits at {@code sep} outside brackets and quotes; null when brackets do not balance. */
    public static List<String> splitTopLevel(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') quoted = !quoted;
            else if (quoted) continue;
            else if (c == '(' || c == '{' || c == '[' || c == '<') depth++;
            else if (c == ')' || c == '}' || c == ']' || c == '>') { if (--depth < 0) return null; }
            else if (c == sep && depth == 0) { out.add(s.substring(start, i)); start = i + 1; }
        }
        if (depth != 0 || quoted) return null;
        if (!s.isEmpty()) out.add(s.substring(start));
        return out;
    }

    @Override public String toString() { return args.isEmpty() ? name : name + "(" + String.join(",", args) + ")"; }

    @Override public int compareTo(Capability o) { return toString().compareTo(o.toString()); }

    // Written out, as Origin's are: the implicit record methods are linked by ObjectMethods on first use (~40 ms of a
    // fresh JVM's first run, docs/performance.md).

    @Override public boolean equals(Object o) { return o instanceof Capability c && name.equals(c.name) && args.equals(c.args); }

    @Override public int hashCode() { return name.hashCode() * 31 + args.hashCode(); }
}
