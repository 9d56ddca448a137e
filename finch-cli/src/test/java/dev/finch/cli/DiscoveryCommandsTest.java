package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.ir.vocab.Vocabulary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class DiscoveryCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static ConformanceTest.Run finch(String... args) { return ConformanceTest.invoke(List.of(args), ""); }

    @Test
    void vocabularyListsEveryCoreWordBySignatureAndTheSyntax() {
        ConformanceTest.Run r = finch("vocabulary");
        assertThat(r.exit()).isZero();
        for (var w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) assertThat(r.out()).contains("  " + w.name() + " : " + w.signatureText() + "\n");
        assertThat(r.out()).contains("syntax (forms, no runtime signature").contains("  while    ").contains("  datatype    (datatype T");
    }

    @Test
    void vocabularyJsonHasTheVmVocabularyShape() throws IOException {
        ConformanceTest.Run r = finch("vocabulary", "--json");
        assertThat(r.exit()).isZero();
        JsonNode j = JSON.readTree(r.out());
        assertThat(j.get("words")).hasSize(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words().size());
        assertThat(j.get("words").get(0).fieldNames()).toIterable().containsExactly("name", "signature", "category", "doc");
        assertThat(j.get("definitions")).isEmpty();
        assertThat(j.get("syntax")).hasSize(dev.finch.ir.vocab.SourceSyntax.all().size());
    }

    @Test
    void inspectShowsCoreWordsAndSyntaxWithoutASignature() throws IOException {
        ConformanceTest.Run core = finch("inspect", "list-get");
        assertThat(core.exit()).isZero();
        assertThat(core.out()).startsWith("list-get : list<a> int -> option<a>\n").contains("core word (list)");

        ConformanceTest.Run syntax = finch("inspect", "define");
        assertThat(syntax.exit()).isZero();
        assertThat(syntax.out()).startsWith("define    syntax (lisp, norman)").contains("no runtime signature")
                .contains("  lisp: (define (f [x : int] y)", "  norman: (define f (x …) body)", "example:");
        assertThat(syntax.out().lines().findFirst().orElseThrow()).doesNotContain(" : ");
        ConformanceTest.Run norman = finch("inspect", "--lang", "norman", "define");
        assertThat(norman.out()).startsWith("define    syntax (norman, lisp)").contains("      (check-expect (square 3) 9)");
        ConformanceTest.Run language = finch("language", "--lang", "norman");
        assertThat(language.exit()).isZero();
        assertThat(language.out()).contains("## µNorman", "(grant name (model").doesNotContain("## Co-Forth");
        assertThat(finch("language", "--lang", "cobol").exit()).isEqualTo(2);

        JsonNode j = JSON.readTree(finch("inspect", "--json", "while").out());
        assertThat(j.get("kind").asText()).isEqualTo("syntax");
        assertThat(j.has("signature")).isFalse();
    }

    @Test
    void inspectWithLoadShowsADefinitionAsCanonicalForth() throws IOException {
        Path lib = dir.resolve("lib.lisp");
        Files.writeString(lib, "(define (twice [n : int]) : int (* 2 n))");
        ConformanceTest.Run r = finch("inspect", "--load", lib.toString(), "twice");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("twice : int -> int\n").contains(": twice ( int -- int )");

        Path bad = dir.resolve("bad.fth");
        Files.writeString(bad, "1 \"x\" +");
        ConformanceTest.Run failed = finch("inspect", "--load", bad.toString(), "dup");
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.err()).contains("E-VERIFY").contains("did not complete");
    }

    @Test
    void inspectingNothingFailsWithSuggestions() {
        ConformanceTest.Run r = finch("inspect", "string-lenght");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("did you mean").contains("string-length");
        assertThat(finch("inspect").exit()).isEqualTo(2);
    }

    @Test
    void languagePrintsTheDefinitionTextOrItsJson() throws IOException {
        ConformanceTest.Run r = finch("language");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("# Finch language definition (FINCH-VM-TYPED/1)").contains("## Co-Forth").contains("## Lisp")
                .contains("## Types").contains("`dup : a -> a a`");
        JsonNode j = JSON.readTree(finch("language", "--json").out());
        assertThat(j.get("text").asText()).isEqualTo(r.out());
    }

    @Test
    void languagePrimerPrintsThePrimerWithinItsBounds() throws IOException {
        ConformanceTest.Run r = finch("language", "--primer");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("# Finch primer (FINCH-VM-TYPED/1)").contains("## Lisp", "## Co-Forth", "## Rules that surprise")
                .isEqualTo(dev.finch.Discovery.primer().text());
        assertThat(r.out().length()).isLessThanOrEqualTo(12_000);
        ConformanceTest.Run norman = finch("language", "--primer", "--lang", "norman");
        assertThat(norman.exit()).isZero();
        assertThat(norman.out().length()).isLessThanOrEqualTo(6_000);
        assertThat(norman.out()).contains("## µNorman").doesNotContain("## Co-Forth");
        JsonNode j = JSON.readTree(finch("language", "--primer", "--json").out());
        assertThat(j.get("detail").asText()).isEqualTo("primer");
        assertThat(j.get("text").asText()).isEqualTo(r.out());
        assertThat(JSON.readTree(finch("language", "--json").out()).get("detail").asText()).isEqualTo("full");
        assertThat(finch("language", "--primer", "--lang", "cobol").exit()).isEqualTo(2);
    }

    @Test
    void everyNormanExampleOfThePrimerPassesFinchTest() throws IOException {
        String primer = finch("language", "--primer", "--lang", "norman").out();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("```norman\n(.*?)```", java.util.regex.Pattern.DOTALL).matcher(primer);
        int files = 0;
        while (m.find()) {
            Path f = dir.resolve("example" + files++ + ".nm");
            Files.writeString(f, m.group(1));
            ConformanceTest.Run r = finch("test", f.toString());
            assertThat(r.exit()).as(m.group(1) + r.out() + r.err()).isZero();
            assertThat(r.out()).contains("passed, 0 failed");
        }
        assertThat(files).isEqualTo(2);
    }

    @Test
    void helpListsTheDiscoveryCommandsAsAvailable() {
        ConformanceTest.Run r = finch("--help");
        assertThat(r.out()).contains("repl").contains("vocabulary").contains("inspect").contains("language")
                .doesNotContain("(not available yet: the discovery tools");
    }
}
