package dev.finch.lisp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.instr.Instr;
import dev.finch.ir.instr.Module;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 (items 1 and 7) for the Lisp frontend: inputs built to exhaust a phase end in their limit's diagnostic,
 * without recursing past the nesting limit. Each test runs on a thread of its own with the JVM's default stack, under a
 * hang guard of a minute ({@code @Timeout}); the limit's diagnostic is what bounds the work, not a clock. A large but
 * legal input asserts no time (that is finch-bench's job), only that it ends, and without a stack overflow.
 */
@org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class HostileInputTest {

    private static Lowering lower(String text, CompileLimits limits) {
        return new Lisp().lower(text, "hostile.lisp", Support.EMPTY.withBudget(CompileBudget.of(limits, Long.MAX_VALUE, () -> false)));
    }

    private static Diagnostic refused(String text) { return refused(text, CompileLimits.DEFAULT); }

    private static Diagnostic refused(String text, CompileLimits limits) {
        Lowering l = lower(text, limits);
        assertThat(l.module()).as("lowering of a hostile input").isEmpty();
        assertThat(l.diagnostics()).isNotEmpty();
        for (Diagnostic d : l.diagnostics()) {
            assertThat(d.message().length()).as("a bounded message").isLessThanOrEqualTo(Lisp.MAX_MESSAGE_CHARS);
            assertThat(d.code()).isNotEqualTo(LispCode.INTERNAL.code());
        }
        return l.diagnostics().get(l.diagnostics().size() - 1);
    }

    private static Module lowers(String text) {
        Lowering l = lower(text, CompileLimits.DEFAULT);
        assertThat(l.diagnostics()).isEmpty();
        return l.module().orElseThrow();
    }

    private static String times(int n, IntFunction<String> part) {
        return IntStream.range(0, n).mapToObj(part).collect(Collectors.joining(" "));
    }

    // ---------------------------------------------------------------- reader

    @Test void aMillionDeepNestingIsRefusedWithoutRecursing() {
        Diagnostic d = refused("(".repeat(1_000_000) + "1" + ")".repeat(1_000_000));
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase()).isEqualTo(Phase.PARSE);
        assertThat(d.origin().column()).as("the first delimiter past the limit").isEqualTo(257);
        assertThat(refused("(".repeat(1_000_000)).code()).as("unclosed as well").isEqualTo("E-LIMIT-012");
    }

    @Test void quotesAndBracesGluedToSymbolsNestToo() {
        assertThat(refused("'".repeat(1_000_000) + "x").code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(list " + "'(".repeat(200) + "1" + ")".repeat(200) + ")").code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(f x" + "{".repeat(100_000) + "}".repeat(100_000) + ")").code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(list " + "(list ".repeat(10_000) + "1" + ")".repeat(10_001)).code()).isEqualTo("E-LIMIT-012");
    }

    @Test void nestingUpToTheLimitIsRead() {
        int limit = CompileLimits.DEFAULT.maxNesting();
        assertThat(lowers("(list ".repeat(limit) + "1" + ")".repeat(limit)).main().instrs()).hasSize(1);
        assertThat(refused("(list ".repeat(limit + 1) + "1" + ")".repeat(limit + 1)).code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(list (list 1))", CompileLimits.DEFAULT.withMaxNesting(1)).code()).as("a lower limit is the embedder's").isEqualTo("E-LIMIT-012");
    }

    @Test void tokensAreCountedAsTheyAreRead() {
        Diagnostic d = refused("(list" + " 1".repeat(300_000) + ")");
        assertThat(d.code()).isEqualTo("E-LIMIT-011");
        assertThat(d.phase()).isEqualTo(Phase.PARSE);
        assertThat(refused("(+ 1 2)", CompileLimits.DEFAULT.withMaxTokens(4)).code()).isEqualTo("E-LIMIT-011");
        lowers("(+ 1 2)");
    }

    @Test void hugeLiteralsAndNamesHaveTheirOwnDiagnostics() {
        Diagnostic unknown = refused("(say " + "x".repeat(1_000_000) + ")");
        assertThat(unknown.code()).isEqualTo("E-LISP-102");
        assertThat(unknown.message()).contains("(1000000 characters)");
        Diagnostic number = refused("(+ 1 " + "9".repeat(1_000_000) + ")");
        assertThat(number.code()).isEqualTo("E-LISP-006");
        Module big = lowers("(string-length \"" + "x".repeat(1_000_000) + "\")");
        assertThat(big.main().instrs()).hasSize(2);
        lowers("(define " + "k".repeat(100_000) + " 1)");
    }

    @Test void aFunctionWhoseSignatureFailedCanStillBeUsed() {
        Lowering l = lower("(define (f [x : list<]) 1)\n(f 1)\n(define (g) (f 1 2))", CompileLimits.DEFAULT);
        assertThat(l.diagnostics()).extracting(Diagnostic::code).containsExactly("E-LISP-106", "E-TYPE-002");
    }

    // ---------------------------------------------------------------- macros

    @Test void aMacroThatDoublesItsArgumentsIsStoppedByItsOutput() {
        Diagnostic d = refused("(define-syntax m (syntax-rules () ((_ x ...) (m x ... x ...))))\n(m 1)");
        assertThat(d.code()).isEqualTo("E-LIMIT-013");
        assertThat(d.phase()).isEqualTo(Phase.EXPAND);
        assertThat(d.origin().line()).isEqualTo(2);
    }

    @Test void aMacroThatSharesItsGrowthIsChargedForEveryCopy() {
        // Each step doubles the datum while sharing its halves: small in memory, exponential as a tree.
        Diagnostic d = refused("(define-syntax m (syntax-rules () ((_ x) (m (x x)))))\n(m 1)");
        assertThat(d.code()).isEqualTo("E-LIMIT-013");
        Diagnostic fanout = refused("(define-syntax m (syntax-rules () ((_ a) (list (m (a a)) (m (a a))))))\n(m 1)");
        assertThat(fanout.code()).isIn("E-LIMIT-013", "E-EXPAND-003");
    }

    @Test void whatAMacroBuildsNestsNoDeeperThanTheSource() {
        String deepTemplate = "(list ".repeat(200) + "x" + ")".repeat(200);
        String deepArgument = "(list ".repeat(100) + "1" + ")".repeat(100);
        Diagnostic d = refused("(define-syntax wrap (syntax-rules () ((_ x) " + deepTemplate + ")))\n(wrap " + deepArgument + ")");
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase()).isEqualTo(Phase.EXPAND);
        Diagnostic quoted = refused("(define-syntax wrap (syntax-rules () ((_ x) (quote " + deepTemplate.replace("list ", "") + "))))\n(wrap "
                + deepArgument.replace("list ", "") + ")");
        assertThat(quoted.code()).isEqualTo("E-LIMIT-012");
    }

    @Test void matchingIsChargedAsWork() {
        String rules = times(2_000, i -> "((_ " + i + ") " + i + ")");
        Diagnostic d = refused("(define-syntax m (syntax-rules () " + rules + "))\n(list " + times(2_000, i -> "(m 1999)") + ")",
                CompileLimits.DEFAULT.withMaxWork(100_000));
        assertThat(d.code()).isEqualTo("E-LIMIT-015");
        assertThat(d.phase()).isEqualTo(Phase.EXPAND);
    }

    // ---------------------------------------------------------------- inference

    @Test void letPolymorphicDoublingStopsAtTheTypeSizeLimit() {
        StringBuilder b = new StringBuilder("(define (f0 x) { :a x :b x })\n");
        for (int i = 1; i <= 30; i++) b.append("(define (f").append(i).append(" x) (f").append(i - 1).append(" (f").append(i - 1).append(" x)))\n");
        Diagnostic d = refused(b.append("(f30 1)").toString());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase()).isEqualTo(Phase.VERIFY);
        assertThat(d.origin().line()).as("the first definition whose type is too large").isEqualTo(5);
    }

    @Test void doublingTheDepthOfATypeStopsAtTheNestingLimit() {
        StringBuilder b = new StringBuilder("(define (f0 x) (list x x))\n");
        for (int i = 1; i <= 30; i++) b.append("(define (f").append(i).append(" x) (f").append(i - 1).append(" (f").append(i - 1).append(" x)))\n");
        Diagnostic d = refused(b.append("(f30 1)").toString());
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase()).isEqualTo(Phase.VERIFY);
    }

    @Test void typesThatDoubleInsideOneBodyAreBoundedToo() {
        StringBuilder b = new StringBuilder("(let* ((a0 { :a 1 :b 1 })");
        for (int i = 1; i <= 60; i++) b.append(" (a").append(i).append(" { :a a").append(i - 1).append(" :b a").append(i - 1).append(" })");
        assertThat(refused(b.append(") 1)").toString()).code()).isEqualTo("E-LIMIT-014");
        StringBuilder inner = new StringBuilder("(define (g x) (define (f0 y) { :a y :b y })");
        for (int i = 1; i <= 30; i++) inner.append(" (define (f").append(i).append(" y) (f").append(i - 1).append(" (f").append(i - 1).append(" y)))");
        assertThat(refused(inner.append(" (f30 x)) (g 1)").toString()).code()).as("inner defines are monomorphic").isEqualTo("E-TYPE-003");
    }

    @Test void inferenceWorkIsChargedAndPollsTheDeadline() {
        String program = "(define (f0 x) { :a x :b x }) (define (f1 x) (f0 (f0 x))) (define (f2 x) (f1 (f1 x)))\n(list " + times(5_000, i -> "(f2 " + i + ")") + ")";
        lowers(program);
        Diagnostic work = refused(program, CompileLimits.DEFAULT.withMaxWork(50_000));
        assertThat(work.code()).isEqualTo("E-LIMIT-015");
        Lowering late = new Lisp().lower(program, "late.lisp",
                Support.EMPTY.withBudget(CompileBudget.of(CompileLimits.DEFAULT, System.nanoTime() - 1, () -> false)));
        assertThat(late.diagnostics()).extracting(Diagnostic::code).containsExactly("E-LIMIT-016");
        Lowering cancelled = new Lisp().lower(program, "cancel.lisp", Support.EMPTY.withBudget(CompileBudget.of(CompileLimits.DEFAULT, Long.MAX_VALUE, () -> true)));
        assertThat(cancelled.diagnostics()).extracting(Diagnostic::code).containsExactly("E-LIMIT-017");
    }

    @Test void aWrittenTypeIsMeasuredBeforeItIsParsed() {
        Diagnostic d = refused("(define (f [x : " + "list<".repeat(100_000) + "int" + ">".repeat(100_000) + "]) 1)");
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase()).isEqualTo(Phase.LOWER);
    }

    // ---------------------------------------------------------------- lowering

    @Test void longFlatFormsLowerFlat() {
        Module plus = lowers("(+" + " 1".repeat(50_000) + ")");
        assertThat(plus.main().instrs()).hasSize(2 * 50_000 - 1);
        Module and = lowers("(and" + " (< 1 2)".repeat(30_000) + ")");
        assertThat(and.main().instrs()).as("a chain of ifs side by side, none inside another")
                .noneMatch(i -> i instanceof Instr.If f && (f.then().instrs().stream().anyMatch(Instr.If.class::isInstance)
                        || f.otherwise().instrs().stream().anyMatch(Instr.If.class::isInstance)));
        lowers("(or" + " (< 1 2)".repeat(30_000) + ")");
        lowers("(list" + " 1".repeat(100_000) + ")");
        lowers("(define (g) " + " (lambda (x) x)".repeat(30_000) + " 1)");
    }

    @Test void manyClassesAndArmsStayLinear() {
        // Every lambda's effect class merges with the list's element type: a long chain of merges.
        lowers("(list" + " (lambda (x) (+ x 1))".repeat(20_000) + ")");
        lowers("(define (f x) (match x " + times(40_000, i -> "(" + i + " " + i + ")") + " (_ 0)))");
    }

    @Test void macroOutputUpToTheNestingLimitIsLowered() {
        int limit = CompileLimits.DEFAULT.maxNesting();
        lowers("(define-syntax id (syntax-rules () ((_ x) x)))\n(id " + "(list ".repeat(limit - 1) + "1" + ")".repeat(limit - 1) + ")");
    }

    @Test void aLongDefinitionChainIsOrderedWithoutRecursion() {
        StringBuilder b = new StringBuilder();
        for (int i = 19_999; i >= 1; i--) b.append("(define (f").append(i).append(" x) (f").append(i - 1).append(" x))\n");
        b.append("(define (f0 x) (+ x 1))\n(f19999 1)");
        assertThat(lowers(b.toString()).words()).hasSize(20_000);
    }

    @Test void formsThatNestOneBlockPerClauseAreBoundedByTheNestingLimit() {
        Diagnostic cond = refused("(define (f x) (cond " + times(300, i -> "((= x " + i + ") " + i + ")") + " (else 0)))");
        assertThat(cond.code()).isEqualTo("E-LIMIT-012");
        assertThat(cond.phase()).isEqualTo(Phase.LOWER);
        lowers("(define (f x) (cond " + times(200, i -> "((= x " + i + ") " + i + ")") + " (else 0)))");
        String tags = IntStream.range(0, 300).mapToObj(i -> "t" + i).collect(Collectors.joining("|"));
        Diagnostic match = refused("(define (f [v : variant{" + tags + "}]) (match v " + times(300, i -> "((t" + i + ") " + i + ")") + "))");
        assertThat(match.code()).isEqualTo("E-LIMIT-012");
        String nested = "(if (< 1 2) ".repeat(100) + "(cond " + times(200, i -> "((< " + i + " 1) " + i + ")") + " (else 0))" + " 0)".repeat(100);
        assertThat(refused(nested).code()).as("blocks nest across forms").isEqualTo("E-LIMIT-012");
    }

    @Test void manyPendingOverloadsResolveInLinearRounds() {
        lowers("(define (f a b) " + " (+ a b)".repeat(40_000) + ")");
    }
}
