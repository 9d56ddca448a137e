package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.ir.vocab.Vocabulary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)   // a hang guard per test (each takes milliseconds); nothing here bounds wall time
class DiscoveryTest {
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();

    private static Submission forth(String text) { return Submission.of(text, "t.fth").withLanguage(Language.FORTH); }

    private static Submission lisp(String text) { return Submission.of(text, "t.lisp").withLanguage(Language.LISP); }

    @Test
    void vmStateReportsStackBottomToTopRevisionsDefinitionsAndConstants() {
        Session s = finch.newSession();
        assertThat(s.submit(forth(": square ( int -- int ) dup * ; 42 constant answer 1 \"two\"")).status()).isEqualTo(Outcome.Status.COMPLETED);
        VmStateReport r = s.getVmState();
        assertThat(r.stack()).containsExactly(new StackEntry("int", "1"), new StackEntry("string", "\"two\""));
        assertThat(r.vmRevision()).isEqualTo(1);
        assertThat(r.manifestGeneration()).isEqualTo(1);
        assertThat(r.definitions()).containsExactly(new VmStateReport.DefinitionEntry("square", "int -> int"));
        assertThat(r.constants()).containsExactly(new VmStateReport.ConstantEntry("answer", "int", "42"));
        assertThat(r.sessionId()).isEqualTo(s.id());
    }

    @Test
    void aFailedRunLeavesTheReportedStateAsItWas() {
        Session s = finch.newSession();
        s.submit(forth("5"));
        s.submit(forth(": bad ( -- int ) 1 ; \"x\" 1 +"));
        VmStateReport r = s.getVmState();
        assertThat(r.vmRevision()).isEqualTo(1);
        assertThat(r.definitions()).isEmpty();
        assertThat(r.stack()).containsExactly(new StackEntry("int", "5"));
    }

    @Test
    void inspectingACoreWordGivesSignatureAndDoc() {
        WordInfo info = finch.newSession().inspectWord("list-get").orElseThrow();
        assertThat(info).isInstanceOf(WordInfo.CoreWord.class);
        WordInfo.CoreWord w = (WordInfo.CoreWord) info;
        assertThat(w.signature()).isEqualTo("list<a> int -> option<a>");
        assertThat(w.category()).isEqualTo("list");
        assertThat(w.doc()).isEqualTo(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().word("list-get").orElseThrow().doc());
        WordInfo.CoreWord plus = (WordInfo.CoreWord) finch.newSession().inspectWord("+").orElseThrow();
        assertThat(plus.overloads()).containsExactly("int int -> int", "float float -> float");
    }

    @Test
    void syntaxIsReportedWithItsFormAndNoSignature() throws Exception {
        Session s = finch.newSession();
        for (String name : List.of("while", "define", "if")) {
            WordInfo info = s.inspectWord(name).orElseThrow();
            assertThat(info).as(name).isInstanceOf(WordInfo.Syntax.class);
            assertThat(((WordInfo.Syntax) info).form()).isNotBlank();
            JsonNode json = new ObjectMapper().readTree(DiscoveryJson.write(DiscoveryJson.tree(info)));
            assertThat(json.get("kind").asText()).isEqualTo("syntax");
            assertThat(json.has("signature")).as("syntax has no pretend signature").isFalse();
            assertThat(json.get("form").asText()).isEqualTo(dev.finch.ir.vocab.SourceSyntax.named(name).orElseThrow().form());
        }
        assertThat(((WordInfo.Syntax) s.inspectWord("define").orElseThrow()).languages()).containsExactly("lisp", "norman");
        assertThat(((WordInfo.Syntax) s.inspectWord("define", Language.NORMAN).orElseThrow()).form()).isEqualTo("(define f (x …) body)");
    }

