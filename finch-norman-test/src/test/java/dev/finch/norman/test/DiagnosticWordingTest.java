package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * µNorman's run-time diagnostics say what an agent author needs (issue 16, item 8): a site missing from a script
 * names the sites the script has; an Invalid answer says what did not validate (path, expected, found);
 * check-equiv speaks of its sides in the order they are written.
 */
class DiagnosticWordingTest extends HarnessTestSupport {
    private static final String HEAD = """
            (grant gpt (model [in 2] [out 8] [ceiling 4000]))
            (grant py (kernel [count Num]))
            (record Answer (value Num))
            (define ask-n () (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math))
            """;

    @Test void aSiteMissingFromAScriptNamesTheSitesItHas() {
        FileReport r = run(HEAD + """
                (script s [mth (reply "{\\"value\\":4}")] [other (reply "x")])
                (under ([script s]) (check-expect (. (ask-n) value) 4))
                """);
        assertThat(r.results().get(0).message()).contains("script s has no entries for site 'math").contains("its sites are 'mth, 'other");
    }

    @Test void anExhaustedSiteStillSaysItIsExhausted() {
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":4}")])
                (under ([script s]) (check-expect (begin (ask-n) (. (ask-n) value)) 4))
                """);
        assertThat(r.results().get(0).message()).contains("exhausted at site 'math").doesNotContain("its sites are");
        // A code of its own (issue 36: one meaning per code), not the program's E-RUN-005.
        assertThat(r.results().get(0).message()).contains("E-NORMAN-403").doesNotContain("E-RUN-005");
    }

    @Test void aProgramsOwnCheckedErrorKeepsE_RUN_005() {
        FileReport r = run(HEAD + "(datatype T [A] [B])\n(check-expect (case B [A 1]) 1)\n");
        assertThat(r.results().get(0).message()).contains("E-RUN-005");
    }

    @Test void anInvalidAnswerSaysThePathWhatWasExpectedAndWhatWasFound() {
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":\\"four\\"}")])
                (under ([script s])
                  (check-expect (. (ask-n) value) 4)
                  (check-fail (ask-n) (ToolError _)))
                """);
        assertThat(r.results().get(0).message()).contains("Invalid: $.value: expected a number, found text");
        assertThat(r.results().get(1).message()).contains("$.value").contains("expected a number");
        // the trace says it too
        assertThat(r.results().get(0).trace()).singleElement().satisfies(e -> assertThat(e.reply()).contains("Invalid: $.value"));
    }

    @Test void anInvalidToolResultSaysWhatDidNotValidate() {
        FileReport r = run(HEAD + """
                (script s [py/count (result "seven")])
                (under ([script s]) (check-expect (call py count "x") 7))
                """);
        assertThat(r.results().get(0).message()).contains("Invalid: ").contains("not JSON");
    }

    @Test void checkEquivListsItsSidesInOrder() {
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":1}") (out 1)])
                (check-equiv 3 4 'value)
                (under ([script s]) (check-equiv (. (ask-n) value) 1 'resource))
                """);
        assertThat(r.results().get(0).message()).contains("the first gives 3, the second 4");
        // the first side asks and spends, the second spends nothing: in that order
        assertThat(r.results().get(1).message()).matches(".*the sides spent \\$0\\.0+[1-9][0-9]* and \\$0\\.00");
    }
}
