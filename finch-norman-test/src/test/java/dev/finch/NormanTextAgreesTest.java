package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.SourceLoader;
import dev.finch.norman.test.FileReport;
import dev.finch.norman.test.TestHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The µNorman section of {@code finch language} states the grant kinds and keys and the script answers; this test
 * reads them out of the text and has the µNorman frontend load a file that uses every one, so the text cannot name a
 * key the frontend refuses (and a key the frontend does not know is refused, so the text is the whole list).
 */
class NormanTextAgreesTest {
    private static final String TEXT = Discovery.languageDefinition(Language.NORMAN).grammar();

    private static List<String> all(String regex, String in) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(in);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    private static String line(String containing) {
        return TEXT.lines().filter(l -> l.contains(containing)).findFirst().orElseThrow(() -> new AssertionError("no line with " + containing));
    }

    private static FileReport load(String file) {
        try (TestHarness h = new TestHarness(SourceLoader.none())) {
            return h.runAll(file + "\n(check-expect 1 1)", "agree.nm");
        }
    }

    @Test
    void everyModelKeyTheTextNamesLoadsAndNoOtherDoes() {
        List<String> keys = all("\\[(\\w+) ", line("(grant name (model"));
        assertThat(keys).containsExactly("id", "in", "out", "ceiling", "think");
        FileReport ok = load("(grant gpt (model [id \"m\"] [in 1] [out 2] [ceiling 100] [think 10]))");
        assertThat(ok.diagnostics()).isEmpty();
        assertThat(load("(grant gpt (model [price 1]))").diagnostics()).isNotEmpty();
    }

    @Test
    void everyToolKindTheTextNamesLoads() {
        String kinds = line("(grant name (kernel");
        Matcher m = Pattern.compile("\\(grant name \\(([a-z|]+) ").matcher(kinds);
        assertThat(m.find()).isTrue();
        for (String kind : m.group(1).split("\\|")) {
            assertThat(load("(grant t (" + kind + " [op Text]))").diagnostics()).as(kind).isEmpty();
            assertThat(load("(grant t (" + kind + "))").diagnostics()).as(kind + " open").isEmpty();
        }
        assertThat(load("(grant t (database))").diagnostics()).isNotEmpty();
    }

    @Test
    void everyScriptAnswerTheTextNamesLoadsWithItsQualifiers() {
        List<String> answers = all("\\((reply|result|provider-error|refused|[a-z-]+) [\"']", line("answer     ::="));
        assertThat(answers).containsExactly("reply", "result", "provider-error", "refused");
        String script = "(grant gpt (model [ceiling 100]))\n(script s [site (reply \"1\") (out 1) (latency 1s) (result \"r\") (latency 1s)"
                + " (provider-error \"503\") (refused 'safety) (out 2)])";
        assertThat(load(script).diagnostics()).isEmpty();
        assertThat(load("(script s [site (reponse \"1\")])").diagnostics()).isNotEmpty();
    }
}