    @Test
    void aPersistedDefinitionShowsItsSignatureAndCanonicalForthThatRunsAgain() {
        Session s = finch.newSession();
        assertThat(s.submit(lisp("(define (sq [n : int]) : int (* n n))")).status()).isEqualTo(Outcome.Status.COMPLETED);
        WordInfo.Definition d = (WordInfo.Definition) s.inspectWord("sq").orElseThrow();
        assertThat(d.signature()).isEqualTo("int -> int");
        String source = d.source().orElseThrow();
        assertThat(source).startsWith(": sq ( int -- int )").endsWith(";");
        // The canonical Co-Forth is a real program: define it in a fresh session and call it.
        Session fresh = finch.newSession();
        Outcome o = fresh.submit(forth(source + " 7 sq"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).containsExactly(new StackEntry("int", "49"));
    }

    @Test
    void aDefinitionShadowsNothingItDoesNotName_andConstantsAreInspectable() {
        Session s = finch.newSession();
        s.submit(forth("3 constant three"));
        WordInfo.Constant c = (WordInfo.Constant) s.inspectWord("three").orElseThrow();
        assertThat(c.type()).isEqualTo("int");
        assertThat(c.display()).isEqualTo("3");
        assertThat(s.inspectWord("no-such-word")).isEmpty();
        assertThat(s.inspectWord(" dup ")).get().extracting(WordInfo::kind).isEqualTo(WordKind.CORE_WORD);
    }

    @Test
    void searchRanksNameMatchesBeforeDocMatches() {
        Session s = finch.newSession();
        s.submit(forth(": string-twice ( string -- string ) dup string-append ;"));
        List<WordSummary> hits = s.searchWord("string");
        List<String> names = hits.stream().map(WordSummary::name).toList();
        // A definition is a name match too and comes before the core words of its rank.
        assertThat(names.get(0)).isEqualTo("string-twice");
        assertThat(names).contains("string-length", "string-append", "int-to-string");
        int firstDocOnly = names.indexOf("show");       // "show" matches only by its doc ("Canonical text ... string")
        if (firstDocOnly >= 0) assertThat(firstDocOnly).isGreaterThan(names.indexOf("int-to-string"));
        // Prefix matches before contains matches.
        assertThat(names.indexOf("string-length")).isLessThan(names.indexOf("int-to-string"));
    }

    @Test
    void searchFindsSyntaxAndMultiTermQueries() {
        Session s = finch.newSession();
        assertThat(s.searchWord("while").get(0)).isEqualTo(new WordSummary("while", WordKind.SYNTAX,
                dev.finch.ir.vocab.SourceSyntax.named("while").orElseThrow().form(), "(lisp) " + dev.finch.ir.vocab.SourceSyntax.named("while").orElseThrow().doc()));
        assertThat(s.searchWord("length string").stream().map(WordSummary::name)).first().isEqualTo("string-length");
        assertThat(s.searchWord("code points").stream().map(WordSummary::name)).contains("string-length");
        assertThat(s.searchWord("   ")).isEmpty();
        assertThat(s.searchWord("zzzz-nothing")).isEmpty();
    }

    @Test
    void suggestionsOfferCloseNames() {
        Session s = finch.newSession();
        assertThat(s.suggestWords("string-lenght", 5)).contains("string-length");
        assertThat(s.suggestWords("dupp", 5)).first().isEqualTo("dup");
    }

    @Test
    void theLanguageDefinitionIsGeneratedFromTheVocabulary() {
        LanguageDefinition d = finch.newSession().getLanguageDefinition();
        assertThat(d.protocol()).isEqualTo("FINCH-VM-TYPED/1");
        assertThat(d.text()).contains("## Co-Forth", "## Lisp", "## Types");
        for (var w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) assertThat(d.text()).contains("`" + w.name() + " : " + w.signatureText() + "`");
        for (var x : dev.finch.ir.vocab.SourceSyntax.all()) assertThat(d.text()).contains("`" + x.form() + "`");
        assertThat(d.syntax()).isEqualTo(dev.finch.ir.vocab.SourceSyntax.all());
        int words = d.categories().stream().mapToInt(c -> c.words().size()).sum();
        assertThat(words).isEqualTo(dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words().size());
        assertThat(Discovery.languageDefinition()).isSameAs(d);
    }

    @Test
    void everyExampleProgramInTheLanguageDefinitionRuns() {
        String grammar = Discovery.languageDefinition().grammar();
        Matcher m = Pattern.compile("```(forth|lisp)\\n(.*?)```", Pattern.DOTALL).matcher(grammar);
        List<String> failures = new ArrayList<>();
        int count = 0;
        while (m.find()) {
            count++;
            Language lang = Language.named(m.group(1)).orElseThrow();
            Outcome o = finch.newSession().submit(Submission.of(m.group(2), "example").withLanguage(lang));
            if (o.status() != Outcome.Status.COMPLETED) failures.add(m.group(2) + " -> " + FinchJson.write(o));
        }
        assertThat(count).isGreaterThanOrEqualTo(6);
        assertThat(failures).isEmpty();
    }

    /**
     * The bound docs/guide.md states: the whole text stays a prompt's size (about 4 characters a token), and no longer
     * than it was when issue 36 made it say what works (49,200) plus the words added since (the HTTP words of issue 39 fit by
     * shortening others; the memory words of issue 37 add about 1,300, the schedule words of issue 39 about 700) — what it
     * says may change; it grows only by what new words must say. The primer (PrimerTest) is what goes on every turn.
     */
    static final int MAX_LANGUAGE_CHARS = 51_800;

    @Test
    void theLanguageDefinitionStaysCompactEnoughForAPrompt() {
        String all = Discovery.languageDefinition().text();
        assertThat(all.length()).as("finch language, in characters (docs/guide.md states the size)").isBetween(30_000, MAX_LANGUAGE_CHARS);
        for (Language l : Language.values()) {
            assertThat(Discovery.languageDefinition(l).text().length()).as(l.spelling()).isLessThan(all.length());
        }
        assertThat(Discovery.languageDefinition(Language.NORMAN).text().length()).as("µNorman alone").isLessThan(16_000);
    }

    /** Issue 36, item 5: the text says what works, each fact from its one source (the syntax table, the vocabulary). */
    @Test
    void theLanguageTextSaysWhatWorks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path ws) throws java.io.IOException {
        String all = Discovery.languageDefinition().text();
        // Which Lisp words are variadic, from the words that fold.
        StringBuilder folds = new StringBuilder();
        for (var w : dev.finch.vm.engine.VmState.EMPTY.library().vocabulary().words()) if (w.foldsLeft()) folds.append(folds.length() == 0 ? "`" : " ").append(w.name());
        assertThat(folds.toString()).contains("+", "string-append");
        assertThat(all).contains(folds + "` take any number of arguments");
        // Lisp's match on closed variants, its string escapes, the streams' edges.
        assertThat(all).contains("a closed variant ((tag x) e…)", "(match v ((tag x) …) ((tag2) …)) closed variant");
        assertThat(all).contains("escapes in \"…\": \\n \\t \\r \\0 \\\" \\\\ \\uXXXX \\u{X…}");
        assertThat(all).contains("the header row first", "each without its line end");
        // One worked example each of a stream loop and a record pattern, which run.
        assertThat(all).contains("(define (count-lines [f : string]) : int", "(stream-next s)", "(record ((name n) (age a))");
        Matcher m = Pattern.compile("```lisp\\n(\\(match \\{ :name.*?)```", Pattern.DOTALL).matcher(all);
        assertThat(m.find()).isTrue();
        java.nio.file.Files.writeString(ws.resolve("notes.txt"), "one\r\ntwo\nthree");
        Session s = finch.newSession(SessionOptions.DEFAULT.withWorkspace(ws).withGrant("fs.read(${workspace}/**)"));
        Outcome o = s.submit(Submission.of(m.group(1) + "(count-lines \"notes.txt\")", "example").withLanguage(Language.LISP));
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly("\"Ada is 36\"", "3");
        // The branch rules as they are: if-ok's else is required, and ? works in a closure that declares a result.
        assertThat(all).contains("'if-ok' item* 'else' item* 'then'", "(result-returning word or closure)");
    }

