package dev.finch.lisp;

import static dev.finch.lisp.Support.fails;
import static dev.finch.lisp.Support.ir;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Module;
import org.junit.jupiter.api.Test;

class MacroTest {
    @Test
    void syntaxRulesExpandsToOrdinaryForms() {
        assertThat(ir("(define-syntax my-unless (syntax-rules () ((_ c body ...) (if c (begin) (begin body ...)))))"
                + "(define-syntax twice (syntax-rules () ((_ e) (begin e e)))) (twice (say \"x\"))")).isEqualTo("\"x\" say \"x\" say");
    }

    @Test
    void ellipsisAndRecursiveMacros() {
        assertThat(ir("(define-syntax my-and (syntax-rules () ((_) true) ((_ e) e) ((_ e r ...) (if e (my-and r ...) false))))"
                + "(my-and true false true)")).isEqualTo("true if false if true else false then else false then");
    }

    @Test
    void templateBindersAreRenamedSoTheyCannotCapture() {
        assertThat(ir("(define-syntax swap! (syntax-rules () ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp)))))"
                + "(let ((tmp 1) (y 2)) (swap! tmp y) tmp)")).isEqualTo("1 :> tmp 2 :> y @tmp :> tmp-2 @y :> tmp @tmp-2 :> y @tmp");
    }

    @Test
    void literalsMatchExactly() {
        assertThat(ir("(define-syntax arrow (syntax-rules (=>) ((_ a => b) (+ a b)))) (arrow 1 => 2)")).isEqualTo("1 2 +");
        Diagnostic d = fails("(define-syntax arrow (syntax-rules (=>) ((_ a => b) (+ a b)))) (arrow 1 2 3)");
        assertThat(d.code()).isEqualTo("E-EXPAND-002");
        assertThat(d.phase()).isEqualTo(Phase.EXPAND);
    }

    @Test
    void depthLimit() {
        Diagnostic d = fails("(define-syntax forever (syntax-rules () ((_ x) (forever x))))\n(forever 1)");
        assertThat(d.code()).isEqualTo("E-EXPAND-004");
        assertThat(d.origin().line()).isEqualTo(2);
    }

    @Test
    void stepLimit() {
        Lowering l = new Lisp(5, 100).lower("(define-syntax one (syntax-rules () ((_) 1))) (list (one) (one) (one) (one) (one) (one))", "m", Support.EMPTY);
        assertThat(l.diagnostics()).extracting(Diagnostic::code).containsExactly("E-EXPAND-003");
        assertThat(new Lisp(6, 100).lower("(define-syntax one (syntax-rules () ((_) 1))) (list (one) (one) (one) (one) (one) (one))", "m", Support.EMPTY).ok()).isTrue();
    }

    @Test
    void originsThroughExpansion() {
        Module m = Support.ok("(define-syntax show (syntax-rules () ((_ e) (say (int-to-string e)))))\n(show\n  (+ 1 2))");
        // The argument keeps its own origin; template-introduced calls point at the macro use.
        assertThat(m.main().instrs().get(0).origin().line()).isEqualTo(3);
        assertThat(m.main().instrs().get(3).origin().line()).isEqualTo(2);
        Diagnostic d = fails("(define-syntax show (syntax-rules () ((_ e) (say (int-to-string e)))))\n(show \"x\")");
        assertThat(d.origin().line()).isEqualTo(2);
        assertThat(d.origin().column()).isEqualTo(7);
    }

    @Test
    void malformedDefinitions() {
        assertThat(fails("(define-syntax m 5)").code()).isEqualTo("E-EXPAND-001");
        assertThat(fails("(define-syntax m (syntax-rules () ((_ x) (list x ...)))) (m 1)").code()).isEqualTo("E-EXPAND-001");
        assertThat(fails("(let ((x 1)) (define-syntax m (syntax-rules () ((_) 1))))").code()).isEqualTo("E-EXPAND-001");
    }
}
