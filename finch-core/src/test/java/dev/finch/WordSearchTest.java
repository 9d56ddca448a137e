package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.tools.ToolSurface;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** search_word finds a word from a description of what it does: by meaning as well as by name. */
@Timeout(60)   // a hang guard; nothing here bounds wall time
class WordSearchTest {
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();

    /** What a model asks for, and the word that does it (in the top 3). */
    static final Map<String, String> INTENTS = new LinkedHashMap<>();

    static {
        INTENTS.put("uppercase", "string-upcase");
        INTENTS.put("split string", "string-split");
        INTENTS.put("sort by key", "list-sort-by");
        INTENTS.put("read csv", "csv-open");
        INTENTS.put("lowercase", "string-downcase");
        INTENTS.put("string length", "string-length");
        INTENTS.put("parse json", "json-parse");
        INTENTS.put("join strings", "string-join");
        INTENTS.put("reverse a list", "list-reverse");
        INTENTS.put("print text", "say");
        INTENTS.put("read file lines", "file-lines-open");
        INTENTS.put("replace text", "string-replace");
        INTENTS.put("trim whitespace", "string-trim");
        INTENTS.put("int to string", "int-to-string");
        INTENTS.put("filter list", "list-filter");
        INTENTS.put("remove key from map", "map-remove");
        INTENTS.put("square root", "sqrt");
        INTENTS.put("substring", "string-slice");
        INTENTS.put("write file", "file-write");
        INTENTS.put("absolute value", "abs");
        INTENTS.put("loop", "while");
        INTENTS.put("sum a list", "list-fold");
        INTENTS.put("dictionary size", "map-size");
        INTENTS.put("find in string", "string-index-of");
    }

    @Test
    void everyIntentFindsItsWordInTheTopThree() {
        Session s = finch.newSession();
        List<String> misses = new ArrayList<>();
        for (Map.Entry<String, String> e : INTENTS.entrySet()) {
            List<String> top = s.searchWord(e.getKey()).stream().limit(3).map(WordSummary::name).toList();
            if (!top.contains(e.getValue())) misses.add(e.getKey() + " -> " + top + " (wanted " + e.getValue() + ")");
        }
        assertThat(misses).isEmpty();
        assertThat(INTENTS).hasSizeGreaterThanOrEqualTo(16);
    }

    @Test
    void eachHitCarriesItsSignatureAndOneLineDoc() throws Exception {
        ToolSurface t = ToolSurface.of(finch.newSession());
        JsonNode hits = new ObjectMapper().readTree(t.handle("search_word", "{\"query\":\"uppercase\",\"limit\":3}")).get("hits");
        JsonNode first = hits.get(0);
        assertThat(first.get("name").asText()).isEqualTo("string-upcase");
        assertThat(first.get("signature").asText()).isEqualTo("string -> string");
        assertThat(first.get("doc").asText()).contains("upper case").doesNotContain("\n");
    }

    @Test
    void aNameStillRanksAboveMeaningsAndNonsenseFindsNothing() {
        Session s = finch.newSession();
        assertThat(s.searchWord("list-get").get(0).name()).isEqualTo("list-get");
        assertThat(s.searchWord("string-len").get(0).name()).isEqualTo("string-length");
        assertThat(s.searchWord("zzzz-nothing")).isEmpty();
        assertThat(s.searchWord("qwxz")).isEmpty();
    }

    @Test
    void theRankingIsDeterministic() {
        Session s = finch.newSession();
        for (String q : INTENTS.keySet()) assertThat(s.searchWord(q)).isEqualTo(finch.newSession().searchWord(q));
    }

    @Test
    void stemmingFoldsPluralsAndVerbEndings() {
        assertThat(WordSearch.stem("splits")).isEqualTo("split");
        assertThat(WordSearch.stem("sorting")).isEqualTo("sort");
        assertThat(WordSearch.stem("entries")).isEqualTo("entry");
        assertThat(WordSearch.stem("matches")).isEqualTo("match");
        assertThat(WordSearch.stem("trimmed")).isEqualTo("trim");
        assertThat(WordSearch.stem("class")).isEqualTo("class");
    }
}