    @Test
    void theLanguageDefinitionDescribesAllThreeAndEachAlone() {
        String all = Discovery.languageDefinition().text();
        assertThat(all).contains("## Co-Forth", "## Lisp", "## Types", "## µNorman", "## µNorman syntax",
                "A program is Lisp, Co-Forth or µNorman", "each `finch run` starts a fresh\nsession", "expected_vm_revision");
        assertThat(all).doesNotContain("A program is Lisp or Co-Forth");
        // µNorman's grant kinds and keys, script answers and test forms, as its frontend reads them.
        assertThat(all).contains("(model [id \"model-id\"] [in p] [out p] [ceiling n] [think n])", "kernel|filesystem|http [op ty]",
                "(reply \"json\")", "(result \"text\")", "(provider-error \"msg\")", "(refused 'category)", "(out n) (latency d)");
        for (String form : dev.finch.norman.Norman.forms()) {
            if (!form.equals("_")) assertThat(all).as(form).contains("(" + form + " ");
        }
        String norman = Discovery.languageDefinition(Language.NORMAN).text();
        assertThat(norman).contains("## Submitting programs", "## µNorman", "(datatype T").doesNotContain("## Co-Forth", "## Lisp", "## Core words", "`dup : ");
        String lisp = Discovery.languageDefinition(Language.LISP).text();
        assertThat(lisp).contains("## Lisp", "## Types", "## Core words", "((make-adder 5) 10)").doesNotContain("## Co-Forth", "## µNorman");
        String forth = Discovery.languageDefinition(Language.FORTH).text();
        assertThat(forth).contains("## Co-Forth", "## Types", "`dup : ").doesNotContain("## Lisp\n", "## µNorman");
        assertThat(Discovery.languageDefinition(Language.NORMAN).syntax()).isEqualTo(dev.finch.ir.vocab.SourceSyntax.of("norman"));
    }

