package dev.finch.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One case of the spec corpus ({@code src/test/resources/spec/*.spec}): a one-line program in Lisp or Co-Forth and
 * what it must do. The format, one case per program line and its expectations indented below it:
 *
 * <pre>
 * # a comment; "## name" starts a section (the word under test), for people only
 * forth: "a,b,,c" "," string-split
 *   stack: ["a" "b" "" "c"]
 * lisp: (say (string-upcase "straße"))
 *   output: "STRASSE"
 * forth: 1 0 /
 *   error: E-ARITH-002
 * forth: "notes.txt" path file-read bytes-to-string
 *   file: notes.txt = "hello"
 *   grant: fs.read(${workspace}/**)
 *   stack: (ok "hello")
 *   types: result&lt;string,string&gt;
 * </pre>
 *
 * {@code stack} is the displays of the final stack, bottom to top, joined by {@code " | "} ({@code (empty)} for
 * none); {@code types} their compact types the same way; {@code output} the whole {@code say} text as a JSON string;
 * {@code error} a stable code among the failed outcome's diagnostics; {@code suspended} the required capability of a
 * suspended outcome ({@code yield} for a yield, which requires none); {@code events} the outcome's events as its JSON
 * array ({@code [{"kind":"open","handle":1,"label":"x"},…]}). {@code file} (a workspace file with JSON-string contents),
 * {@code file-base64} (one with base64 contents: a binary file such as a workbook) and {@code grant} set the session up.
 * A completed case states at least its stack or its output; {@code output} alone also requires an empty stack.
 */
record SpecCase(String file, int line, String section, String language, String source, Map<String, byte[]> files,
                List<String> grants, Optional<String> stack, Optional<String> types, Optional<String> output,
                Optional<String> error, Optional<String> suspended, Optional<String> events) {

    /** A short name for the test report. */
    String name() { return file + ":" + line + " " + language + ": " + source; }

    /** Every case of every corpus file, in file order. */
    static List<SpecCase> all() {
        List<SpecCase> out = new ArrayList<>();
        for (Path p : corpusFiles()) out.addAll(parse(p.getFileName().toString(), read(p)));
        return out;
    }

    static List<Path> corpusFiles() {
        URL dir = SpecCase.class.getResource("/spec");
        if (dir == null) throw new IllegalStateException("src/test/resources/spec is missing");
        try (Stream<Path> s = Files.list(Path.of(dir.toURI()))) {
            return s.filter(p -> p.toString().endsWith(".spec")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path p) {
        try (InputStream in = Files.newInputStream(p)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses one corpus file; a malformed line is an error naming its place, never skipped. */
    static List<SpecCase> parse(String file, String text) {
        List<SpecCase> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        String section = "";
        Builder current = null;
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            String line = raw.strip();
            int n = i + 1;
            if (line.isEmpty()) continue;
            if (line.startsWith("## ")) { section = line.substring(3).strip(); continue; }
            if (line.startsWith("#")) continue;
            if (!Character.isWhitespace(raw.charAt(0))) {
                if (current != null) out.add(current.build());
                int colon = line.indexOf(':');
                String lang = colon < 0 ? "" : line.substring(0, colon);
                if (!lang.equals("lisp") && !lang.equals("forth")) throw bad(file, n, "a case starts with lisp: or forth:");
                current = new Builder(file, n, section, lang, line.substring(colon + 1).strip());
                continue;
            }
            if (current == null) throw bad(file, n, "an expectation before any case");
            int colon = line.indexOf(':');
            if (colon < 0) throw bad(file, n, "an expectation is key: value");
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "stack" -> current.stack = value;
                case "types" -> current.types = value;
                case "output" -> current.output = value;
                case "events" -> current.events = value;
                case "error" -> current.error = value;
                case "suspended" -> current.suspended = value;
                case "grant" -> current.grants.add(value);
                case "file", "file-base64" -> {
                    int eq = value.indexOf(" = ");
                    if (eq < 0) throw bad(file, n, key + ": NAME = " + (key.equals("file") ? "\"contents\"" : "BASE64"));
                    String contents = value.substring(eq + 3).strip();
                    current.files.put(value.substring(0, eq).strip(), key.equals("file") ? utf8(file, n, contents) : base64(file, n, contents));
                }
                default -> throw bad(file, n, "unknown expectation `" + key + "`");
            }
        }
        if (current != null) out.add(current.build());
        for (SpecCase c : out) {
            int outcomes = (c.error().isPresent() ? 1 : 0) + (c.suspended().isPresent() ? 1 : 0)
                    + (c.stack().isPresent() || c.output().isPresent() ? 1 : 0);
            if (outcomes != 1) throw bad(file, c.line(), "a case expects exactly one of: a stack and/or output, an error, a suspension");
        }
        return out;
    }

    /** A JSON string's contents as UTF-8. */
    private static byte[] utf8(String file, int line, String json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, String.class).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw bad(file, line, "file contents are a JSON string");
        }
    }

    private static byte[] base64(String file, int line, String text) {
        try {
            return java.util.Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw bad(file, line, "file-base64 contents are base64");
        }
    }

    private static IllegalArgumentException bad(String file, int line, String why) {
        return new IllegalArgumentException(file + ":" + line + ": " + why);
    }

    private static final class Builder {
        final String file;
        final int line;
        final String section;
        final String language;
        final String source;
        final Map<String, byte[]> files = new LinkedHashMap<>();
        final List<String> grants = new ArrayList<>();
        String stack;
        String types;
        String output;
        String error;
        String suspended;
        String events;

        Builder(String file, int line, String section, String language, String source) {
            this.file = file;
            this.line = line;
            this.section = section;
            this.language = language;
            this.source = source;
        }

        SpecCase build() {
            return new SpecCase(file, line, section, language, source, files, grants, Optional.ofNullable(stack), Optional.ofNullable(types),
                    Optional.ofNullable(output), Optional.ofNullable(error), Optional.ofNullable(suspended),
                    Optional.ofNullable(events));
        }
    }
}
