package dev.finch.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * The streams and environment one invocation uses: real ones from {@link Main#main}, captured ones in tests.
 * {@code terminal} says whether standard output is a terminal (output handles are then drawn in place).
 */
record Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env, boolean terminal) {
    Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) { this(in, out, err, env, false); }

    Io(InputStream in, PrintStream out, PrintStream err) { this(in, out, err, System.getenv()); }
}
