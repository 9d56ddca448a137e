package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.verifier.VerifyCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * µNorman's static diagnostics say why, in µNorman's terms (issue 16, item 8): "not a pattern" says why; a clash
 * with a used file names that file; no type variables like {@code 'a}; no verifier codes.
 */
class DiagnosticWordingTest {
    private static final Norman NORMAN = new Norman(SourceLoader.inMemory(Map.of("lib/a.nm", """
            (datatype Shape [Circle (r Num)])
            (define inc (x) (+ x 1))
            (grant gpt (model [in 1] [out 1]))
            """)));

    private static Diagnostic only(String text) {
        List<Diagnostic> ds = NORMAN.check(text, "main.nm").diagnostics();
        assertThat(ds).hasSize(1);
        return ds.get(0);
    }

    @Test void notAPatternSaysWhy() {
        assertThat(only("(define f (x) (case x [1 0] [_ 1]))").message()).contains("the literal 1 cannot be matched");
        assertThat(only("(define f (x) (case x [\"a\" 0] [_ 1]))").message()).contains("the text literal \"a\"");
        assertThat(only("(define f (x) (case x [(Sqare s) 0] [_ 1]))").message()).contains("`Sqare` is not a constructor");
        assertThat(only("(define f (x) (case x [y 0] [_ 1]))").message()).contains("`y` is a name, not a constructor");
        assertThat(only("(define f (x) (case x ['(1) 0] [_ 1]))").message()).contains("only the empty list '()");
        assertThat(only("(define f (x) (case x [1 0] [_ 1]))").code()).isEqualTo("E-NORMAN-015");
    }

    @Test void aClashWithAUsedFileNamesThatFile() {
        assertThat(only("(use \"lib/a.nm\")\n(define inc (x) (+ x 2))").message()).contains("first at lib/a.nm:2:1");
        assertThat(only("(use \"lib/a.nm\")\n(grant gpt (model [in 1] [out 1]))").message()).contains("gpt").contains("lib/a.nm:3:1");
        assertThat(only("(use \"lib/a.nm\")\n(datatype S [Circle])").message()).contains("lib/a.nm:1:");
        // in one file, the line and column suffice
        assertThat(only("(define g (x) x)\n(define g (x) x)").message()).contains("first at 1:1");
    }

    @Test void typeErrorsShowNoTypeVariables() {
        Diagnostic d = only("(define h (f) (f 1 2))\n(check-expect (h (lambda (x) x)) 1)");
        assertThat(d.message()).contains("(Any -> Any)").contains("(Num Num -> Any)").doesNotContain("'");
        assertThat(only("(define f (x) (x x))").message()).contains("itself").doesNotContain("'");
        assertThat(only("(define k (x) (cons x x))").message()).contains("(List itself)");
        // the types of definitions keep their type parameters
        assertThat(NORMAN.check("(define id (x) x)", "main.nm").types()).containsEntry("id", "('a -> 'a)");
    }

    @Test void aVerifierRejectionIsSaidInMuNormanTerms() {
        Origin at = Origin.of("main.nm", 3, 5);
        List<Diagnostic> ds = NormanCode.fromVerifier(List.of(VerifyCode.TYPE_MISMATCH.at(at, "expected 'a, found Num")));
        assertThat(ds).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-203");
            assertThat(d.origin()).isEqualTo(at);
            assertThat(d.message()).doesNotContain("E-VERIFY").doesNotContain("'a").contains("defect of Finch");
        });
    }

    /** Issue 17, item 4: suggestions are µNorman names, another Lisp's form is named as µNorman writes it. */
    @Test void anUnboundNameSuggestsMuNormanNamesAndFormsOfOtherLispsTheirSpelling() {
        assertThat(only("(define f (x) (match x [1 2]))").message()).contains("µNorman writes `match` as `case`");
        assertThat(only("(define f (x) (cond x))").message()).contains("`cond` as `case`");
        assertThat(only("(define total (xs) 0)\n(define g () (totl '()))").message()).contains("did you mean `total`?");
        assertThat(only("(define g () (qwzx 1))").message()).doesNotContain("did you mean");
    }

    /** Issue 17, item 4: a grant entry's error lists every valid key at once. */
    @Test void aBadGrantEntryListsTheValidKeysAtOnce() {
        assertThat(only("(grant gpt (model in 3))").message()).contains("id, in, out, ceiling, think");
        assertThat(only("(grant gpt (model [price 3]))").message()).contains("id, in, out, ceiling, think");
        assertThat(only("(grant gpt (model [in]))").message()).contains("id, in, out, ceiling, think");
        assertThat(only("(grant py (kernel exec))").message()).contains("[op type]");
        assertThat(only("(script s [site (repy \"x\")])").message()).contains("(reply").contains("(provider-error").contains("(latency d)");
    }
}
