package dev.finch.vm.boundary;

import java.util.regex.Pattern;

/**
 * Text that came from outside Finch — an MCP server's error message or {@code isError} text, a process's standard
 * error, a host's or an embedder's exception — on its way into a diagnostic, which a program and a model read. It is
 * cut to {@link #MAX_CHARS} and scrubbed of Java internals: qualified class names ({@code java.io.IOException},
 * {@code com.fasterxml…JsonNode}) and paths under the JVM's temporary directory become neutral words, so a message
 * never tells a model what the host runs on or where it keeps its files. The original goes to the host: {@link #log}
 * writes the exception to the platform logger {@value #LOGGER} ({@link System.Logger}, at {@code WARNING}), which an
 * embedder routes to its own logging (SLF4J, JUL, …).
 */
public final class HostText {
    private HostText() { }

    /** The most characters of outside text one diagnostic carries. */
    public static final int MAX_CHARS = 2_000;
    /** The platform logger that receives the original exceptions. */
    public static final String LOGGER = "dev.finch.host";

    /** A qualified Java name: lower-case package segments, then a capitalized class (with nested classes). */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.){1,}(?:[a-z][a-z0-9_]*…)?[A-Z][A-Za-z0-9_]*(?:\\$[A-Za-z0-9_]+)*\\b");
    /** A package path cut short ({@code com.fasterxml…}), as libraries print them. */
    private static final Pattern PACKAGE_ELLIPSIS = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[a-z0-9_]*…[A-Za-z0-9_.$]*");

    /** {@code text} cut to {@link #MAX_CHARS} and scrubbed (see the class comment); "" for null. */
    public static String external(String text) { return bound(scrub(text)); }

    /** {@code text} cut to {@code max} characters, saying how many were left out; "" for null. */
    public static String bound(String text, int max) {
        if (text == null) return "";
        if (text.length() <= max) return text;
        int end = max;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) end--;
        return text.substring(0, end) + "… (" + (text.length() - end) + " more characters)";
    }

    /** {@code text} cut to {@link #MAX_CHARS}. */
    public static String bound(String text) { return bound(text, MAX_CHARS); }

    /** {@code text} without qualified class names and temporary paths; "" for null. */
    public static String scrub(String text) {
        if (text == null) return "";
        // Scrubbing looks at a bounded prefix only: what is past it is cut anyway.
        String s = text.length() > 4 * MAX_CHARS ? text.substring(0, 4 * MAX_CHARS) : text;
        String tmp = System.getProperty("java.io.tmpdir", "/tmp");
        if (tmp.length() > 1) {
            String dir = tmp.endsWith("/") ? tmp.substring(0, tmp.length() - 1) : tmp;
            s = s.replaceAll(Pattern.quote(dir) + "(?:/[^\\s'\"`:;,)]*)?", "a temporary file");
        }
        if (!"/tmp".equals(tmp)) s = s.replaceAll("/tmp(?:/[^\\s'\"`:;,)]*)?", "a temporary file");
        s = PACKAGE_ELLIPSIS.matcher(s).replaceAll("a library type");
        s = CLASS_NAME.matcher(s).replaceAll(m -> m.group().endsWith("Exception") || m.group().endsWith("Error") ? "an error" : "a library type");
        return s;
    }

    /** Sends {@code thrown} with what it interrupted to the host's log ({@value #LOGGER}). */
    public static void log(String what, Throwable thrown) {
        try {
            System.getLogger(LOGGER).log(System.Logger.Level.WARNING, what, thrown);
        } catch (RuntimeException ignored) {
            // A broken logging setup must not turn a handled failure into another.
        }
    }
}
