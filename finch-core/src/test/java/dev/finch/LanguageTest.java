package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LanguageTest {
    @Test
    void inferenceLooksAtTheFirstNonWhitespaceCharacterOnly() {
        assertThat(Language.infer("(say \"hi\")")).isEqualTo(Language.LISP);
        assertThat(Language.infer(" \n\t (+ 1 2)")).isEqualTo(Language.LISP);
        assertThat(Language.infer("( comment ) 1 2 +")).isEqualTo(Language.LISP);
        assertThat(Language.infer("1 2 + (say)")).isEqualTo(Language.FORTH);
        assertThat(Language.infer("")).isEqualTo(Language.FORTH);
        assertThat(Language.infer("\u00a0 x")).isEqualTo(Language.FORTH);
    }

    @Test
    void extensionsFollowD3() {
        assertThat(Language.forFileName("a/b.lisp")).contains(Language.LISP);
        assertThat(Language.forFileName("x.fth")).contains(Language.FORTH);
        assertThat(Language.forFileName("x.FORTH")).contains(Language.FORTH);
        assertThat(Language.forFileName("t.nm")).contains(Language.NORMAN);
        assertThat(Language.forFileName("t.norman")).contains(Language.NORMAN);
        assertThat(Language.forFileName("t.txt")).isEmpty();
        assertThat(Language.forFileName("-")).isEmpty();
    }

    @Test
    void namesAreTheOutcomeSpellings() {
        assertThat(Language.named("Lisp")).contains(Language.LISP);
        assertThat(Language.named("cobol")).isEmpty();
        assertThat(Language.FORTH.toString()).isEqualTo("forth");
    }
}
