package dev.finch.ir.diag;

import java.util.Locale;

/** The pipeline phase a diagnostic comes from (decisions D4). */
public enum Phase {
    PARSE, EXPAND, LOWER, VERIFY, EXECUTE, HOST;

    /** The JSON spelling: lowercase. */
    public String spelling() { return name().toLowerCase(Locale.ROOT); }

    @Override public String toString() { return spelling(); }
}
