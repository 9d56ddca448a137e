package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared conformance cases (copied from {@code ../shared/conformance/cases} into
 * {@code src/test/resources/conformance}), run in-process through {@link Main} with captured streams, checking
 * the same keys as the shared {@code conformance/run} script: status, output, stack types and displays, the first
 * diagnostic's phase and code, capability sets, exit status, and the workspace afterwards.
 */
class ConformanceTest {
    /**
     * Cases whose feature is not built yet, by name prefix, with the issue that enables them. They are reported as
     * skipped (JUnit assumptions), never as passed. Remove an entry when its issue lands.
     */
    static final Map<String, String> PENDING = new LinkedHashMap<>();

    static {
        // Every conformance case passes; a case that cannot yet goes here with the issue that will make it pass.
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> conformanceCases() throws IOException, URISyntaxException {
        Path dir = Path.of(ConformanceTest.class.getResource("/conformance").toURI());
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path expect : files.filter(p -> p.getFileName().toString().endsWith(".expect.json")).sorted().toList()) {
                String base = expect.getFileName().toString().replace(".expect.json", "");
                tests.add(DynamicTest.dynamicTest(base, () -> {
                    pending(base).ifPresent(why -> Assumptions.abort("pending, " + why));
                    HangGuard.run(base, () -> runCase(dir, base, JSON.readTree(expect.toFile())));
                }));
            }
        }
        assertThat(tests).as("conformance cases found").hasSizeGreaterThanOrEqualTo(20);
        return tests.stream();
    }

    static Optional<String> pending(String base) {
        return PENDING.entrySet().stream().filter(e -> base.startsWith(e.getKey())).map(Map.Entry::getValue).findFirst();
    }

    /** What one in-process invocation of the command line left behind. */
    record Run(int exit, String out, String err) {
        List<JsonNode> outcomes() {
            List<JsonNode> objs = new ArrayList<>();
            for (String line : out.split("\n")) {
                String l = line.strip();
                if (l.startsWith("{")) {
                    try {
                        objs.add(JSON.readTree(l));
                    } catch (IOException e) {
                        throw new UncheckedIOException("not JSON: " + l, e);
                    }
                }
            }
            return objs;
        }
    }

    static Run invoke(List<String> args, String stdin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(args.toArray(String[]::new), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out, err);
        Run r = new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        // Whatever a program does, no Java stack trace reaches the user.
        assertThat(r.err()).as("stderr of %s", args).doesNotContain("\tat ").doesNotContain("Exception in thread");
        return r;
    }

    private void runCase(Path dir, String base, JsonNode e) throws IOException {
        Path ws = Files.createTempDirectory(temp, "ws-");
        for (Iterator<Map.Entry<String, JsonNode>> it = fields(e, "workspace"); it.hasNext(); ) {
            var f = it.next();
            Path p = ws.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue().asText());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = fields(e, "symlinks"); it.hasNext(); ) {
            var f = it.next();
            Path p = ws.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.createSymbolicLink(p, Path.of(f.getValue().asText()));
        }
        List<String> args = new ArrayList<>();
        if (e.has("workspace") || e.has("symlinks")) args.addAll(List.of("--workspace", ws.toString()));
        for (JsonNode a : iterable(e.get("args"))) args.add(a.asText().replace("{ws}", ws.toString()));
        List<String> sources = sources(dir, base);
        String mode = e.path("mode").asText("run");
        List<String> why = new ArrayList<>();
        Run r;
        switch (mode) {
            case "test" -> {
                r = invoke(concat(List.of("test"), args, sources), "");
                String[] lines = r.out().strip().split("\n");
                String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
                if (e.has("summary") && !last.equals(e.get("summary").asText())) why.add("last line '" + last + "' != " + e.get("summary") + "; stderr: " + r.err());
            }
            case "check" -> {
                r = invoke(concat(List.of("check", "--json"), args, sources), "");
                List<JsonNode> objs = r.outcomes();
                if (objs.isEmpty()) why.add("no JSON from check; stderr: " + r.err());
                else checkOutcome(objs.get(objs.size() - 1), e, why);
            }
            case "roundtrip" -> {
                r = invoke(concat(List.of("check", "--emit", "forth"), args, sources), "");
                if (r.exit() != 0) {
                    why.add("check --emit forth exit " + r.exit() + ": " + r.err());
                } else {
                    Path fth = ws.resolve("emitted.fth");
                    Files.writeString(fth, r.out());
                    List<JsonNode> a = invoke(concat(List.of("run", "--json"), args, sources), "").outcomes();
                    Run second = invoke(concat(List.of("run", "--json"), args, List.of(fth.toString())), "");
                    List<JsonNode> b = second.outcomes();
                    if (a.isEmpty() || b.isEmpty()) {
                        why.add("no outcome (original " + a.size() + ", emitted " + b.size() + "): " + second.err() + "\nemitted:\n" + r.out());
                    } else {
                        for (String k : List.of("status", "output")) {
                            if (!a.get(a.size() - 1).path(k).equals(b.get(b.size() - 1).path(k))) {
                                why.add("emitted Co-Forth differs in " + k + ": " + a.get(a.size() - 1).path(k) + " vs " + b.get(b.size() - 1).path(k));
                            }
                        }
                        checkOutcome(b.get(b.size() - 1), e, why);
                    }
                    r = second;
                }
            }
            default -> {
                if (e.path("stdin").asBoolean(false)) {
                    r = invoke(concat(List.of("run", "--json"), args, List.of("-")), Files.readString(Path.of(sources.get(0))));
                } else {
                    r = invoke(concat(List.of("run", "--json"), args, sources), "");
                }
                List<JsonNode> objs = r.outcomes();
                if (e.has("submissions")) {
                    JsonNode subs = e.get("submissions");
                    if (objs.size() != subs.size()) why.add(objs.size() + " outcomes for " + subs.size() + " submissions; stderr: " + r.err());
                    for (int i = 0; i < Math.min(objs.size(), subs.size()); i++) {
                        List<String> sub = new ArrayList<>();
                        checkOutcome(objs.get(i), subs.get(i), sub);
                        for (String w : sub) why.add("submission " + (i + 1) + ": " + w);
                    }
                } else if (objs.isEmpty()) {
                    why.add("no JSON outcome; exit " + r.exit() + "; stderr: " + r.err());
                } else {
                    checkOutcome(objs.get(objs.size() - 1), e, why);
                }
            }
        }
        if (e.has("exit") && r.exit() != e.get("exit").asInt()) why.add("exit " + r.exit() + " != " + e.get("exit").asInt() + "; stderr: " + r.err());
        for (Iterator<Map.Entry<String, JsonNode>> it = fields(e, "workspace_after"); it.hasNext(); ) {
            var f = it.next();
            Path p = ws.resolve(f.getKey());
            if (!Files.isRegularFile(p) || !Files.readString(p).equals(f.getValue().asText())) why.add("workspace file " + f.getKey() + " missing or not " + f.getValue());
        }
        for (JsonNode rel : iterable(e.get("workspace_absent"))) {
            if (Files.exists(ws.resolve(rel.asText()), java.nio.file.LinkOption.NOFOLLOW_LINKS)) why.add("workspace file " + rel.asText() + " exists");
        }
        assertThat(why).as("case %s", base).isEmpty();
    }

    /** The same checks as {@code check_outcome} in the shared runner. */
    static void checkOutcome(JsonNode o, JsonNode e, List<String> why) {
        if (e.has("status") && !o.path("status").asText().equals(e.get("status").asText())) why.add("status " + o.path("status") + " != " + e.get("status"));
        if (e.has("output") && !o.path("output").equals(e.get("output"))) why.add("output " + o.path("output") + " != " + e.get("output"));
        List<String> types = new ArrayList<>();
        List<String> displays = new ArrayList<>();
        for (JsonNode s : iterable(o.get("stack"))) {
            types.add(s.path("type").asText(null));
            displays.add(s.path("display").asText(null));
        }
        if (e.has("stack_types") && !types.equals(strings(e.get("stack_types")))) why.add("stack types " + types + " != " + e.get("stack_types"));
        if (e.has("stack_display") && !displays.equals(strings(e.get("stack_display")))) why.add("stack display " + displays + " != " + e.get("stack_display"));
        JsonNode diags = o.path("diagnostics");
        JsonNode first = diags.isArray() && diags.size() > 0 ? diags.get(0) : JSON.createObjectNode();
        if (e.has("phase")) {
            List<String> allowed = e.get("phase").isArray() ? strings(e.get("phase")) : List.of(e.get("phase").asText());
            if (!allowed.contains(first.path("phase").asText(null))) why.add("first diagnostic phase " + first.path("phase") + " not in " + allowed);
        }
        if (e.has("code") && !first.path("code").asText("").equals(e.get("code").asText())) why.add("first diagnostic code " + first.path("code") + " != " + e.get("code"));
        if (e.has("code_prefix") && !first.path("code").asText("").startsWith(e.get("code_prefix").asText())) {
            why.add("first diagnostic code " + first.path("code") + " lacks prefix " + e.get("code_prefix"));
        }
        for (String[] pair : new String[][] {{"required_contains", "required_capabilities"}, {"inferred_contains", "inferred_capabilities"}}) {
            if (e.has(pair[0])) {
                String text = o.has(pair[1]) ? o.get(pair[1]).toString() : "[]";
                for (String piece : strings(e.get(pair[0]))) if (!text.contains(piece)) why.add(pair[1] + " " + text + " lacks " + piece);
            }
        }
        if (e.path("required_empty").asBoolean(false) && o.path("required_capabilities").size() > 0) {
            why.add("required_capabilities not empty: " + o.get("required_capabilities"));
        }
    }

    /** A case's sources: the file beside its expectations, or the numbered files of its folder in order. */
    static List<String> sources(Path dir, String base) throws IOException {
        Path folder = dir.resolve(base);
        if (Files.isDirectory(folder)) {
            try (Stream<Path> s = Files.list(folder)) {
                return s.sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().split("\\.")[0])))
                        .map(Path::toString).toList();
            }
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<String> found = s.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith(base + ".") && !n.endsWith(".expect.json");
            }).map(Path::toString).toList();
            assertThat(found).as("source of %s", base).hasSize(1);
            return found;
        }
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> out = new ArrayList<>();
        for (List<String> p : parts) out.addAll(p);
        return out;
    }

    private static Iterator<Map.Entry<String, JsonNode>> fields(JsonNode e, String key) {
        return e.has(key) ? e.get(key).properties().iterator() : java.util.Collections.emptyIterator();
    }

    private static Iterable<JsonNode> iterable(JsonNode n) { return n == null ? List.of() : n; }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (JsonNode x : iterable(n)) out.add(x.asText());
        return out;
    }
}
