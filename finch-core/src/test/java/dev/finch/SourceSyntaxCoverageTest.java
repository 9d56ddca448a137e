package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.forth.CoForthLexer;
import dev.finch.ir.vocab.SourceSyntax;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.lisp.lower.Lowerer;
import dev.finch.norman.Norman;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.antlr.v4.runtime.Vocabulary;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceSyntax} lives in finch-ir, which sees no frontend (decisions D1); here, where every frontend is visible,
 * the list of forms is derived from each grammar — Co-Forth's lexer keywords, Lisp's special-form dispatch, µNorman's
 * reserved words and forms — so that a form added to a grammar without a discovery entry fails the build. Every
 * entry's example runs: Lisp and Co-Forth in a fresh session, µNorman through the test harness with every test passing (that half is
 * finch-norman-test's NormanExamplesPassTest: the harness sits above this module).
 */
class SourceSyntaxCoverageTest {
    private final Finch finch = Finch.create();

    @Test
    void everyCoForthKeywordHasAForm() {
        Vocabulary v = CoForthLexer.VOCABULARY;
        Set<String> keywords = new TreeSet<>();
        for (int t = 0; t <= v.getMaxTokenType(); t++) {
            String literal = v.getLiteralName(t);
            if (literal != null) keywords.add(literal.substring(1, literal.length() - 1).replace("\\'", "'"));
        }
        assertThat(keywords).contains("if", ":>", "map{", "}list", "[']");
        keywords.add("\\"); // the line comment and the ( … ) comment are lexer rules without a literal
        keywords.add("(");
        assertThat(missing(keywords, SourceSyntax.FORTH)).as("Co-Forth keywords without a SourceSyntax entry").isEmpty();
    }

    @Test
    void everyLispSpecialFormHasAForm() {
        assertThat(Lowerer.specialForms()).contains("cond", "match", "set!", "define-syntax", "execute");
        assertThat(missing(Lowerer.specialForms(), SourceSyntax.LISP)).as("Lisp special forms without a SourceSyntax entry").isEmpty();
    }

    @Test
    void everyNormanFormHasAForm() {
        assertThat(Norman.forms()).contains("datatype", "grant", "script", "check-expect", "under", "list", ".");
        assertThat(missing(Norman.forms(), SourceSyntax.NORMAN)).as("µNorman forms without a SourceSyntax entry").isEmpty();
    }

    private static List<String> missing(Set<String> names, String language) {
        List<String> out = new ArrayList<>();
        for (String n : names) if (SourceSyntax.named(n, language).isEmpty()) out.add(n);
        return out;
    }

    @Test
    void everyFormAnswersInspectAsItsOwnLanguage() {
        Session s = finch.newSession();
        for (SyntaxSpec spec : SourceSyntax.all()) {
            String language = spec.languages().get(0);
            for (String word : spellings(spec)) {
                Optional<WordInfo> info = s.inspectWord(word, Language.named(language).orElseThrow());
                assertThat(info).as(word).isPresent();
                List<SyntaxSpec> forms = info.get() instanceof WordInfo.Syntax x ? x.forms() : ((WordInfo.CoreWord) info.get()).forms();
                assertThat(forms).as(word + " in " + language).contains(spec);
                assertThat(forms.get(0).languages()).as(word + " answers " + language + " first").contains(language);
            }
        }
        WordInfo.Syntax datatype = (WordInfo.Syntax) s.inspectWord("datatype").orElseThrow();
        assertThat(datatype.languages()).containsExactly("norman");
        assertThat(datatype.example()).contains("(datatype ");
        WordInfo.Syntax define = (WordInfo.Syntax) s.inspectWord("define", Language.NORMAN).orElseThrow();
        assertThat(define.form()).isEqualTo("(define f (x …) body)");
        assertThat(define.languages()).containsExactly("norman", "lisp");
    }

    private static List<String> spellings(SyntaxSpec spec) {
        List<String> all = new ArrayList<>(List.of(spec.name()));
        all.addAll(spec.parts());
        return all;
    }

    @Test
    void everyLispAndCoForthExampleRuns() {
        List<String> failures = new ArrayList<>();
        for (SyntaxSpec spec : SourceSyntax.all()) {
            String language = spec.languages().get(0);
            if (language.equals(SourceSyntax.NORMAN)) continue;
            Session s = finch.newSession();
            // A join of a CPU task still computing pauses the run: wait for it, as the command line and the REPL do.
            Outcome o = s.awaitTasks(s.submit(Submission.of(spec.example(), "example").withLanguage(Language.named(language).orElseThrow())));
            if (o.status() != Outcome.Status.COMPLETED) failures.add(language + " " + spec.name() + ": " + spec.example() + " -> " + FinchJson.write(o));
        }
        assertThat(failures).isEmpty();
    }
}
