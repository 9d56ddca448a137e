package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.vocab.Vocabulary;
import dev.finch.ir.vocab.WordSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The words µNorman's lowering calls by itself are Finch's core words, named through {@link Word}, never by strings. */
class WordsTest {
    private static final Vocabulary CORE = dev.finch.vm.engine.VmState.EMPTY.library().vocabulary();

    @Test
    void everyWordTheLoweringCallsIsACoreWord() {
        for (Word w : Word.values()) {
            assertThat(CORE.word(w.spelling)).as("the word `%s` (Word.%s)", w.spelling, w.name()).isPresent()
                    .get().extracting(WordSpec::origin).isEqualTo(WordSpec.Provenance.CORE);
        }
        assertThat(Arrays.stream(Word.values()).map(w -> w.spelling).distinct().count()).isEqualTo(Word.values().length);
    }

    @Test
    void theLoweringNamesNoWordByAString() throws Exception {
        // A call written with a literal name would bypass Word: the lowering has none.
        Pattern literalCall = Pattern.compile("new\\s+Instr\\.Call\\(\\s*\"");
        for (String file : new String[] {"Lowerer.java", "Norman.java", "Infer.java"}) {
            String source = Files.readString(Path.of("src/main/java/dev/finch/norman", file));
            assertThat(literalCall.matcher(source).find()).as(file).isFalse();
        }
    }

    @Test
    void aLoweredProgramCallsOnlyWordsOfTheVocabularyOrItsOwn() {
        var lowering = Support.lower("(define f (x) (if (> x 1) (show x) \"small\")) (f 2) (budget ([cost $1]) (text-append \"a\" \"b\"))");
        assertThat(lowering.diagnostics()).isEmpty();
        var module = lowering.module().orElseThrow();
        java.util.List<String> calls = new java.util.ArrayList<>(Support.calls(module.main()));
        for (var def : module.words()) calls.addAll(Support.calls(def.body()));
        assertThat(calls).contains(Word.OK.spelling);
        for (String c : calls) {
            boolean own = module.words().stream().anyMatch(d -> d.name().equals(c));
            assertThat(CORE.word(c).isPresent() || own).as("`%s` is called", c).isTrue();
        }
    }
}