    @Test
    void everySyntaxFormInTheLanguageTextAnswersInspect() {
        Session s = finch.newSession();
        for (var x : Discovery.languageDefinition().syntax()) {
            assertThat(s.inspectWord(x.name())).as(x.name()).isPresent();
            for (String part : x.parts()) assertThat(s.inspectWord(part)).as(part).isPresent();
        }
        for (String name : List.of("cond", "match", "match-option", "match-result", "try", "when", "unless", "set!", "let*",
                "define-syntax", "quote", "list", "{", "map{", "datatype", "grant", "script", "check-expect", "under", "retry", "best-of")) {
            assertThat(s.inspectWord(name)).as(name).isPresent();
        }
    }

    @Test
    void theVocabularyJsonHasTheShapeOfTheVmVocabularyWord() throws Exception {
        Session s = finch.newSession();
        s.submit(forth(": inc ( int -- int ) 1 + ;"));
        Outcome o = s.submit(forth("vm-vocabulary json-stringify"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        ObjectMapper json = new ObjectMapper();
        String display = o.stack().get(o.stack().size() - 1).display();
        JsonNode fromWord = json.readTree(json.readTree(display).asText());
        var ours = DiscoveryJson.vocabularyTree(s.vocabulary(), s.getVmState());
        assertThat(ours.get("words")).isEqualTo(fromWord.get("words"));
        assertThat(ours.get("definitions")).isEqualTo(fromWord.get("definitions"));
        assertThat(ours.get("syntax").size()).isEqualTo(dev.finch.ir.vocab.SourceSyntax.all().size());
    }

    @Test
    void vmStateJsonIsSnakeCaseBottomToTop() throws Exception {
        Session s = finch.newSession();
        s.submit(forth("1 2"));
        JsonNode j = new ObjectMapper().readTree(DiscoveryJson.write(DiscoveryJson.tree(s.getVmState())));
        assertThat(j.get("vm_revision").asLong()).isEqualTo(1);
        assertThat(j.get("manifest_generation").asLong()).isEqualTo(1);
        assertThat(j.get("stack").get(1).get("display").asText()).isEqualTo("2");
        assertThat(j.get("definitions").isArray()).isTrue();
        assertThat(j.get("constants").isArray()).isTrue();
    }

    @Test
    void theNormanExampleOfTheLanguageDefinitionLoadsInASession() {
        String grammar = Discovery.languageDefinition(Language.NORMAN).grammar();
        Matcher m = Pattern.compile("```norman\\n(.*?)```", Pattern.DOTALL).matcher(grammar);
        assertThat(m.find()).as("the µNorman section has a ```norman example").isTrue();
        // Its functions become words (that its tests pass is finch-norman-test's NormanExamplesPassTest).
        Outcome o = finch.newSession().submit(Submission.of(m.group(1), "example.nm").withLanguage(Language.NORMAN));
        assertThat(o.status()).as(FinchJson.write(o)).isEqualTo(Outcome.Status.COMPLETED);
    }
}
