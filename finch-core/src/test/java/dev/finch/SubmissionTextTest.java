package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 17, item 5: a submission wrapped in a Markdown fence gets its own diagnostic; suggestions are not noise. */
class SubmissionTextTest {
    @Test void aFencedSubmissionIsToldToDropTheFence() {
        Session s = Finch.builder().build().newSession();
        for (String text : new String[] {"```lisp\n(+ 1 2)\n```", "\n  ```forth\n1 2 +\n```\n", "~~~\n1\n~~~"}) {
            Outcome o = s.submit(Submission.of(text, "fenced"));
            assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics()).hasSize(1);
            assertThat(o.diagnostics().get(0).code()).isEqualTo("E-SUBMIT-001");
            assertThat(o.diagnostics().get(0).phase()).hasToString("parse");
            assertThat(o.diagnostics().get(0).message()).contains("without the fence");
        }
        assertThat(s.check(Submission.of("```\n1\n```", "c")).diagnostics().get(0).code()).isEqualTo("E-SUBMIT-001");
        Outcome inside = s.submit(Submission.of("\"```\" say", "quoted"));
        assertThat(inside.status()).as("a fence inside a string is text").isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test void suggestionsAreCloseNamesOrNothing() {
        Session s = Finch.builder().build().newSession();
        assertThat(s.suggestWords("strng-length", 5)).containsExactly("string-length");
        assertThat(s.suggestWords("dpu", 5)).first().isEqualTo("dup");
        assertThat(s.suggestWords("cond", 5)).doesNotContain("-", "/", "<", ">", "<=");
        assertThat(s.suggestWords("qqqqqq", 5)).isEmpty();
    }
}
