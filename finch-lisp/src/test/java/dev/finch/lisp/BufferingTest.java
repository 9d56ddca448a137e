package dev.finch.lisp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BufferingTest {
    @Test
    void completeWhenDelimitersBalance() {
        LispBuffer b = new LispBuffer();
        assertThat(b.isComplete()).isFalse();
        b.feed("(define (f x)\n");
        assertThat(b.isComplete()).isFalse();
        assertThat(b.openDepth()).isEqualTo(1);
        b.feed("  (say \")(\") ; ) closes nothing\n");
        assertThat(b.isComplete()).isFalse();
        b.feed("  x)");
        assertThat(b.isComplete()).isTrue();
        assertThat(b.take()).startsWith("(define");
        assertThat(b.text()).isEmpty();
    }

    @Test
    void openStringIsIncompleteAndCommentsAloneAreNotASubmission() {
        assertThat(new LispBuffer().feed("(say \"abc").isComplete()).isFalse();
        assertThat(new LispBuffer().feed("(say \"abc\\\"\")").isComplete()).isTrue();
        assertThat(new LispBuffer().feed("; just a comment (\n").isComplete()).isFalse();
        assertThat(new LispBuffer().feed("(a [b {c}])").isComplete()).isTrue();
        assertThat(new LispBuffer().feed("(a))").isComplete()).as("a stray closer cannot be repaired").isTrue();
    }

    @Test
    void languageInference() {
        assertThat(LanguageInference.infer("  \n (say \"hi\")")).isEqualTo("lisp");
        assertThat(LanguageInference.infer("\"hi\" say")).isEqualTo("forth");
        assertThat(LanguageInference.infer("")).isEqualTo("forth");
        assertThat(LanguageInference.infer("; (comment")).isEqualTo("forth");
    }
}
