package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The primer: its size bounds, that every word it names exists as shown, that every example runs, and its sources. */
@Timeout(120)   // a hang guard; nothing here bounds wall time
class PrimerTest {
    static final int LISP_FORTH_MAX = 12_000, NORMAN_MAX = 6_000;
    private static final Vocabulary VOCABULARY = dev.finch.vm.engine.VmState.EMPTY.library().vocabulary();
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path workspace;

    @Test
    void thePrimersHoldTheirSizeBounds() {
        assertThat(Discovery.primer().text().length()).isLessThanOrEqualTo(LISP_FORTH_MAX);
        assertThat(Discovery.primer(Language.LISP).text().length()).isLessThanOrEqualTo(LISP_FORTH_MAX);
        assertThat(Discovery.primer(Language.FORTH).text().length()).isLessThanOrEqualTo(LISP_FORTH_MAX);
        assertThat(Discovery.primer(Language.NORMAN).text().length()).isLessThanOrEqualTo(NORMAN_MAX);
        // A quarter of the full text (49,469 characters when the primer was made), or less.
        assertThat(Discovery.primer().text().length() * 4).isLessThanOrEqualTo(Discovery.languageDefinition().text().length());
    }

    @Test
    void thePrimerCoversWhatTheIssueAsksFor() {
        String p = Discovery.primer().text();
        assertThat(p).contains("## Types", "## Lisp", "## Co-Forth", "## Rules that surprise", "## Look the rest up")
                .contains("(define ", "(let ", "(match-option", "(match-result", "(match xs (empty", "((circle r)", "(while ")
                .contains("string-split", "map-set", "json-parse", "file-read", "--grant", "say")
                .contains("no space, no newline", "(empty-list T)", "declared to return result<…>", "takes `b` from the top")
                .contains("search_word", "inspect_word", "finch inspect", "finch vocabulary");
        assertThat(Discovery.primer().detail()).isEqualTo(LanguageDefinition.Detail.PRIMER);
        assertThat(Discovery.languageDefinition().detail()).isEqualTo(LanguageDefinition.Detail.FULL);
        assertThat(Discovery.primer(Language.LISP).text()).contains("## Lisp").doesNotContain("## Co-Forth");
        assertThat(Discovery.primer(Language.FORTH).text()).contains("## Co-Forth").doesNotContain("## Lisp\n");
        assertThat(Discovery.primer(Language.NORMAN).text()).contains("## µNorman", "(ask model τ context ['site])", "check-expect")
                .doesNotContain("## Co-Forth");
    }

    /** `name : signature` as the primer shows a word, and `a` `b` : `signature` for a family. */
    private static final Pattern WORD = Pattern.compile("`([^`\\s\\[]+) : ([^`]*)`");
    private static final Pattern FAMILY = Pattern.compile("(?m)^- ((?:`[^`\\s]+` )+): `([^`]*)`$");

    @Test
    void everyWordThePrimerNamesExistsWithTheSignatureShown() {
        for (Language only : new Language[] {null, Language.NORMAN}) {
            String p = only == null ? Discovery.primer().text() : Discovery.primer(only).text();
            List<String> wrong = new ArrayList<>();
            int checked = 0;
            Matcher m = WORD.matcher(p);
            while (m.find()) {
                checked++;
                String shown = VOCABULARY.word(m.group(1)).map(WordSpec::signatureText).orElse("(no such word)");
                if (!shown.equals(m.group(2))) wrong.add(m.group(1) + " : " + m.group(2) + " is " + shown);
            }
            Matcher f = FAMILY.matcher(p);
            while (f.find()) {
                for (String name : f.group(1).replace("`", " ").trim().split("\\s+")) {
                    checked++;
                    String shown = VOCABULARY.word(name).map(WordSpec::signatureText).orElse("(no such word)");
                    if (!shown.equals(f.group(2))) wrong.add(name + " : " + f.group(2) + " is " + shown);
                }
            }
            assertThat(wrong).isEmpty();
            if (only == null) assertThat(checked).isGreaterThan(80);
        }
        // The words it names are the definition's categories, each with the vocabulary's own summary.
        for (LanguageDefinition.Category c : Discovery.primer().categories()) {
            for (WordSummary w : c.words()) assertThat(VOCABULARY.word(w.name()).orElseThrow().signatureText()).isEqualTo(w.summary());
        }
    }

    /** The fenced examples of a language in a text. */
    static List<String> examples(String text, String language) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(text);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void everyLispAndCoForthExampleOfThePrimerRuns() throws IOException {
        Files.writeString(workspace.resolve("notes.txt"), "hello\n");
        Files.writeString(workspace.resolve("data.csv"), "name,age\nAda,36\n");
        String p = Discovery.primer().text();
        List<String> failures = new ArrayList<>();
        int ran = 0;
        for (Language l : List.of(Language.LISP, Language.FORTH)) {
            for (String example : examples(p, l.spelling())) {
                Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(workspace).withGrant("fs.read(${workspace}/**)"));
                Outcome o = s.awaitTasks(s.submit(Submission.of(example, "primer").withLanguage(l)));
                ran++;
                if (o.status() != Outcome.Status.COMPLETED) failures.add(example + " -> " + FinchJson.write(o));
            }
        }
        assertThat(failures).isEmpty();
        assertThat(ran).isGreaterThanOrEqualTo(5);
    }

    @Test
    void thePrimerIsSelectedFromTheGrammarTextNotCopied() {
        String marked = Discovery.resource("language-grammar.md");
        String full = Discovery.languageDefinition().text();
        // The full text shows the grammar without the primer's marks; the primer's grammar parts are spans of it.
        assertThat(full).doesNotContain("«").doesNotContain("»");
        assertThat(Primer.unmarked(marked)).doesNotContain("«");
        String flat = full.replaceAll("\\s+", " ");
        for (String line : Discovery.primer().grammar().split("\n")) {
            for (String sentence : line.split("(?<=\\.) ")) assertThat(flat).as(sentence).contains(sentence.replaceAll("\\s+", " ").strip());
        }
        // A quote the grammar does not hold, or a word the vocabulary does not, fails the build of the primer.
        assertThatThrownBy(() -> Primer.spans("## Types\nno marks here\n")).isInstanceOf(IllegalStateException.class);
        assertThat(Primer.reflow("a\nb\n\n```\nx\ny\n```\n\n- c\n  d")).isEqualTo("a b\n\n```\nx\ny\n```\n\n- c\n  d");
        assertThat(Primer.shortDoc("First clause; second.")).isEqualTo("First clause");
        assertThat(Primer.shortDoc("Exactly (no space; none). Then more.")).isEqualTo("Exactly (no space; none).");
    }
}
