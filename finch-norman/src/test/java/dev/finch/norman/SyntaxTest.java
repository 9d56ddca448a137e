package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SyntaxTest {
    private static final String EVERY_FORM = String.join("\n",
            "(grant claude (model [in 3] [out 15] [ceiling 8000]))",
            "(grant py (kernel [exec (Text 4000)] [count Num]))",
            "(datatype Verdict [Buy (reason (Text 400))] [Sell (reason (Text 400))])",
            "(record Box (items (List Num 3)) (label Text))",
            "(val pi 3.14)",
            "(define ask-v () (ask claude Verdict (list (Message [role User] [content \"FY2025 10-K\"])) 'analyst))",
            "(define counted () (call py count \"wc -l\"))",
            "(define all (x) (let* ([a (and #t #f)] [b (or #t #f)]) (begin (if a 1 2) (. (Box [label \"l\"] [items '()]) label))))",
            "(define flow () (workflow ([a 1] [b (+ a 1)]) (par a b)))",
            "(define spend () (budget ([cost $0.50] [time 40s]) (catch (fail 'nope) e (case e [(Raised r) r] [_ 'other]))))",
            "(define lists (xs) (case xs ['() (cons 1 '())] [(cons h t) (list h h)]))",
            "(define times () (list 40s 1min 2ms 1h ∞))",
            "(script flaky [analyst (provider-error \"503\") (latency 1s) (reply \"{}\") (out 12)] [py/count (result \"7\")])",
            "(under ([script flaky] [cost $1.00] [time 1min])",
            "  (check-fail (ask-v) (ToolError _))",
            "  (check-within (ask-v) ([cost $0.01] [time 3s])))",
            "(check-expect (lists '()) (list 1))",
            "(check-assert (= \"a\\\"b\\\\c\\n\" \"a\\\"b\\\\c\\n\"))",
            "(check-error (+ 1 #t))",
            "(check-equiv (spend) (spend) 'value)");

    @Test
    void everyFormReadsChecksAndTypes() {
        NormanProgram p = Support.check(EVERY_FORM);
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("spend", "(-> Sym ! Failure)").containsEntry("counted", "(-> Num ! Failure)")
                .containsEntry("flow", "(-> (Pair Num Num))");
        assertThat(p.tests()).extracting(UnitTest::kind).containsExactly(Ast.TestKind.CHECK_FAIL, Ast.TestKind.CHECK_WITHIN,
                Ast.TestKind.CHECK_EXPECT, Ast.TestKind.CHECK_ASSERT, Ast.TestKind.CHECK_ERROR, Ast.TestKind.CHECK_EQUIV);
        assertThat(p.tests().get(0).script()).contains("flaky");
        assertThat(p.tests().get(0).origin().line()).isEqualTo(15);
        assertThat(p.tests().get(5).grade()).contains("value");
    }

    @Test
    void literalsAreExact() {
        NormanProgram p = Support.check("(val a $0.50)\n(val b 40s)\n(val c 1min)\n(val d 2ms)\n(val e 1h)\n(val f \"x\\\"\\\\\\n\")\n(val g 'sym)\n(val h -2.5)");
        assertThat(p.diagnostics()).isEmpty();
        List<Ast.Exp> values = p.definitions().stream().map(d -> ((Ast.Val) d).value()).toList();
        assertThat(((Ast.Money) values.get(0)).micros()).isEqualTo(500_000);
        assertThat(((Ast.Duration) values.get(1)).millis()).isEqualTo(40_000);
        assertThat(((Ast.Duration) values.get(2)).millis()).isEqualTo(60_000);
        assertThat(((Ast.Duration) values.get(3)).millis()).isEqualTo(2);
        assertThat(((Ast.Duration) values.get(4)).millis()).isEqualTo(3_600_000);
        assertThat(((Ast.Text) values.get(5)).value()).isEqualTo("x\"\\\n");
        assertThat(((Ast.Sym) values.get(6)).name()).isEqualTo("sym");
        assertThat(((Ast.Num) values.get(7)).value()).isEqualTo(-2.5);
        assertThat(p.types()).containsEntry("a", "Money").containsEntry("b", "Duration");
    }

    @Test
    void sugarIsTranslated() {
        NormanProgram p = Support.check("(val a (and #t #f))\n(val b (begin))\n(val c (par 1 \"x\"))\n(define d () (fail 'boom))\n(val e [begin 1 2])");
        assertThat(p.diagnostics()).isEmpty();
        Ast.If and = (Ast.If) ((Ast.Val) p.definitions().get(0)).value();
        assertThat(((Ast.Bool) and.otherwise()).value()).isFalse();
        assertThat(((Ast.Bool) ((Ast.Val) p.definitions().get(1)).value()).value()).isFalse();
        Ast.Workflow par = (Ast.Workflow) ((Ast.Val) p.definitions().get(2)).value();
        assertThat(par.steps()).hasSize(2);
        assertThat(((Ast.RecordNew) par.body()).record()).isEqualTo("Pair");
        Ast.Fail fail = (Ast.Fail) ((Ast.Define) p.definitions().get(3)).body();
        assertThat(((Ast.Construct) fail.failure()).constructor()).isEqualTo("Raised");
        Ast.LetStar begin = (Ast.LetStar) ((Ast.Val) p.definitions().get(4)).value();
        assertThat(begin.bindings()).extracting(Ast.Binding::name).containsExactly("_");
        assertThat(p.types()).containsEntry("c", "(Pair Num Text)");
    }

    @Test
    void workflowStepsAreOrderedByDependency() {
        NormanProgram p = Support.check("(val w (workflow ([b (+ a 1)] [a 1]) b))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(((Ast.Workflow) ((Ast.Val) p.definitions().get(0)).value()).steps()).extracting(Ast.Binding::name).containsExactly("a", "b");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "check 1: formals distinct        | (define f (x x) x)                                  | E-NORMAN-005 | 1 | 14",
        "check 1: constructors distinct   | (datatype A [X] [X])                                | E-NORMAN-005 | 1 | 17",
        "check 1: record fields distinct  | (record R (a Num) (a Text))                         | E-NORMAN-005 | 1 | 19",
        "check 2: workflow names distinct | (val w (workflow ([a 1] [a 2]) a))                  | E-NORMAN-006 | 1 | 25",
        "check 3: workflow acyclic        | (val w (workflow ([a b] [b a]) a))                  | E-NORMAN-007 | 1 | 19",
        "check 4: flat patterns           | (define f (o) (case o [(Some (Some x)) x] [_ 0]))   | E-NORMAN-008 | 1 | 30",
        "check 4: no repeated variable    | (define f (p) (case p [(Pair) 1]))                  | E-NORMAN-015 | 1 | 24",
        "check 5: if has three parts      | (val x (if #t 1))                                   | E-NORMAN-004 | 1 | 8",
        "check 5: lambda has two parts    | (val f (lambda (x)))                                | E-NORMAN-004 | 1 | 8",
        "check 5: constructor arity       | (val s (Some 1 2))                                  | E-NORMAN-004 | 1 | 8",
        "check 5: pattern arity           | (define f (o) (case o [(Some) 1]))                  | E-NORMAN-004 | 1 | 24",
        "reserved word as a name          | (define if (x) x)                                   | E-NORMAN-010 | 1 | 9",
        "reserved word as a formal        | (define f (case) 1)                                 | E-NORMAN-010 | 1 | 12",
        "constructor of the basis reused  | (datatype M [Some])                                 | E-NORMAN-011 | 1 | 14",
        "record built without a field     | (val m (Message [role User]))                       | E-NORMAN-014 | 1 | 8",
        "unknown type                     | (record R (a Nope))                                 | E-NORMAN-016 | 1 | 14",
        "bad escape                       | (val s \"a\\q\")                                     | E-NORMAN-001 | 1 | 8",
        "unclosed bracket                 | (define f (x) x                                     | E-NORMAN-002 | 1 | 1",
        "mismatched bracket               | (val x [+ 1 2))                                     | E-NORMAN-002 | 1 | 14",
        "bad literal                      | (val x 12abc)                                       | E-NORMAN-013 | 1 | 8",
    })
    void syntacticChecksAreParseDiagnosticsWithOrigins(String what, String text, String code, int line, int column) {
        NormanProgram p = Support.check(text.strip());
        assertThat(p.diagnostics()).as(what).isNotEmpty();
        Diagnostic d = p.diagnostics().get(0);
        assertThat(d.code()).as(what + ": " + d).isEqualTo(code);
        assertThat(d.phase().spelling()).isEqualTo("parse");
        assertThat(d.origin().source()).isEqualTo("t.nm");
        assertThat(d.origin().line()).as(what + ": " + d).isEqualTo(line);
        assertThat(d.origin().column()).as(what + ": " + d).isEqualTo(column);
    }

    @Test
    void repeatedPatternVariableIsRefused() {
        NormanProgram p = Support.check("(define f (p) (case p [(Pair) 1]))\n(datatype Two [T (a Num) (b Num)])\n(define g (t) (case t [(T x x) x]))");
        assertThat(p.diagnostics()).extracting(Diagnostic::code).contains("E-NORMAN-009");
        Diagnostic d = p.diagnostics().stream().filter(x -> x.code().equals("E-NORMAN-009")).findFirst().orElseThrow();
        assertThat(d.origin().line()).isEqualTo(3);
        assertThat(d.origin().column()).isEqualTo(29);
    }

    @Test
    void duplicateConstructorsAcrossDatatypesAreRefused() {
        NormanProgram p = Support.check("(datatype A [X])\n(datatype B [Y] [X])");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-011");
            assertThat(d.origin().line()).isEqualTo(2);
            assertThat(d.origin().column()).isEqualTo(18);
        });
    }

    @Test
    void costAndTimeAreNotReserved() {
        NormanProgram p = Support.check("(define c (r) (. r cost))\n(val cost 1)\n(val time (+ cost 1))");
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("c", "((Resources 'a 'b) -> 'a)");
    }
}
