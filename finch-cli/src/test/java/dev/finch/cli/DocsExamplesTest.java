package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 *       {@code mvn -q -pl finch-cli -am test -Dtest=DocsExamplesTest -Dfinch.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false};</li>
 *   <li>the outcome objects {@code docs/guide.md} shows are the real ones.</li>
 * </ol>
 * The {@code ```java} blocks of the docs are compiled and run by {@link DocsJavaBlocksTest}.
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

    /**
     * The step limit is what bounds an example; the deadline is a hang guard (examples take milliseconds). The guide's
     * schedule examples name policy {@code daily-report}, defined here on a timer that never moves: nothing they
     * schedule runs.
     */
    private static final Finch FINCH = Finch.builder().maxSteps(10_000_000).timeout(Duration.ofSeconds(60))
            .schedulePolicy(dev.finch.schedule.SchedulePolicy.named("daily-report"))
            .scheduleTimer(new dev.finch.schedule.ManualScheduleTimer(java.time.Instant.parse("2026-12-07T10:00:00Z"))).build();

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
            // A join of a CPU task still computing: wait for it and go on, as the command line does.
            if (s.waitingTask().isPresent()) o = session.awaitTasks(o);
            else if (s.yielded().isPresent() && e.one("resume").isPresent()) o = session.resume(o.executionId());
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
                .append("     mvn -q -pl finch-cli -am test -Dtest=DocsExamplesTest -Dfinch.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false -->\n");
        Map<WordSpec.Category, List<WordSpec>> byCategory = new java.util.EnumMap<>(WordSpec.Category.class);
        for (WordSpec w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) byCategory.computeIfAbsent(w.category(), c -> new ArrayList<>()).add(w);
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
            if (s.languages().contains(dev.finch.ir.vocab.SourceSyntax.NORMAN)) continue; // docs/norman.md describes µNorman's
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
        for (WordSpec w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) assertThat(current).contains("| `" + cell(w.name()) + "` |");
    }
}
