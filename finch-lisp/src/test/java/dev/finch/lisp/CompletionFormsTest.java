package dev.finch.lisp;

import static dev.finch.lisp.Support.fails;
import static dev.finch.lisp.Support.ir;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * The forms that complete issue 3: exhaustive variant {@code match}, quoted lists, named {@code let}, and names
 * that stay spellable in canonical Co-Forth. Asserts the exact IR each lowers to (IrDump's Co-Forth-like spelling).
 */
class CompletionFormsTest {
    private static final String V = "variant{a|b(int)}";

    @Test
    void variantMatchIsVariantGetOptionBranchesAndAnUnwrapOfTheLastTag() {
        assertThat(ir("(match (variant " + V + " :b 5) ((a) 0) ((b x) x))"))
                .isEqualTo("5 variant[" + V + ", b] :> tagged @tagged variant-get[a] if-some drop 0 else @tagged variant-get[b] unwrap :> x @x then");
        assertThat(ir("(match (variant " + V + " :a) ((b x) x) (_ 0))"))
                .isEqualTo("variant[" + V + ", a] :> tagged @tagged variant-get[b] if-some :> x @x else 0 then");
    }

    @Test
    void variantMatchMustBeExhaustiveAndKnowItsType() {
        Diagnostic d = fails("(match (variant " + V + " :a) ((a) 0))");
        assertThat(d.code()).isEqualTo("E-TYPE-010");
        assertThat(d.message()).contains("tag(s) b");
        assertThat(fails("(match (variant " + V + " :a) ((a) 0) ((b x) 1) (_ 2))").code()).isEqualTo("E-LISP-101");
        assertThat(fails("(match (variant " + V + " :a) ((a) 0) ((a) 1) ((b x) 1))").code()).isEqualTo("E-LISP-101");
        assertThat(fails("(match (variant " + V + " :a) ((c) 0) (_ 1))").code()).isEqualTo("E-TYPE-006");
        assertThat(fails("(match (variant " + V + " :a) ((a y) 0) ((b x) 1))").code()).isEqualTo("E-TYPE-006");
        assertThat(fails("(define (f v) (match v ((a) 0) ((b x) x)))").code()).isEqualTo("E-TYPE-007");
        assertThat(fails("(match 5 ((a) 0) (_ 1))").code()).isEqualTo("E-TYPE-006");
    }

    @Test
    void quotedListsAreTypedLists() {
        assertThat(ir("'(1 2 3)")).isEqualTo("[ 1 2 3 ]");
        assertThat(ir("(quote (\"a\" b))".replace(" b", " \"b\""))).isEqualTo("[ \"a\" \"b\" ]");
        assertThat(ir("'((1) (2))")).isEqualTo("[ [ 1 ] [ 2 ] ]");
        assertThat(ir("'(x #t)".replace(" #t", " y"))).isEqualTo("[ 'x 'y ]");
        assertThat(ir("'name")).isEqualTo("'name");
        assertThat(fails("'()").code()).isEqualTo("E-TYPE-009");
        assertThat(fails("'(1 \"a\")").code()).isEqualTo("E-TYPE-001");
        assertThat(fails("'{ :a 1 }").code()).isEqualTo("E-LISP-108");
    }

    @Test
    void namedLetIsALoopOverItsParameters() {
        // (if test (loop …) result), the loop called nowhere else: Co-Forth's begin … while … repeat, the result after it.
        assertThat(ir("(let loop ((i 0)) (if (< i 3) (loop (+ i 1)) i))")).isEqualTo("0 :> i begin @i 3 < while @i 1 + :> i repeat @i");
        // (if test result (loop …)): the same loop under the test's negation — a comparison of ints as its opposite,
        // so the loop is the first shape's; any other test followed by if false else true then.
        assertThat(ir("(let loop ((i 0)) (if (>= i 3) i (loop (+ i 1))))")).isEqualTo(ir("(let loop ((i 0)) (if (< i 3) (loop (+ i 1)) i))"));
        assertThat(ir("(let loop ((i 0)) (if (= i 3) i (loop (+ i 1))))")).isEqualTo("0 :> i begin @i 3 <> while @i 1 + :> i repeat @i");
        assertThat(ir("(let loop ((x 0.0)) (if (> x 3.0) x (loop (+ x 1.0))))"))
                .isEqualTo("0.0 :> x begin @x 3.0 > if false else true then while @x 1.0 + :> x repeat @x");
        assertThat(ir("(let loop ((i 0) (done false)) (if done i (loop (+ i 1) (> i 2))))"))
                .isEqualTo("0 false :> done :> i begin @done if false else true then while @i 1 + @i 2 > :> done :> i repeat @i");
        // A comparison the program defines itself is not the vocabulary's: negated as any other test.
        assertThat(ir("(define (< a b) (> a b)) (let loop ((i 0)) (if (< i 3) i (loop (+ i 1))))"))
                .contains("begin @i 3 < if false else true then while");
        // Any other shape: a flag says whether to go round again, and the result is kept as an option until the loop ends.
        assertThat(ir("(let loop ((i 0)) (if (>= i 3) (loop 0) (if (= i 7) i (loop (+ i 1)))))")).isEqualTo(
                "0 :> i true :> again none :> result begin @again while @i 3 >= if 0 :> i else @i 7 = if @i some :> result false :> again "
                        + "else @i 1 + :> i then then repeat @result unwrap");
        assertThat(ir("(let loop ((i 0)) (if (< i 3) (loop (+ i 1)) (if (= i 7) (loop 0) i)))")).startsWith("0 :> i true :> again none :> result");
        assertThat(fails("(let loop ((i 0)) (+ 1 (loop i)))").code()).isEqualTo("E-LISP-108");
        assertThat(fails("(let loop ((i 0)) (let ((f (lambda () (loop 1)))) 0))").code()).isEqualTo("E-LISP-108");
        assertThat(fails("(let loop ((i 0)) loop)").code()).isEqualTo("E-LISP-108");
        assertThat(fails("(let loop ((i 0)) (loop 1 2))").code()).isEqualTo("E-TYPE-002");
        assertThat(fails("(let loop ((i 0)) (loop \"x\"))").code()).isEqualTo("E-TYPE-001");
    }

    @Test
    void namesStaySpellableInCoForth() {
        assertThat(ir("(let ((then 1) (x: 2)) (+ then x:))")).isEqualTo("1 :> local 2 :> local-2 @local @local-2 +");
        assertThat(fails("(define (then x) x)").code()).isEqualTo("E-LISP-101");
        assertThat(fails("(define 12x 1)".replace("12x", "-5")).code()).isEqualTo("E-LISP-101");
    }
}
