package dev.finch.capabilities;

import java.util.Locale;
import java.util.Optional;

/** How long a grant lives, narrowest first: the declaration order is the containment order used by attenuation. */
public enum Scope {
    /** Valid for one use, then consumed. */
    ONCE,
    /** Valid until the task ends. */
    TASK,
    /** Valid until the session ends. */
    SESSION,
    /** Valid for the project. */
    PROJECT,
    /** Valid everywhere until revoked. */
    GLOBAL;

    /** The lowercase spelling. */
    public String spelling() { return name().toLowerCase(Locale.ROOT); }

    /** True when a grant of this scope lives no longer than one of {@code other}. */
    public boolean within(Scope other) { return ordinal() <= other.ordinal(); }

    /** The scope with this lowercase spelling. */
    public static Optional<Scope> bySpelling(String s) {
        for (Scope v : values()) if (v.spelling().equals(s)) return Optional.of(v);
        return Optional.empty();
    }

    @Override public String toString() { return spelling(); }
}
