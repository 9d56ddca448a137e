package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.ir.vocab.SourceSyntax;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.norman.SourceLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The µNorman examples the rest of Finch shows — each SourceSyntax entry's (discovery's inspect_word), the language
 * definition's, the text functions' — run through the harness with every test passing. Their other halves (that
 * each form has an entry, that the examples load in a session, that the text functions lower to the string words)
 * are finch-core's SourceSyntaxCoverageTest and DiscoveryTest and finch-norman's TextFunctionsTest.
 */
class NormanExamplesPassTest {
    /** The one file the SourceSyntax examples use. */
    private static final SourceLoader LIB = new SourceLoader() {
        @Override public String resolve(String from, String file) { return file; }

        @Override public Optional<String> read(String id) {
            return id.equals("lib.nm") ? Optional.of("(define double (x) (* 2 x))") : Optional.empty();
        }
    };

    @Test
    void everyNormanExampleLoadsAndPasses() {
        List<String> failures = new ArrayList<>();
        try (TestHarness harness = new TestHarness(LIB)) {
            for (SyntaxSpec spec : SourceSyntax.of(SourceSyntax.NORMAN)) {
                FileReport r = harness.runAll(spec.example(), "example.nm");
                if (!r.loaded() || r.failed() > 0 || r.passed() == 0) {
                    failures.add(spec.name() + ": " + spec.example() + " -> " + r.diagnostics() + " " + r.results());
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void theNormanExampleOfTheLanguageDefinitionRunsAndPasses() {
        String grammar;
        try (Finch finch = Finch.create()) {
            grammar = finch.newSession().getLanguageDefinition(Language.NORMAN).grammar();
        }
        Matcher m = Pattern.compile("```norman\\n(.*?)```", Pattern.DOTALL).matcher(grammar);
        assertThat(m.find()).as("the µNorman section has a ```norman example").isTrue();
        try (TestHarness harness = new TestHarness(SourceLoader.none())) {
            FileReport r = harness.runAll(m.group(1), "example.nm");
            assertThat(r.diagnostics()).isEmpty();
            assertThat(r.results()).allSatisfy(t -> assertThat(t.passed()).as(t.toString()).isTrue());
            assertThat(r.passed()).isGreaterThanOrEqualTo(5);
        }
    }

    @Test
    void theTextFunctionsRunInTheHarnessAndAShadowingDefinitionRunsInstead() {
        try (TestHarness harness = new TestHarness(SourceLoader.inMemory(Map.of()))) {
            FileReport text = harness.runAll(resource("/examples/text.nm"), "text.nm");
            assertThat(text.diagnostics()).isEmpty();
            assertThat(text.failed()).as("%s", text.results()).isZero();
            assertThat(text.passed()).isGreaterThanOrEqualTo(30);
            FileReport shadow = harness.runAll(String.join("\n",
                    "(define text-length (t) 42)",
                    "(define text-append (x y) (if (= x y) \"same\" \"different\"))",
                    "(check-expect (text-length \"abc\") 42)",
                    "(check-expect (text-append 1 1) \"same\")",
                    "(check-expect (text-contains \"abc\" \"b\") #t)"), "shadow.nm");
            assertThat(shadow.diagnostics()).isEmpty();
            assertThat(shadow.results()).hasSize(3);
            assertThat(shadow.failed()).as("%s", shadow.results()).isZero();
        }
    }

    private static String resource(String name) {
        try (InputStream in = NormanExamplesPassTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
