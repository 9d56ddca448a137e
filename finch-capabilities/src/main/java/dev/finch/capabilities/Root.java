package dev.finch.capabilities;

import java.util.Optional;

/**
 * The separately installed filesystem roots a path selector starts from. Installing a root is availability,
 * never a grant; different roots never contain each other.
 */
public enum Root {
    WORKSPACE("workspace"),
    HOST_MACHINE("host-machine"),
    PROJECT("project"),
    TASK_OUTPUT("task.output");

    private final String spelling;

    Root(String spelling) { this.spelling = spelling; }

    /** The name between {@code ${} and {@code }}. */
    public String spelling() { return spelling; }

    /** The selector prefix, e.g. {@code ${workspace}}. */
    public String prefix() { return "${" + spelling + "}"; }

    /** The root with this spelling. */
    public static Optional<Root> bySpelling(String s) {
        for (Root r : values()) if (r.spelling.equals(s)) return Optional.of(r);
        return Optional.empty();
    }

    @Override public String toString() { return prefix(); }
}
