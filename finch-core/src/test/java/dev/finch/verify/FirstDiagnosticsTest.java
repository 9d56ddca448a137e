package dev.finch.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Discovery;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.vocab.SourceSyntax;
import dev.finch.ir.vocab.SyntaxSpec;
import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The diagnostics a model meets first when it falls back on Scheme's or Forth's habits (issue 36): an unknown name is
 * answered by meaning ({@code display} is {@code say}) as well as by spelling, alike in Lisp, Co-Forth and discovery,
 * and a type clash names what was expected and what was found the right way round.
 */
class FirstDiagnosticsTest {
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();
    private final Vocabulary vocabulary = finch.vocabulary();

    private Diagnostic only(String text, Language language) {
        Outcome o = finch.newSession().submit(Submission.of(text, "t").withLanguage(language));
        assertThat(o.status()).as(text).isEqualTo(Outcome.Status.FAILED);
        return o.diagnostics().get(0);
    }

    @Test
    void otherLanguagesPrintingWordsPointToSayInBothFrontends() {
        for (String name : List.of("display", "print", "emit")) {
            Diagnostic lisp = only("(" + name + " \"hi\")", Language.LISP);
            assertThat(lisp.code()).isEqualTo("E-LISP-102");
            assertThat(lisp.message()).as(name).contains("in Finch that is `say : string -> ! {session.emit}`");
            Diagnostic forth = only("\"hi\" " + name, Language.FORTH);
            assertThat(forth.code()).isEqualTo("E-VERIFY-003");
            assertThat(forth.message()).as(name).contains("in Finch that is `say : string -> ! {session.emit}`");
        }
        assertThat(only("\"hi\" .", Language.FORTH).message()).contains("`say : ");
        assertThat(only(".\" hi\"", Language.FORTH).message()).contains("`say : ");
    }

    @Test
    void schemeListWordsPointToTheListWords() {
        assertThat(only("(car (list 1 2))", Language.LISP).message()).contains("`list-uncons : list<a> -> option<record{head:a,tail:list<a>}>`");
        assertThat(only("(cdr (list 1 2))", Language.LISP).message()).contains("`list-uncons");
        assertThat(only("(null? (list 1))", Language.LISP).message()).contains("`list-uncons");
        // By meaning first, then by spelling: cons is list-prepend, and looks like cond.
        assertThat(only("(cons 1 (list 2))", Language.LISP).message())
                .contains("in Finch that is `list-prepend : a list<a> -> list<a>`; did you mean `cond`?");
    }

    @Test
    void countedLoopsPointToTheLoopForms() {
        assertThat(only("5 0 do 1 loop", Language.FORTH).message()).contains("unknown word `do`; in Finch that is `begin test while body repeat | begin body until`");
        assertThat(only("(dotimes (i 3) i)", Language.LISP).message()).contains("in Finch that is `(while test body…)`");
    }

    @Test
    void aNameNothingMeansGetsSpellingThenWhereToLook() {
        assertThat(only("(string-lenght \"x\")", Language.LISP).message()).isEqualTo("unknown name 'string-lenght'; did you mean `string-length`?");
        String nothing = "define it first, or look it up (search_word; on the command line finch inspect NAME)";
        assertThat(only("zzqqx", Language.FORTH).message()).isEqualTo("unknown word `zzqqx`; " + nothing);
        assertThat(only("(zzqqx 1)", Language.LISP).message()).isEqualTo("unknown name 'zzqqx'; " + nothing);
        // A one-character name is near no other one-character name: `f` is not "did you mean `*`, `+` or `-`".
        assertThat(only("1 f", Language.FORTH).message()).isEqualTo("unknown word `f`; " + nothing);
    }

    @Test
    void inspectAnswersByMeaningToo() {
        Session s = finch.newSession();
        assertThat(s.inspectWord("display")).isEmpty();
        assertThat(s.suggestWords("display", 3)).first().isEqualTo("say");
        assertThat(s.suggestWords("do", 3)).contains("begin", "while");
        assertThat(Discovery.notFound(vocabulary, "display", null))
                .isEqualTo("'display' is no core word, definition, constant, named type or syntax; in Finch that is `say : string -> ! {session.emit}`");
        assertThat(Discovery.notFound(vocabulary, "do", Language.FORTH)).endsWith("in Finch that is `begin test while body repeat | begin body until`");
        assertThat(Discovery.notFound(vocabulary, "zzqqx", null, List.of("a", "b"))).endsWith("; did you mean a, b?");
    }

    @Test
    void aTypeClashSaysExpectedThenFound() {
        Diagnostic d = only("(say 5)", Language.LISP);
        assertThat(d.code()).isEqualTo("E-TYPE-001");
        assertThat(d.message()).isEqualTo("argument 1 of 'say': expected string, found int");
        assertThat(d.expected()).isEqualTo("string");
        assertThat(d.found()).isEqualTo("int");
        assertThat(only("(define (f [x : int]) : string x)", Language.LISP).message()).endsWith("expected string, found int");
    }

    /** Another language's name is no name of Finch's: never a word, nor a form of a frontend it is looked up for. */
    @Test
    void noOtherLanguagesNameIsAFinchName() {
        for (WordSpec w : vocabulary.words()) {
            for (String aka : w.aka()) {
                assertThat(vocabulary.word(aka)).as(w.name() + " aka " + aka).isEmpty();
                assertThat(SourceSyntax.named(aka, SourceSyntax.FORTH)).as(w.name() + " aka " + aka).isEmpty();
                assertThat(SourceSyntax.named(aka, SourceSyntax.LISP)).as(w.name() + " aka " + aka).isEmpty();
            }
        }
        for (SyntaxSpec f : SourceSyntax.all()) {
            for (String aka : f.aka()) {
                assertThat(vocabulary.word(aka)).as(f.name() + " aka " + aka).isEmpty();
                for (String l : f.languages()) assertThat(SourceSyntax.named(aka, l)).as(f.name() + " aka " + aka).isEmpty();
            }
        }
    }
}
