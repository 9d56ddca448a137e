package dev.finch.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/** The streams and environment one invocation uses: real ones from {@link Main#main}, captured ones in tests. */
record Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
    Io(InputStream in, PrintStream out, PrintStream err) { this(in, out, err, System.getenv()); }
}
