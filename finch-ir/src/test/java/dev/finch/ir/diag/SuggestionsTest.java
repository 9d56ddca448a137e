package dev.finch.ir.diag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 17, item 4: suggestions ranked by closeness with a cutoff — none rather than noise. */
class SuggestionsTest {
    private static final List<String> WORDS = List.of("-", "/", "<", ">", "<=", "and", "cond", "case", "string-length", "json-length",
            "list-length", "dup", "drop", "swap", "match", "match-option", "match-result");

    @Test void aNameFarFromEverythingGetsNothing() {
        assertThat(Suggestions.near("conditional-jump", WORDS)).isEmpty();
        assertThat(Suggestions.near("xyz", WORDS)).isEmpty();
        assertThat(Suggestions.near("", WORDS)).isEmpty();
    }

    @Test void shortWordsAreNotNoiseForAShortName() {
        assertThat(Suggestions.near("cnod", List.of("-", "/", "<", ">", "<="))).isEmpty();
    }

    @Test void theNearestComeFirstThenTheLongerSharedPrefix() {
        assertThat(Suggestions.near("cnd", WORDS)).first().isEqualTo("cond");
        assertThat(Suggestions.near("strng-length", WORDS)).containsExactly("string-length");
        assertThat(Suggestions.near("dpu", WORDS)).containsExactly("dup");
        assertThat(Suggestions.near("matc", WORDS)).first().isEqualTo("match");
    }

    @Test void atMostTheAskedNumber() {
        assertThat(Suggestions.near("match-", WORDS, 2)).hasSize(2);
        assertThat(Suggestions.near("match-", WORDS, 0)).isEmpty();
    }

    @Test void aHugeNameCostsNothingAndGetsNothing() {
        assertThat(Suggestions.near("d".repeat(1_000_000), WORDS)).isEmpty();
    }
}
