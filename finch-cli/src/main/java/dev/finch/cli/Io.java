package dev.finch.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** The streams one invocation uses: real ones from {@link Main#main}, captured ones in tests. */
record Io(InputStream in, PrintStream out, PrintStream err) { }
