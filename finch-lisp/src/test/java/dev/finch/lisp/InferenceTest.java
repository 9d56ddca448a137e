package dev.finch.lisp;

import static dev.finch.lisp.Support.fails;
import static dev.finch.lisp.Support.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.instr.WordDef;
import org.junit.jupiter.api.Test;

/** Hindley–Milner inference: what it accepts, what it generalizes and defaults, and how it reports. */
class InferenceTest {
    private static String sig(Module m, String name) {
        WordDef w = m.words().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        return w.declared().orElseThrow().toString();
    }

    @Test
    void topLevelDefinitionsArePolymorphic() {
        Module m = ok("(define (id x) x) (define (k x y) x) (id 1) (id \"s\") (k 1 \"s\")");
        assertThat(sig(m, "id")).isEqualTo("a -> a");
        assertThat(sig(m, "k")).isEqualTo("a b -> a");
        assertThat(sig(ok("(define (twice f x) (f (f x)))"), "twice")).isEqualTo("(a -> a) a -> a");
        assertThat(sig(ok("(define (compose f g) (lambda (x) (f (g x))))"), "compose")).isEqualTo("(a -> b) (c -> a) -> (c -> b)");
    }

    @Test
    void polymorphicUseInsideAGroupMember() {
        Module m = ok("(define (id x) x) (define (both) (list (int-to-string (id 1)) (id \"s\")))");
        assertThat(sig(m, "both")).isEqualTo("-> list<string>");
    }

    @Test
    void overloadsResolveByArgumentTypesAndDefaultToInt() {
        assertThat(sig(ok("(define (sq n) (* n n))"), "sq")).isEqualTo("int -> int");
        assertThat(sig(ok("(define (sqf [n : float]) (* n n))"), "sqf")).isEqualTo("float -> float");
        assertThat(sig(ok("(define (half x) (/ x 2.0))"), "half")).isEqualTo("float -> float");
        assertThat(sig(ok("(define (less a b) (< a b)) (less 1 2)"), "less")).isEqualTo("int int -> bool");
        assertThat(fails("(define (less a b) (< a b)) (less \"a\" \"b\")").code())
                .as("overloads are resolved once per definition, not per use").isEqualTo("E-TYPE-001");
        assertThat(sig(ok("(define (lt [a : string] b) (< a b))"), "lt")).isEqualTo("string string -> bool");
    }

    @Test
    void annotationsConstrain() {
        assertThat(sig(ok("(define (f [xs : list<int>]) : int (list-length xs))"), "f")).isEqualTo("list<int> -> int");
        assertThat(sig(ok("(define (g [x : a]) : a x)"), "g")).isEqualTo("a -> a");
        assertThat(sig(ok("(define (h [f : (int -> string)]) (f 1))"), "h")).isEqualTo("(int -> string) -> string");
    }

    @Test
    void leftoverVariablesDefaultToUnitOutsideSignatures() {
        Module m = ok("(define n (none))");
        assertThat(((Instr.Constant) m.main().instrs().get(1)).declared().orElseThrow().toString()).isEqualTo("option<unit>");
        assertThat(IrDump.block(ok("(none)").main())).as("an option is a value: it stays on the stack").isEqualTo("none");
    }

    @Test
    void mismatchReportsExpectedAndFound() {
        Diagnostic d = fails("(string-length 5)");
        assertThat(d.phase()).isEqualTo(Phase.VERIFY);
        assertThat(d.code()).isEqualTo("E-TYPE-001");
        assertThat(d.expected()).isEqualTo("string");
        assertThat(d.found()).isEqualTo("int");
        assertThat(d.origin().column()).isEqualTo(16);
    }

    @Test
    void ifBranchesMustAgree() {
        Diagnostic d = fails("(if true 1 \"s\")");
        assertThat(d.code()).isEqualTo("E-TYPE-001");
        assertThat(d.expected()).isEqualTo("int");
        assertThat(d.found()).isEqualTo("string");
        assertThat(fails("(if 1 2 3)").expected()).isEqualTo("bool");
    }

    @Test
    void arityNoOverloadAndNotAFunction() {
        Diagnostic arity = fails("(define (f x) x) (f 1 2)");
        assertThat(arity.code()).isEqualTo("E-TYPE-002");
        assertThat(arity.expected()).isEqualTo("1");
        assertThat(arity.found()).isEqualTo("2");
        Diagnostic overload = fails("(+ 1 \"a\")");
        assertThat(overload.code()).isEqualTo("E-TYPE-004");
        assertThat(overload.found()).isEqualTo("int string");
        assertThat(fails("(5 1)").code()).isEqualTo("E-TYPE-008");
    }

    @Test
    void occursCheck() {
        assertThat(fails("(define (f x) (x x))").code()).isEqualTo("E-TYPE-003");
    }

    @Test
    void recordAndVariantErrors() {
        Diagnostic field = fails("(record-get { :a 1 } \"b\")");
        assertThat(field.code()).isEqualTo("E-TYPE-005");
        assertThat(field.found()).isEqualTo("record{a:int}");
        assertThat(fails("(define (f r) (record-get r \"a\"))").code()).isEqualTo("E-TYPE-007");
        assertThat(fails("(variant variant{none|some(int)} :other)").code()).isEqualTo("E-TYPE-006");
        assertThat(fails("(variant variant{none|some(int)} :some \"s\")").code()).isEqualTo("E-TYPE-001");
    }

    @Test
    void emptyLiteralsNeedATypes() {
        assertThat(fails("(list)").code()).isEqualTo("E-TYPE-009");
    }

    @Test
    void loweringErrors() {
        Diagnostic unknown = fails("(say (int-to-strin 5))");
        assertThat(unknown.code()).isEqualTo("E-LISP-102");
        assertThat(unknown.phase()).isEqualTo(Phase.LOWER);
        assertThat(unknown.message()).contains("did you mean `int-to-string`");
        assertThat(fails("(let ((n 1)) (lambda () (set! n 2)))").code()).isEqualTo("E-LISP-103");
        assertThat(fails("(define x 1) (set! x 2)").code()).isEqualTo("E-LISP-104");
        assertThat(fails("(define (f [x : int]) (try (ok x)))").code()).isEqualTo("E-LISP-105");
        // At the top level, try lowers to the Propagate Co-Forth's ? lowers to; the verifier rejects both alike.
        assertThat(Support.ok("(try (ok 1))").main().instrs()).last().isInstanceOf(dev.finch.ir.instr.Instr.Propagate.class);
        assertThat(fails("(define (f [x : list<]) x)").code()).isEqualTo("E-LISP-106");
        assertThat(fails("(dup 1)").code()).isEqualTo("E-LISP-107");
        assertThat(fails("(let loop ((i 0)) (+ 1 (loop i)))").code()).isEqualTo("E-LISP-108");
        assertThat(fails("(define x 1) (define x 2)").code()).isEqualTo("E-LISP-109");
        assertThat(fails("(if 1)").code()).isEqualTo("E-LISP-101");
    }

    @Test
    void severalIndependentErrorsAreAllReported() {
        var l = Support.lower("(define (f) (string-length 1)) (say 5)");
        assertThat(l.diagnostics()).hasSize(2);
    }

    @Test
    void setKeepsTheLocalType() {
        Diagnostic d = fails("(let ((x 1)) (set! x \"s\"))");
        assertThat(d.code()).isEqualTo("E-TYPE-001");
        assertThat(d.expected()).isEqualTo("int");
        assertThat(d.found()).isEqualTo("string");
    }
}
