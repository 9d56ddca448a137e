package dev.finch.capabilities;

import dev.finch.ir.diag.Origin;

import java.util.regex.Pattern;

/**
 * A capability parameter that is either one exact name (a server, tool, language, policy or memory tree) or
 * {@code *} for any name. There is deliberately no partial wildcard: {@code py*} is refused.
 *
 * @param name the exact name, or {@code *}
 */
public record NamePattern(String name) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}");

    /** The pattern that admits every name. */
    public static final NamePattern ANY = new NamePattern("*");

    public NamePattern {
        if (!name.equals("*") && !NAME.matcher(name).matches()) throw new IllegalArgumentException("not a name: " + name);
    }

    /** Parses {@code *}, {@code name} or {@code "name"} (the contract quotes some values; a quoted value is exact). */
    public static Attempt<NamePattern> parse(String raw, String parameter, Origin origin) {
        boolean quoted = raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"");
        String v = quoted ? raw.substring(1, raw.length() - 1) : raw;
        if (!quoted && v.equals("*")) return Attempt.ok(ANY);
        if (!NAME.matcher(v).matches())
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                    "parameter '" + parameter + "' must be '*' or a name of letters, digits, '_', '.', '+' or '-'",
                    "a name or *", raw));
        return Attempt.ok(new NamePattern(v));
    }

    /** True when {@code name} is one exact name a pattern can hold (not {@code *}): what a server, tool or language must be to be granted. */
    public static boolean isName(String name) { return name != null && NAME.matcher(name).matches(); }

    /** True for {@code *}. */
    public boolean isAny() { return name.equals("*"); }

    /** Whether every name admitted by {@code inner} is admitted by this. */
    public boolean contains(NamePattern inner) { return isAny() || name.equals(inner.name); }

    @Override public String toString() { return name; }
}
