package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.limit.CompileLimits;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, items 1 and 7, for Lisp through the public API: each hostile program ends in its own diagnostic — the
 * limit that refused it, which is what bounds its cost (no wall time is asserted) — and the session still works
 * afterwards. The frontend's unit-level cases are in finch-lisp's {@code HostileInputTest}.
 */
class HostileLispTest {
    /** The defaults, but a source limit large enough for a 10^6-deep nesting and a 20 MB string literal. */
    private static final Finch FINCH = Finch.builder().timeout(dev.finch.HangGuard.LIMIT)
            .compileLimits(CompileLimits.DEFAULT.withMaxSourceChars(32 << 20)).build();

    @AfterAll static void close() { FINCH.close(); }

    /** Submits {@code program} to a fresh session, checks that the session still works afterwards, and returns the outcome. */
    private static Outcome submit(String program) {
        Session s = FINCH.newSession();
        Outcome o = s.submit(Submission.of(program, "hostile.lisp"));
        assertThat(s.submit(Submission.of("1 2 +", "after.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.submit(Submission.of("(+ 1 2)", "after.lisp")).status()).isEqualTo(Outcome.Status.COMPLETED);
        return o;
    }

    private static Diagnostic refused(String program) {
        Outcome o = submit(program);
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics()).isNotEmpty();
        Diagnostic d = o.diagnostics().get(o.diagnostics().size() - 1);
        assertThat(d.code()).doesNotStartWith("E-RUN-").doesNotStartWith("E-SESSION-").isNotEqualTo("E-LISP-110");
        return d;
    }


    private static String doubling(String base) {
        StringBuilder b = new StringBuilder("(define (f0 x) " + base + ")\n");
        for (int i = 1; i <= 30; i++) b.append("(define (f").append(i).append(" x) (f").append(i - 1).append(" (f").append(i - 1).append(" x)))\n");
        return b.append("(f30 1)").toString();
    }

    @Test void deepNestingIsRefusedInMilliseconds() {
        Diagnostic d = refused("(".repeat(1_000_000) + "1" + ")".repeat(1_000_000));
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("parse");
        assertThat(refused("(list ".repeat(10_000) + "1" + ")".repeat(10_000)).code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(list ".repeat(100_000) + "1" + ")".repeat(100_000)).code()).isEqualTo("E-LIMIT-012");
        assertThat(refused("(list " + "'".repeat(1_000_000) + "x)").code()).as("deep quotes").isEqualTo("E-LIMIT-012");
    }

    @Test void tooManyTokensAreRefusedWhileReading() {
        Diagnostic d = refused("(list" + " 1".repeat(300_000) + ")");
        assertThat(d.code()).isEqualTo("E-LIMIT-011");
        assertThat(d.phase().spelling()).isEqualTo("parse");
    }

    @Test void selfGrowingMacrosStopAtTheExpansionLimit() {
        Diagnostic d = refused("(define-syntax m (syntax-rules () ((_ x ...) (m x ... x ...))))\n(m 1)");
        assertThat(d.code()).isEqualTo("E-LIMIT-013");
        assertThat(d.phase().spelling()).isEqualTo("expand");
        assertThat(refused("(define-syntax m (syntax-rules () ((_ x) (m (x x)))))\n(m 1)").code()).isEqualTo("E-LIMIT-013");
    }

    @Test void hindleyMilnersExponentialTypesStopAtTheirLimits() {
        Diagnostic size = refused(doubling("{ :a x :b x }"));
        assertThat(size.code()).isEqualTo("E-LIMIT-014");
        assertThat(size.phase().spelling()).isEqualTo("verify");
        assertThat(refused(doubling("(list x x)")).code()).as("a type doubling its depth").isEqualTo("E-LIMIT-012");
        StringBuilder inner = new StringBuilder("(define (g x) (define (f0 y) { :a y :b y })");
        for (int i = 1; i <= 30; i++) inner.append(" (define (f").append(i).append(" y) (f").append(i - 1).append(" (f").append(i - 1).append(" y)))");
        assertThat(refused(inner.append(" (f30 x)) (g 1)").toString()).code()).as("nested defines are monomorphic").isEqualTo("E-TYPE-003");
    }

    @Test void aFormThatWouldNestTooManyBlocksIsRefused() {
        String clauses = IntStream.range(0, 300).mapToObj(i -> "((= x " + i + ") " + i + ")").collect(Collectors.joining(" "));
        Diagnostic d = refused("(define (f x) (cond " + clauses + " (else 0)))");
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("lower");
    }

    @Test void oversizedNamesAndLiteralsHaveTheirOwnDiagnostics() {
        Diagnostic name = refused("(say " + "x".repeat(1_000_000) + ")");
        assertThat(name.code()).isEqualTo("E-LISP-102");
        assertThat(name.message().length()).isLessThan(200);
        Diagnostic number = refused("(+ 1 " + "9".repeat(1_000_000) + ")");
        assertThat(number.code()).isEqualTo("E-LISP-006");
        assertThat(number.message().length()).isLessThan(200);
        Outcome string = submit("(string-length \"" + "x".repeat(20_000_000) + "\")");
        assertThat(string.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(string.fields().stack().get(0).display()).isEqualTo("20000000");
    }

    @Test void compilingIsUnderTheRunsDeadline() {
        try (Finch hurried = Finch.builder().timeout(Duration.ofMillis(1)).build()) {
            Session s = hurried.newSession();
            Outcome o = s.submit(Submission.of("(list" + " (+ 1 2)".repeat(40_000) + ")", "late.lisp"));
            assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics().get(0).code()).isEqualTo("E-LIMIT-016");
        }
    }
}
