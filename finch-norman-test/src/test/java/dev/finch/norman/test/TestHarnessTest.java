package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.SourceLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TestHarnessTest {
    private static TestHarness harness;

    @BeforeAll static void start() { harness = new TestHarness(SourceLoader.inMemory(Map.of("lib/util.nm", "(define twice (x) (* 2 x))"))); }

    @AfterAll static void stop() { harness.close(); }

    private static FileReport run(String text) { return harness.runAll(text, "t.nm"); }

    private static String resource(String name) {
        try (InputStream in = TestHarnessTest.class.getResourceAsStream("/dev/finch/norman/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> messages(FileReport r) { return r.results().stream().map(t -> t.name() + ": " + t.message()).toList(); }

    @Test void theConformanceBasicsPass() {
        FileReport r = harness.runAll(resource("norman-basics.nm"), "norman-basics.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(messages(r)).hasSize(4);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        assertThat(r.results().get(0).name()).isEqualTo("norman-basics.nm:3:1 check-expect");
    }

    @Test void aFailingCheckSaysExpectedAndFoundWithShow() {
        FileReport r = harness.runAll(resource("norman-failing-check.nm"), "norman-failing-check.nm");
        assertThat(r.passed()).isZero();
        assertThat(r.results()).singleElement().satisfies(t -> {
            assertThat(t.passed()).isFalse();
            assertThat(t.message()).isEqualTo("expected 7 but found 6");
        });
    }

    @Test void checkExpectComparesStructuredValuesAndFailures() {
        FileReport r = run("""
                (record Point (x Num) (y Num))
                (datatype Shape [Dot] [Circle (r Num)])
                (check-expect (Point [y 2] [x 1]) (Point [x 1] [y 2]))
                (check-expect (list (Circle 1) Dot) (list (Circle 1) Dot))
                (check-expect (Circle 1) (Circle 2))
                (check-expect (fail 'x) (fail 'x))
                (check-expect (fail 'x) 1)
                """);
        assertThat(r.results()).extracting(TestResult::passed).containsExactly(true, true, false, true, false);
        assertThat(r.results().get(2).message()).isEqualTo("expected {\"r\":2,\"tag\":\"Circle\"} but found {\"r\":1,\"tag\":\"Circle\"}");
        assertThat(r.results().get(4).message()).isEqualTo("expected 1 but found failure {\"reason\":\"x\",\"tag\":\"Raised\"}");
    }

    @Test void checkAssertFailAndError() {
        FileReport r = run("""
                (define head (xs) (case xs [(cons h _) h]))
                (check-assert (< 1 2))
                (check-assert (> 1 2))
                (check-fail (fail 'nope) (Raised _))
                (check-fail (fail 'nope) OverBudget)
                (check-fail 3 _)
                (check-error (head '()))
                (check-error (fail 'x))
                (check-error (+ 1 "a"))
                (check-error 1)
                """);
        assertThat(messages(r)).hasSize(9);
        assertThat(r.results()).extracting(TestResult::passed).containsExactly(true, false, true, false, false, true, false, true, false);
        assertThat(r.results().get(1).message()).isEqualTo("expected true but found false");
        assertThat(r.results().get(3).message()).isEqualTo("expected a failure matching OverBudget but found failure {\"reason\":\"nope\",\"tag\":\"Raised\"}");
        assertThat(r.results().get(4).message()).isEqualTo("expected a failure matching _ but found the value 3");
        assertThat(r.results().get(6).message()).contains("a failure is a value, not an error");
        assertThat(r.results().get(8).message()).isEqualTo("expected a checked run-time error but found the value 1");
    }

    @Test void checkEquivAtGradeValueAndCheckWithinWithoutSpending() {
        FileReport r = run("""
                (check-equiv (+ 1 2) 3 'value)
                (check-equiv (+ 1 2) 4 'value)
                (check-equiv 1 1 'exact)
                (check-within 1 ([cost $0.01]))
                """);
        // without asks or calls, equal results are equal worlds (the grades are tested in WorkflowAndTraceTest)
        assertThat(r.results()).extracting(TestResult::passed).containsExactly(true, false, true, true);
        assertThat(r.results().get(1).message()).isEqualTo("the sides differ at grade 'value: the first gives 3, the second 4");
    }

    @Test void testsSeeTheWholeFileInAnyOrderAndUsedFiles() {
        FileReport r = run("""
                (check-expect (quad 3) 12)
                (use "lib/util.nm")
                (define quad (x) (twice (twice x)))
                (val base 10)
                (check-expect (+ base 1) 11)
                """);
        assertThat(r.failed()).as("%s %s", messages(r), r.diagnostics()).isZero();
        assertThat(r.passed()).isEqualTo(2);
    }

    @Test void aFailingValBindsNothingIsReportedAndReadingItIsACheckedError() {
        FileReport r = run("""
                (val bad (fail 'broken))
                (val good (catch bad e 1))
                (define use-bad () (+ bad 1))
                (check-error (use-bad))
                (check-error bad)
                """);
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.valFailures()).containsExactly("t.nm:1:1: val bad failed, so it is not bound: {\"reason\":\"broken\",\"tag\":\"Raised\"}");
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void aFileThatDoesNotLoadHasDiagnosticsAndNoTests() {
        FileReport r = run("(check-expect (+ 1 \"a\") 2)\n(define f (x) (+ x \"s\"))");
        assertThat(r.loaded()).isFalse();
        assertThat(r.diagnostics()).first().satisfies(d -> assertThat(d.code()).startsWith("E-NORMAN-1"));
        assertThat(r.results()).isEmpty();
        FileReport top = run("(fail 'at-the-top)\n(check-assert #t)");
        assertThat(top.loaded()).isFalse();
        assertThat(top.diagnostics()).first().satisfies(d -> assertThat(d.code()).isEqualTo("E-RUN-006"));
    }

    @Test void theSessionLoweringBindsFailingValsAsConstantsFunctionsCanRead() {
        // Norman.lower (what a session runs) verifies and runs: the failing val is reported with say, `ok` (a
        // vocabulary name, so its word is renamed) is bound, and a function reading the failing val compiles (it is a
        // checked error only when called).
        String text = "(val bad (fail 'broken))\n(define use-bad () (+ bad 1))\n(val ok (catch (fail 'x) e 7))\n(+ ok 1)";
        var lowering = new dev.finch.norman.Norman(SourceLoader.inMemory(Map.of())).lower(text, "s.nm", dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(lowering.diagnostics()).isEmpty();
        var v = dev.finch.verifier.Verifier.verify(lowering.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        try (dev.finch.vm.engine.Vm vm = new dev.finch.vm.engine.Vm()) {
            var r = vm.run("x", v.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY, TestHarness.LIMITS, dev.finch.vm.OutputSink.NONE,
                    new dev.finch.vm.engine.CancelToken());
            assertThat(r).as("%s", r).isInstanceOf(dev.finch.vm.engine.RunResult.Completed.class);
            assertThat(r.output()).isEqualTo("s.nm:1:1: val bad failed, so it is not bound: {\"reason\":\"broken\",\"tag\":\"Raised\"}\n");
            var c = (dev.finch.vm.engine.RunResult.Completed) r;
            assertThat(c.state().stack()).singleElement().satisfies(t -> assertThat(t.value()).isEqualTo(8.0));
            assertThat(c.state().words()).containsKey("use-bad");
        }
    }

    @Test void failuresPropagateOutOfLambdasLeftToRight() {
        // A lambda that may fail is a closure answering result<T,Failure>; ? inside it returns from the closure.
        FileReport r = run("""
                (define check-pos (x) (if (< x 0) (fail 'negative) x))
                (define apply-all (f xs) (case xs ['() '()] [(cons h t) (cons (f h) (apply-all f t))]))
                (check-expect (apply-all (lambda (x) (check-pos (* 2 x))) (list 1 2)) (list 2 4))
                (check-fail (apply-all (lambda (x) (check-pos x)) (list 1 -1 2)) (Raised _))
                (check-expect (catch (apply-all check-pos (list -5)) e (list 0)) (list 0))
                """);
        assertThat(r.failed()).as("%s %s", messages(r), r.diagnostics()).isZero();
        assertThat(r.passed()).isEqualTo(3);
    }

    @Test void eachTestRunsInAFreshWorld() {
        Loaded l = harness.load("(define f () 1)\n(check-expect (f) 1)\n(check-expect (f) 1)", "t.nm");
        assertThat(l.ok()).isTrue();
        assertThat(l.size()).isEqualTo(2);
        // Running one test twice, or in any order, gives the same result: nothing carries over.
        assertThat(l.run(1).passed()).isTrue();
        assertThat(l.run(0).passed()).isTrue();
        assertThat(l.run(1).passed()).isTrue();
    }
}
