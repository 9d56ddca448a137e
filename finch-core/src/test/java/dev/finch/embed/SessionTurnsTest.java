package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import org.junit.jupiter.api.Test;

/** Issue 13, item 5: µNorman definitions persist like Lisp and Co-Forth ones; the language from the source id. */
class SessionTurnsTest {
    private final Session s = Finch.create().newSession();

    private Outcome turn(String text, String sourceId) {
        Outcome o = s.submit(Submission.of(text, sourceId));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return o;
    }

    @Test void normanDefinitionsStayVisibleToLaterNormanTurns() {
        turn("(define double (x) (* x 2))\n(val greeting \"hello\")\n(define shout (t) (text-append t \"!\"))", "one.nm");
        Outcome two = turn("(shout (text-append greeting \" \" (show (double 5))))", "two.nm");
        assertThat(two.values()).containsExactly(Value.of("hello 10!"));
        // A later turn's own definition shadows an earlier one.
        assertThat(turn("(define double (x) (* x 3))\n(double 2)", "three.nm").values().get(1)).isEqualTo(Value.of(6.0));
    }

    @Test void normanCallsLispAndCoForthDefinitionsItCanSpell() {
        turn("(define (half x) (/ x 2.0)) (define (tag s) (string-append \"<\" s \">\"))", "defs.lisp");
        turn(": twice ( float -> float ) 2.0 * ;", "defs.fth");
        assertThat(turn("(tag (show (twice (half 8))))", "use.nm").values()).containsExactly(Value.of("<8>"));
    }

    @Test void aNormanFunctionNamedLikeAVocabularyWordIsSeenUnderItsOwnName() {
        turn("(define dup (x) (+ x 1))", "one.nm");
        assertThat(s.definitions()).containsKey("nm.user.dup");
        assertThat(turn("(dup 1)", "two.nm").values()).containsExactly(Value.of(2.0));
    }

    @Test void internalNamesNeverAppearInDefinitions() {
        turn("(define inc (x) (+ x 1))\n(val xs (filter (lambda (x) (> x 1)) (list 1 2)))\n(define dup (x) x)\n(inc 1)", "one.nm");
        assertThat(s.definitions().keySet()).contains("inc", "xs", "nm.user.dup").noneMatch(n -> n.startsWith("nm.") && !n.startsWith("nm.user."));
        assertThat(s.getVmState().definitions()).noneMatch(d -> d.name().startsWith("nm.") && !d.name().startsWith("nm.user."));
    }

    @Test void theSourceIdsExtensionNamesTheLanguage() {
        assertThat(Submission.of("(+ 1 2)", "agent.nm").resolvedLanguage()).isEqualTo(Language.NORMAN);
        assertThat(Submission.of("1 2 +", "x.lisp").resolvedLanguage()).isEqualTo(Language.LISP);
        assertThat(Submission.of("(1 2 +)", "x.fth").resolvedLanguage()).isEqualTo(Language.FORTH);
        assertThat(Submission.of("(+ 1 2)", "turn-1").resolvedLanguage()).isEqualTo(Language.LISP);
        assertThat(Submission.of("1 2 +", "turn-1").resolvedLanguage()).isEqualTo(Language.FORTH);
        assertThat(Submission.of("(+ 1 2)", "a.fth").withLanguage(Language.LISP).resolvedLanguage()).isEqualTo(Language.LISP);
        assertThat(turn("(+ 1 2)", "agent.nm").language()).isEqualTo("norman");
    }
}
