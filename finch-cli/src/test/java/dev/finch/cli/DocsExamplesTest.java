package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.CheckResult;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ToolResults;
import dev.finch.norman.providers.Tools;
import dev.finch.vm.host.EffectJournal;
import dev.finch.vm.host.EffectObserver;
import dev.finch.vm.host.EffectRequest;
import dev.finch.vm.host.FileHost;
import dev.finch.vm.host.HostCode;
import dev.finch.vm.host.HostFailure;
import dev.finch.vm.host.HostResponse;
import dev.finch.vm.host.LocalProcessHost;
import dev.finch.vm.host.ProcessHost;
import dev.finch.vm.host.ToolHost;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;
import dev.finch.vm.word.WordFailure;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the user documentation true. Three checks:
 * <ol>
 *   <li>every {@code ```forth} and {@code ```lisp} block of the user guides is a program followed by a line
 *       {@code <!-- expect: key="value" … -->}; each runs through a real {@link Session} and its outcome must match
 *       (a block without an expectation fails: no untested examples);</li>
 *   <li>the vocabulary table of {@code docs/forth.md} is exactly what {@link #vocabularyMarkdown()} generates from
 *       {@link Vocabulary}, the one source of truth; regenerate with
 *       {@code mvn -o -q -pl finch-cli test -Dtest=DocsExamplesTest -Dfinch.regenerate=true};</li>
 *   <li>the Java snippets of {@code docs/embedding.md} are the bodies of the methods below between
 *       {@code // doc:NAME:begin} and {@code // doc:NAME:end}, which compile and run here.</li>
 * </ol>
 * Expectation keys: {@code output} (exact say text), {@code status} (completed unless a code is given, then failed),
 * {@code code} (a diagnostic code the outcome carries), {@code stack} / {@code types} (displays / types, bottom to
 * top, joined by {@code ", "}), {@code required} / {@code inferred} (capabilities joined by {@code ", "}),
 * {@code yielded}, {@code revision}; setup keys: {@code session} (blocks naming the same session share one, in
 * document order), {@code grant} (repeatable), {@code file} ({@code name=content}, repeatable; creates a workspace),
 * {@code approve} (a scope: approve every capability request), {@code deny} (a reason), {@code resume}
 * ({@code all}: resume yields until the run ends). Values use backslash escapes {@code \n \t \" \\}.
 */
class DocsExamplesTest {
    /** Surefire runs in the module directory; the documentation lives in the repository's docs. */
    static final Path DOCS = Path.of("..", "docs");
    static final List<String> GUIDES = List.of("guide.md", "forth.md", "capabilities.md", "embedding.md");

    private static final Pattern FENCE = Pattern.compile("^```(forth|lisp)\\s*$");
    private static final Pattern EXPECT = Pattern.compile("^<!-- expect: (.*) -->\\s*$");
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-z]+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final List<String> KEYS = List.of("output", "status", "code", "stack", "types", "required", "inferred",
            "yielded", "revision", "session", "grant", "file", "approve", "deny", "resume");

    private static final Finch FINCH = Finch.builder().maxSteps(10_000_000).timeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path temp;

    // ------------------------------------------------------------------------------------------------ examples

    /** One fenced example and its expectation. */
    record Example(String file, int line, Language language, String source, Map<String, List<String>> expect) {
        Optional<String> one(String key) {
            List<String> v = expect.getOrDefault(key, List.of());
            return v.isEmpty() ? Optional.empty() : Optional.of(v.get(v.size() - 1));
        }

        List<String> all(String key) { return expect.getOrDefault(key, List.of()); }

        String name() { return file + ":" + line; }
    }

    @TestFactory
    Stream<DynamicNode> everyExampleRunsAsDocumented() throws IOException {
        List<DynamicNode> files = new ArrayList<>();
        int total = 0;
        for (String guide : GUIDES) {
            List<Example> examples = extract(guide, Files.readString(DOCS.resolve(guide), StandardCharsets.UTF_8));
            total += examples.size();
            Map<String, Session> sessions = new HashMap<>();
            List<DynamicTest> tests = new ArrayList<>();
            for (Example e : examples) tests.add(DynamicTest.dynamicTest(e.name(), () -> run(e, sessions)));
            files.add(DynamicContainer.dynamicContainer(guide, tests));
        }
        int found = total;
        files.add(DynamicTest.dynamicTest("the guides hold their examples", () -> assertThat(found).as("documented examples").isGreaterThanOrEqualTo(60)));
        return files.stream();
    }

    /** The fenced Co-Forth and Lisp examples of one guide; a block without an expectation line is an error. */
    static List<Example> extract(String file, String text) {
        List<Example> out = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches()) continue;
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).startsWith("```")) end++;
            if (end >= lines.size()) throw new AssertionError(file + ":" + (i + 1) + ": the code block is not closed");
            String source = String.join("\n", lines.subList(start, end)) + "\n";
            Matcher expect = end + 1 < lines.size() ? EXPECT.matcher(lines.get(end + 1)) : null;
            if (expect == null || !expect.matches()) {
                throw new AssertionError(file + ":" + (i + 1) + ": a ```" + fence.group(1)
                        + " block must be followed by <!-- expect: … --> (use ```text for a fragment that does not run)");
            }
            Language lang = fence.group(1).equals("lisp") ? Language.LISP : Language.FORTH;
            out.add(new Example(file, i + 1, lang, source, attributes(file + ":" + (end + 2), expect.group(1))));
            i = end + 1;
        }
        return out;
    }

    static Map<String, List<String>> attributes(String where, String text) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Matcher m = ATTRIBUTE.matcher(text);
        int at = 0;
        while (m.find()) {
            if (!text.substring(at, m.start()).isBlank()) throw new AssertionError(where + ": cannot read '" + text.substring(at, m.start()) + "'");
            if (!KEYS.contains(m.group(1))) throw new AssertionError(where + ": unknown expectation key '" + m.group(1) + "'");
            out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(unescape(m.group(2)));
            at = m.end();
        }
        if (!text.substring(at).isBlank() || out.isEmpty()) throw new AssertionError(where + ": malformed expectation '" + text + "'");
        return out;
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) { b.append(c); continue; }
            char n = s.charAt(++i);
            switch (n) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                default -> b.append(n);
            }
        }
        return b.toString();
    }

    private void run(Example e, Map<String, Session> sessions) throws IOException {
        String group = e.one("session").orElse(null);
        Session session = group == null ? null : sessions.get(group);
        if (session == null) {
            session = FINCH.newSession(options(e));
            if (group != null) sessions.put(group, session);
        } else {
            assertThat(e.all("grant")).as("%s: grants and files belong to a session's first example", e.name()).isEmpty();
            assertThat(e.all("file")).as("%s: grants and files belong to a session's first example", e.name()).isEmpty();
        }
        Outcome o = session.submit(Submission.of(e.source(), e.file()).withLanguage(e.language()));
        for (int guard = 0; guard < 100 && o instanceof Outcome.Suspended s; guard++) {
            if (s.yielded().isPresent() && e.one("resume").isPresent()) o = session.resume(o.executionId());
            else if (!o.requiredCapabilities().isEmpty() && e.one("approve").isPresent()) {
                o = session.approve(o.executionId(), Scope.bySpelling(e.one("approve").get()).orElseThrow());
            } else if (!o.requiredCapabilities().isEmpty() && e.one("deny").isPresent()) {
                o = session.deny(o.executionId(), e.one("deny").get());
            } else break;
        }
        check(e, o);
    }

    private SessionOptions options(Example e) throws IOException {
        SessionOptions options = SessionOptions.DEFAULT;
        if (!e.all("file").isEmpty()) {
            Path ws = Files.createTempDirectory(temp, "workspace");
            for (String f : e.all("file")) {
                int eq = f.indexOf('=');
                Path p = ws.resolve(f.substring(0, eq));
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.substring(eq + 1), StandardCharsets.UTF_8);
            }
            options = options.withWorkspace(ws);
        }
        for (String g : e.all("grant")) options = options.withGrant(g);
        return options;
    }

    private static void check(Example e, Outcome o) {
        String what = e.name() + " (" + FinchJson.write(o) + ")";
        String status = e.one("status").orElse(e.one("code").isPresent() ? "failed" : "completed");
        assertThat(o.status().spelling()).as("status of %s", what).isEqualTo(status);
        e.one("output").ifPresent(v -> assertThat(o.output()).as("output of %s", what).isEqualTo(v));
        for (String code : e.all("code")) {
            assertThat(o.diagnostics()).as("diagnostics of %s", what).extracting(Diagnostic::code).contains(code);
        }
        e.one("stack").ifPresent(v -> assertThat(joined(o.stack(), StackEntry::display)).as("stack of %s", what).isEqualTo(v));
        e.one("types").ifPresent(v -> assertThat(joined(o.stack(), StackEntry::type)).as("stack types of %s", what).isEqualTo(v));
        e.one("required").ifPresent(v -> assertThat(String.join(", ", o.requiredCapabilities())).as("required of %s", what).isEqualTo(v));
        e.one("inferred").ifPresent(v -> assertThat(String.join(", ", o.inferredCapabilities())).as("inferred of %s", what).isEqualTo(v));
        e.one("revision").ifPresent(v -> assertThat(o.vmRevision()).as("revision of %s", what).isEqualTo(Long.parseLong(v)));
        e.one("yielded").ifPresent(v -> assertThat(((Outcome.Suspended) o).yielded().map(StackEntry::display)).as("yield of %s", what).contains(v));
    }

    private static String joined(List<StackEntry> stack, java.util.function.Function<StackEntry, String> f) {
        return stack.stream().map(f).collect(Collectors.joining(", "));
    }

    @Test
    void theExtractorRefusesAnExampleWithoutExpectation() {
        String doc = "text\n```forth\n1 2 +\n```\nmore\n";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> extract("x.md", doc)).hasMessageContaining("x.md:2");
        assertThat(extract("x.md", "```lisp\n(+ 1 2)\n```\n<!-- expect: stack=\"3\" types=\"int\" -->\n"))
                .singleElement().satisfies(e -> {
                    assertThat(e.language()).isEqualTo(Language.LISP);
                    assertThat(e.one("stack")).contains("3");
                });
        assertThat(attributes("x", "output=\"a\\\"b\\n\" grant=\"x\" grant=\"y\"")).containsEntry("output", List.of("a\"b\n"))
                .containsEntry("grant", List.of("x", "y"));
    }

    /** The outcome objects docs/guide.md shows are the real ones for the programs it names. */
    @Test
    void theGuideShowsRealOutcomes() throws IOException {
        String guide = Files.readString(DOCS.resolve("guide.md"), StandardCharsets.UTF_8);
        Session session = Finch.builder().instanceId("k7q2xm").build().newSession();
        Outcome done = session.submit(Submission.of(": square ( int -- int ) dup * ;  \"7 squared is \" say  7 square dup int-to-string say", "turn-1"));
        Outcome failed = session.submit(Submission.of("\"3\" 4 +", "turn-1"));
        assertThat(guide).contains(FinchJson.write(done) + "\n" + FinchJson.write(failed) + "\n");
    }

    // ------------------------------------------------------------------------------------------------ vocabulary

    static final String VOCAB_BEGIN = "<!-- vocabulary:begin -->";
    static final String VOCAB_END = "<!-- vocabulary:end -->";

    /** The generated vocabulary section of docs/forth.md: every word of the core vocabulary by category, then syntax. */
    static String vocabularyMarkdown() {
        StringBuilder b = new StringBuilder();
        b.append("<!-- Generated from the word declarations (dev.finch.vm.word.Library.core()) by DocsExamplesTest; do not edit by hand. Regenerate with\n")
                .append("     mvn -o -q -pl finch-cli test -Dtest=DocsExamplesTest -Dfinch.regenerate=true -->\n");
        Map<WordSpec.Category, List<WordSpec>> byCategory = new java.util.EnumMap<>(WordSpec.Category.class);
        for (WordSpec w : dev.finch.vm.VmState.EMPTY.library().vocabulary().words()) byCategory.computeIfAbsent(w.category(), c -> new ArrayList<>()).add(w);
        for (var entry : byCategory.entrySet()) {
            b.append("\n#### ").append(title(entry.getKey())).append("\n\n");
            b.append("| Word | Signature | What it does |\n|---|---|---|\n");
            for (WordSpec w : entry.getValue()) {
                String sig = "`" + cell(w.signatureText()) + "`";
                if (w.special()) sig += " (shape only: typed by its own verifier rule)";
                b.append("| `").append(cell(w.name())).append("` | ").append(sig).append(" | ").append(cell(w.doc())).append(" |\n");
            }
        }
        b.append("\n#### Source syntax (no runtime signature)\n\n| Name | Languages | Form | What it does |\n|---|---|---|---|\n");
        for (SyntaxSpec s : dev.finch.ir.vocab.SourceSyntax.all()) {
            b.append("| `").append(cell(s.name())).append("` | ").append(String.join(", ", s.languages())).append(" | `")
                    .append(cell(s.form())).append("` | ").append(cell(s.doc())).append(" |\n");
        }
        return b.toString();
    }

    private static String title(WordSpec.Category c) {
        String n = c.name().toLowerCase(java.util.Locale.ROOT);
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    /** Table cells: a literal '|' must be escaped even inside backticks (GitHub-flavoured Markdown). */
    private static String cell(String s) { return s.replace("|", "\\|"); }

    @Test
    void theVocabularyTableIsGeneratedFromTheVocabulary() throws IOException {
        Path doc = DOCS.resolve("forth.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int begin = text.indexOf(VOCAB_BEGIN);
        int end = text.indexOf(VOCAB_END);
        assertThat(begin).as("docs/forth.md has %s … %s", VOCAB_BEGIN, VOCAB_END).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String generated = vocabularyMarkdown();
        String current = text.substring(begin + VOCAB_BEGIN.length() + 1, end);
        if (Boolean.getBoolean("finch.regenerate") && !current.equals(generated)) {
            Files.writeString(doc, text.substring(0, begin + VOCAB_BEGIN.length() + 1) + generated + text.substring(end), StandardCharsets.UTF_8);
            current = generated;
        }
        assertThat(current).as("docs/forth.md vocabulary table (regenerate: -Dfinch.regenerate=true)").isEqualTo(generated);
        for (WordSpec w : dev.finch.vm.VmState.EMPTY.library().vocabulary().words()) assertThat(current).contains("| `" + cell(w.name()) + "` |");
    }

    // ------------------------------------------------------------------------------------------------ embedding.md

    /** Each snippet of docs/embedding.md must appear there verbatim (without this file's indentation). */
    @Test
    void theEmbeddingSnippetsAreTheOnesInTheGuide() throws IOException {
        String doc = Files.readString(DOCS.resolve("embedding.md"), StandardCharsets.UTF_8);
        Map<String, String> snippets = snippets();
        assertThat(snippets).containsKeys("limits", "turns", "approve", "deferred", "remote", "observe", "cancel", "check", "yield", "durable", "discover",
                "wordclass", "words", "memoryfiles", "filehost", "filehosts", "roots", "toolhost", "modelworld");
        snippets.forEach((name, body) -> assertThat(doc).as("docs/embedding.md shows snippet '%s' verbatim:\n%s", name, body).contains(body));
    }

    static Map<String, String> snippets() throws IOException {
        String src = Files.readString(Path.of("src/test/java/dev/finch/cli/DocsExamplesTest.java"), StandardCharsets.UTF_8);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("// doc:([a-z]+):begin\\n(.*?)\\n\\s*// doc:\\1:end", Pattern.DOTALL).matcher(src);
        while (m.find()) {
            // Strip the snippet's own indentation (8 spaces inside a method, 4 for a class declared in this test).
            List<String> lines = m.group(2).lines().toList();
            int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
            out.put(m.group(1), lines.stream().map(l -> l.length() >= indent ? l.substring(indent) : l.strip())
                    .collect(Collectors.joining("\n")));
        }
        return out;
    }

    // doc:wordclass:begin
    public static final class Units {
        @Word(name = "celsius", doc = "Degrees Fahrenheit in Celsius.")
        @Overload(sig = "float -> float")
        public static double celsius(double fahrenheit) { return (fahrenheit - 32) * 5 / 9; }

        @Word(name = "station-reading", doc = "The latest reading of a weather station, from the host's service.")
        @Overload(sig = "string -> float ! {host.call(station-reading)}")
        public static double reading(String station) {
            if (station.isBlank()) throw new WordFailure("no station named");   // the run fails with E-HOST-017
            return 68.0;                                                      // (a real host asks its service)
        }
    }
    // doc:wordclass:end

    @Test
    void words() {
        // doc:words:begin
        Finch finch = Finch.builder().words(Units.class).build();
        Session session = finch.newSession(SessionOptions.DEFAULT.withGrant("host.call(station-reading)"));
        Outcome lisp = session.submit(Submission.of("(celsius (station-reading \"oslo-1\"))", "turn-1"));
        Outcome forth = session.submit(Submission.of("212.0 celsius", "turn-2"));
        // lisp: completed, stack [20.0]; forth: completed, stack [20.0 100.0]
        // without the grant, turn-1 would be suspended, waiting for approval of host.call(station-reading)
        // doc:words:end
        assertThat(lisp.stack()).containsExactly(new StackEntry("float", "20.0"));
        assertThat(forth.stack()).containsExactly(new StackEntry("float", "20.0"), new StackEntry("float", "100.0"));
        Outcome waits = finch.newSession().submit(Submission.of("(celsius (station-reading \"oslo-1\"))", "t"));
        assertThat(waits.requiredCapabilities()).containsExactly("host.call(station-reading)");
        assertThat(session.submit(Submission.of("\"\" station-reading", "t")).diagnostics()).extracting(Diagnostic::code).containsExactly("E-HOST-017");
    }

    @Test
    void limits() {
        // doc:limits:begin
        Finch finch = Finch.builder()
                .maxSteps(5_000_000)                  // calls and loop back-edges per run
                .timeout(Duration.ofSeconds(5))       // wall clock per run
                .maxOutputBytes(1 << 20)              // UTF-8 bytes of say output per run
                .maxMemoryBytes(64L << 20)            // bytes of values a run may build
                .maxDepth(2_000)                      // nested word calls
                .maxExecutionTime(Duration.ofMinutes(1)) // running time of an execution over all its resumes
                .build();
        Outcome o = finch.newSession().submit(Submission.of("begin true while repeat", "spin"));
        // o is Failed with E-LIMIT-001: the loop ran out of steps; nothing was committed
        // doc:limits:end
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).extracting(Diagnostic::code).containsExactly("E-LIMIT-001");
    }

    @Test
    void turns() {
        // doc:turns:begin
        Session session = Finch.create().newSession();
        Outcome a = session.submit(Submission.of(": double ( int -- int ) 2 * ;  21", "turn-1"));
        Outcome b = session.submit(Submission.of("(double 4)", "turn-2"));        // Lisp calls the Co-Forth word
        Outcome c = session.submit(Submission.of("+ \"x\" +", "turn-3"));         // a type error: nothing runs
        // a: completed, stack [21], revision 1;  b: completed, stack [21 8], revision 2
        // c: failed (E-VERIFY-002), stack still [21 8], revision still 2
        // doc:turns:end
        assertThat(a.stack()).containsExactly(new StackEntry("int", "21"));
        assertThat(b.stack()).containsExactly(new StackEntry("int", "21"), new StackEntry("int", "8"));
        assertThat(b.vmRevision()).isEqualTo(2);
        assertThat(c.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(c.diagnostics()).extracting(Diagnostic::code).contains("E-VERIFY-002");
        assertThat(c.stack()).hasSize(2);
        assertThat(session.vmRevision()).isEqualTo(2);
        assertThat(session.definitions()).containsEntry("double", "int -> int");
    }

    @Test
    void approve() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(dir.resolve("notes.txt"), "remember the milk");
        // doc:approve:begin
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withWorkspace(dir));
        Outcome o = session.submit(Submission.of(
                "\"reading… \" say  \"notes.txt\" path file-read bytes-to-string if-ok say else say then", "turn-1"));
        // o is Suspended: output "reading… ", required_capabilities [fs.read(${workspace}/notes.txt)]
        if (o instanceof Outcome.Suspended && !o.requiredCapabilities().isEmpty()) {
            // Ask the person; then either
            o = session.approve(o.executionId(), Scope.ONCE);       // or Scope.TASK / Scope.SESSION
            // or: o = session.deny(o.executionId(), "not now");    // fails with E-HOST-001
        }
        // o is Completed: output "reading… remember the milk" (the first say is not repeated)
        // doc:approve:end
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("reading… remember the milk");
        assertThat(session.grants().isEmpty()).isTrue();
    }

    @Test
    void deferred() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("ws"));
        // doc:deferred:begin
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(dir)
                .withGrant("fs.read(${workspace}/**)")
                .withDeferredHost(true);                 // every approved request comes back to us
        Session session = Finch.create().newSession(options);
        Outcome o = session.submit(Submission.of("\"config.json\" path file-read bytes-to-string", "turn-1"));
        EffectRequest request = session.pendingRequest(o.executionId()).orElseThrow();
        // request.operation() "file-read", request.requirement() fs.read(${workspace}/config.json),
        // request.sequence() 1, request.values() [(path "config.json") : path], request.expectedResult() [bytes]
        byte[] fetched = "{\"debug\":true}".getBytes(StandardCharsets.UTF_8);  // produced by the host, e.g. remotely
        o = session.respond(o.executionId(), new HostResponse.Result(request.sequence(), Bytes.wrap(fetched)));
        // o is Completed with stack [(ok "{\"debug\":true}")]; nothing waits any more, so another answer is E-SESSION-004
        // doc:deferred:end
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).containsExactly(new StackEntry("result<string,string>", "(ok \"{\\\"debug\\\":true}\")"));
        assertThat(request.requirement().toString()).isEqualTo("fs.read(${workspace}/config.json)");
        assertThat(request.operation()).isEqualTo("file-read");
        Outcome again = session.respond(o.executionId(), new HostResponse.Result(request.sequence(), Bytes.wrap(fetched)));
        assertThat(again.status()).isEqualTo(Outcome.Status.FAILED);
    }

    @Test
    void remote() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("ws"));
        // doc:remote:begin
        Session session = Finch.create().newSession(SessionOptions.DEFAULT.withWorkspace(dir)
                .withGrant("fs.write(${workspace}/**)")
                .withDeferredHost(true));
        Outcome o = session.submit(Submission.of("(file-write (path \"hello.txt\") (string-to-bytes \"hi\"))", "turn-1"));
        String sent = FinchJson.write(o);                      // to the remote host, which reads pending_request:
        // {"status":"suspended", …, "yielded":null, "pending_request":{"protocol":"FINCH-VM-TYPED/1",
        //  "execution_id":"s1-e1","sequence":1,"requirement":"fs.write(${workspace}/hello.txt)","operation":"file-write",
        //  "arguments":[{"type":"path","value":"hello.txt","display":"(path \"hello.txt\")"},
        //               {"type":"bytes","value":"aGk=","display":"#bytes[104 105]"}],
        //  "expected_result":[],"origin":{"source":"turn-1","line":1,"column":1},"awaiting":"result"}}
        // … it writes the bytes where it keeps files, then answers with a VmResume (an empty row: no values):
        String answer = "{\"execution_id\":\"" + o.executionId() + "\",\"sequence\":1,"
                + "\"response\":{\"result\":{\"values\":[]}}}";
        o = session.respond(answer);
        // o is Completed. A stale sequence, values that do not fit expected_result, or text that is not a strict
        // VmResume would be Refused (E-HOST-012, E-HOST-014, E-HOST-018), the execution still waiting.
        // doc:remote:end
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(sent).contains("\"value\":\"aGk=\"").contains("\"awaiting\":\"result\"").contains("\"expected_result\":[]");
        assertThat(sent).contains("\"origin\":{\"source\":\"turn-1\",\"line\":1,\"column\":1}");
        assertThat(Files.exists(dir.resolve("hello.txt"))).isFalse();
    }

    @Test
    void observe() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(dir.resolve("a.txt"), "A");
        // doc:observe:begin
        List<String> audit = new ArrayList<>();
        EffectObserver observer = new EffectObserver() {
            @Override public void requested(EffectRequest r) {     // before authorization or dispatch
                audit.add(r.sequence() + " " + r.operation() + " " + r.requirement());
            }

            @Override public void settled(EffectJournal.Entry e) { // acknowledged, denied or cancelled
                audit.add(e.request().sequence() + " " + e.state());
            }
        };
        Session session = Finch.create().newSession(
                SessionOptions.DEFAULT.withWorkspace(dir).withGrant("fs.read(${workspace}/**)"));
        session.submit(Submission.of("\"a.txt\" path file-read drop", "turn-1").withObserver(observer));
        // audit: ["1 file-read fs.read(${workspace}/a.txt)", "1 ACKNOWLEDGED"]
        // doc:observe:end
        assertThat(audit).containsExactly("1 file-read fs.read(${workspace}/a.txt)", "1 ACKNOWLEDGED");
    }

    @Test
    void cancel() throws Exception {
        // doc:cancel:begin
        Session session = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(Duration.ofMinutes(1)).build().newSession();
        CompletableFuture<Outcome> running = CompletableFuture.supplyAsync(
                () -> session.submit(Submission.of("begin true while repeat", "turn-1")));
        // … later, from any thread (a "stop" button):
        session.runningExecution().ifPresent(session::cancel);
        // doc:cancel:end
        for (int i = 0; i < 200 && !running.isDone(); i++) {
            session.runningExecution().ifPresent(session::cancel);
            Thread.sleep(20);
        }
        Outcome o = running.get(10, TimeUnit.SECONDS);
        assertThat(o.status()).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(session.vmRevision()).isZero();
    }

    @Test
    void check() {
        // doc:check:begin
        CheckResult r = Finch.create().newSession().check(Submission.of(
                "(define (load [name : string]) : bytes (file-read (path name)))  (load \"a.txt\")", "preview"));
        // r.ok() true; r.definitions() [load : string -> bytes ! {fs.read(${workspace}/**)}]
        // r.inferredCapabilities() [fs.read(${workspace}/**)]  (the bound: the concrete path is known only at run time)
        // r.canonicalForth() the program as Co-Forth
        // doc:check:end
        assertThat(r.ok()).isTrue();
        assertThat(r.definitions()).containsExactly(new CheckResult.Definition("load", "string -> bytes ! {fs.read(${workspace}/**)}"));
        assertThat(r.inferredCapabilities()).containsExactly("fs.read(${workspace}/**)");
        assertThat(r.canonicalForth()).isPresent();
    }

    @Test
    void yield() {
        // doc:yield:begin
        Session session = Finch.create().newSession();
        Outcome o = session.submit(Submission.of("\"step 1 \" say 1 yield \"step 2\" say", "turn-1"));
        // o is Suspended: s.yielded() holds {type: int, display: 1}; output "step 1 "
        if (o instanceof Outcome.Suspended s && s.yielded().isPresent()) {
            o = session.resume(o.executionId());               // yield returns unit; the run goes on
        }
        // o is Completed: output "step 1 step 2" (all say text of the execution)
        // doc:yield:end
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("step 1 step 2");
    }

    @Test
    void durable() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(dir.resolve("notes.txt"), "kept");
        byte[] key = "a secret of at least 32 bytes, from the host's vault".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // doc:durable:begin
        Finch finch = Finch.builder().imageKey(key).build();  // images are signed (HMAC-SHA-256) with the host's key
        Session session = finch.newSession(SessionOptions.DEFAULT.withWorkspace(dir));
        Outcome o = session.submit(Submission.of("\"before \" say \"notes.txt\" path file-read bytes-to-string", "turn-1"));
        String image = session.save(o.executionId());          // JSON text: store it anywhere
        // … in another process, days later: the same key, and the restoring host's own authority
        Session restored = Finch.builder().imageKey(key).build().restore(image, SessionOptions.DEFAULT.withWorkspace(dir));
        Outcome done = restored.approve(o.executionId(), Scope.ONCE);
        // done is Completed; the say before the suspension and the work before it are not repeated
        // doc:durable:end
        assertThat(done.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.stack()).containsExactly(new StackEntry("result<string,string>", "(ok \"kept\")"));
    }

    @Test
    void discover() {
        Session session = Finch.create().newSession();
        session.submit(Submission.of(": square ( int -- int ) dup * ;  7", "turn-1"));
        // doc:discover:begin
        var state = session.getVmState();               // get_vm_state: stack, revision, generation, definitions
        var found = session.searchWord("square");       // search_word: core words, definitions, syntax
        var info = session.inspectWord("square");       // inspect_word: signature and canonical source
        var grammar = session.getLanguageDefinition();  // get_language_definition
        // doc:discover:end
        assertThat(state.vmRevision()).isEqualTo(1);
        assertThat(state.stack()).containsExactly(new StackEntry("int", "7"));
        assertThat(found).isNotEmpty();
        assertThat(info).isPresent();
        assertThat(grammar.protocol()).isEqualTo("FINCH-VM-TYPED/1");
    }

    // doc:memoryfiles:begin
    /** Files in memory, under the workspace root only: nothing touches the disk. */
    public final class MemoryFiles implements FileHost {
        private final Map<ConcretePath, byte[]> files = new ConcurrentHashMap<>();

        @Override public boolean installed(Root root) { return root == Root.WORKSPACE; }

        private byte[] file(ConcretePath path) throws HostFailure {
            byte[] b = files.get(path);
            if (b == null) throw new HostFailure(HostCode.NOT_FOUND, "no such file: " + path);
            return b;
        }

        @Override public byte[] read(ConcretePath path, long maxBytes) throws HostFailure {
            byte[] b = file(path);
            if (b.length > maxBytes) throw new HostFailure(HostCode.TOO_LARGE, path + " is over " + maxBytes + " bytes");
            return b.clone();
        }

        @Override public void write(ConcretePath path, byte[] data) { files.put(path, data.clone()); }

        @Override public long size(ConcretePath path) throws HostFailure { return file(path).length; }

        @Override public byte[] slice(ConcretePath path, long offset, int length) throws HostFailure {
            byte[] b = file(path);
            int from = (int) Math.min(offset, b.length);
            return Arrays.copyOfRange(b, from, (int) Math.min(b.length, (long) from + length));
        }

        @Override public Listing list(ConcretePath directory, int max) {
            List<Entry> under = files.keySet().stream()
                    .filter(p -> p.root() == directory.root() && p.segments().size() > directory.segments().size()
                            && p.segments().subList(0, directory.segments().size()).equals(directory.segments()))
                    .sorted(Comparator.comparing(ConcretePath::relative))
                    .map(p -> new Entry(p.relative(), "file", files.get(p).length))
                    .toList();
            return new Listing(under.subList(0, Math.min(max, under.size())), under.size() > max);
        }

        @Override public Reader open(ConcretePath path) throws HostFailure {
            return new InputStreamReader(openBytes(path), StandardCharsets.UTF_8);
        }

        @Override public InputStream openBytes(ConcretePath path) throws HostFailure {
            return new ByteArrayInputStream(file(path));
        }
    }
    // doc:memoryfiles:end

    @Test
    void filehost() {
        // doc:filehost:begin
        MemoryFiles files = new MemoryFiles();
        List<String> ran = new ArrayList<>();
        ProcessHost processes = (executable, arguments) -> {     // a sandbox, a container, a remote runner …
            ran.add(executable + " " + arguments);
            return new ProcessHost.Completed(0, "clean\n", "");
        };
        Session session = Finch.create().newSession(SessionOptions.DEFAULT
                .withFileHost(files)                              // serves ${workspace}: no directory on disk
                .withProcessHost(processes)
                .withGrant("fs.write(${workspace}/**)")           // still needed: a host is availability, not authority
                .withGrant("fs.read(${workspace}/**)")
                .withGrant("process.run(/usr/bin/git)"));
        Outcome o = session.submit(Submission.of(
                "\"a.txt\" path \"in memory\" string-to-bytes file-write  \"a.txt\" path file-read bytes-to-string if-ok say else say then",
                "turn-1"));
        Outcome git = session.submit(Submission.of("(process-run \"/usr/bin/git\" (list \"status\"))", "turn-2"));
        Outcome elsewhere = session.submit(Submission.of("(project-file-read (project-path \"a.txt\"))", "turn-3"));
        // o: completed, output "in memory"; git: completed, ran ["/usr/bin/git [status]"]
        // elsewhere: failed with E-HOST-002 before any request: this host does not serve ${project}
        // doc:filehost:end
        assertThat(o.output()).isEqualTo("in memory");
        assertThat(git.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(git.stack()).extracting(StackEntry::display).containsExactly("{ exit: 0 stderr: \"\" stdout: \"clean\\n\" }");
        assertThat(ran).containsExactly("/usr/bin/git [status]");
        assertThat(elsewhere.diagnostics()).extracting(Diagnostic::code).containsExactly("E-HOST-002");
        assertThat(elsewhere.requiredCapabilities()).isEmpty();
    }

    @Test
    void filehosts() {
        // doc:filehosts:begin
        Finch finch = Finch.builder()
                .fileHosts(options -> new MemoryFiles())                 // a fresh tree for every session
                .processHosts(options -> new LocalProcessHost(options.workspace().orElse(null),
                        Duration.ofSeconds(10), 1 << 20))                // 10 s and 1 MiB per stream, not the run's
                .build();
        // doc:filehosts:end
        Session a = finch.newSession(SessionOptions.DEFAULT.withGrant("fs.write(${workspace}/**)").withGrant("fs.read(${workspace}/**)"));
        Session b = finch.newSession(SessionOptions.DEFAULT.withGrant("fs.read(${workspace}/**)"));
        assertThat(a.submit(Submission.of("(file-write (path \"x.txt\") (string-to-bytes \"a's\"))", "t")).status()).isEqualTo(Outcome.Status.COMPLETED);
        Outcome other = b.submit(Submission.of("(file-read (path \"x.txt\"))", "t"));
        assertThat(other.diagnostics()).extracting(Diagnostic::code).containsExactly("E-HOST-004");
    }

    @Test
    void roots() throws IOException {
        // doc:roots:begin
        Path repo = Files.createTempDirectory("repo");                  // stands for the project's checkout
        Files.writeString(repo.resolve("README.md"), "# Acme");
        Path out = Files.createTempDirectory("out");                    // where this task's results go
        SessionOptions options = SessionOptions.DEFAULT
                .withRoot(Root.PROJECT, repo)                // ${project}: project-path, project-file-read/-write
                .withRoot(Root.TASK_OUTPUT, out)             // ${task.output}: task-output-path, task-output-file-…
                .withGrant("fs.read(${project}/**)")         // read the project …
                .withGrant("fs.write(${task.output}/**)");   // … and write only the task's output
        Session session = Finch.create().newSession(options);
        Outcome o = session.submit(Submission.of("""
                (match-result (bytes-to-string (project-file-read (project-path "README.md")))
                  (ok text (task-output-file-write (task-output-path "summary.txt") (string-to-bytes (string-append "read: " text))))
                  (err e (say "not UTF-8")))""", "turn-1"));
        Outcome edit = session.submit(Submission.of("(project-file-write (project-path \"README.md\") (string-to-bytes \"\"))", "turn-2"));
        Outcome machine = session.submit(Submission.of("(host-file-read (host-path \"etc/hosts\"))", "turn-3"));
        // o: completed; out/summary.txt holds "read: # Acme"
        // edit: suspended, required [fs.write(${project}/README.md)]: a grant on one root never covers another
        // machine: failed with E-HOST-002: root<host-machine> is not installed (and no prompt was shown)
        // doc:roots:end
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(Files.readString(out.resolve("summary.txt"))).isEqualTo("read: # Acme");
        assertThat(edit.requiredCapabilities()).containsExactly("fs.write(${project}/README.md)");
        assertThat(machine.diagnostics()).extracting(Diagnostic::code).containsExactly("E-HOST-002");
        assertThat(machine.requiredCapabilities()).isEmpty();
    }

    @Test
    void toolhost() {
        // doc:toolhost:begin
        ToolHost weather = (capability, op, args, key, origin) -> {
            if (ToolResults.isFork(key)) return ToolResults.toolError("the weather service keeps no state to fork");
            if (!op.equals("now") || args.size() != 1) return ToolResults.toolError("weather has one operation: now CITY");
            String json = "{\"city\":\"" + args.get(0) + "\",\"celsius\":4}";     // what the service answered
            return ToolResults.typed(capability, op, key, json, origin);       // (Ok reading), or (Invalid json)
        };
        Finch finch = Finch.builder().tools(() -> Tools.of(Map.of("weather", weather))).build();
        Session session = finch.newSession(SessionOptions.DEFAULT.withGrant("tool.call(weather,now)"));
        Outcome o = session.submit(Submission.of("""
                (grant weather (http [now Reading]))
                (record Reading (city Text) (celsius Num))
                (. (call weather now "Oslo") celsius)""", "agent.nm").withLanguage(Language.NORMAN));
        // o is Completed with stack [4.0]; a reply that is not a Reading would be (Invalid raw), which retry handles
        // doc:toolhost:end
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly("4.0");
    }

    @Test
    void modelworld() {
        // doc:modelworld:begin
        ModelProvider provider = request -> new ModelProvider.Reply("{\"value\":4}", 3, "end_turn", 0);  // or AnthropicProvider
        Finch finch = Finch.builder()
                .models(ModelWorld.over(provider)
                        .budget(new BigDecimal("0.05"))      // per run: five cents, exact to the micro-dollar
                        .timeLimit(Duration.ofMinutes(2))    // per run: two minutes of wall clock
                        .build())                            // a fresh world (pool, deadline, trace) for every run
                .build();
        Session session = finch.newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)"));
        Outcome o = session.submit(Submission.of("""
                (grant gpt (model [in 1] [out 2]))
                (record Answer (value Num))
                (. (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'sum) value)""", "agent.nm")
                .withLanguage(Language.NORMAN));
        // o is Completed with stack [4.0]; an ask whose worst case does not fit the pool is OverBudget, unsent
        // doc:modelworld:end
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly("4.0");
    }
}
