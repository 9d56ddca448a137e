package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.limit.CompileLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14 (deliverables 1 and 7, reliability row 23) for µNorman, through a session: the compile-phase bombs and the
 * oversized literals of the attack each end in their own diagnostic within a generous time bound, and the session
 * answers the next submission. Before: 10^4-deep nesting did not answer in 20 s and deeper ones ended in
 * {@code StackOverflowError} (E-SESSION-006), the doubling chains never answered, and {@code $99999999999999999999999}
 * was E-SESSION-006 ({@code ArithmeticException}).
 */
class HostileNormanTest {
    private static final Finch FINCH = Finch.create();

    @BeforeAll
    static void warmUp() {
        // The first µNorman submission of a JVM loads the frontend's classes; the bounds below are about the bombs.
        assertThat(FINCH.newSession().submit(Submission.of("(+ 1 2)", "x.nm")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test
    void aMillionOpenBracketsAreRefusedInMilliseconds() {
        refused("(".repeat(1_000_000), "E-LIMIT-012", "parse", 2_000);
    }

    @Test
    void deepClosedNestingIsRefused() {
        refused("(+ 1 ".repeat(100_000) + "1" + ")".repeat(100_000), "E-LIMIT-012", "parse", 2_000);
    }

    @Test
    void aMillionQuotesAreRefused() {
        refused("'".repeat(1_000_000) + "x", "E-LIMIT-012", "parse", 2_000);
    }

    @Test
    void nestingExactlyToTheLimitRuns() {
        int n = CompileLimits.DEFAULT.maxNesting();
        Session s = FINCH.newSession();
        Outcome o = s.submit(Submission.of("(+ 1 ".repeat(n - 1) + "(+ 1 1)" + ")".repeat(n - 1), "deep.nm"));
        assertThat(o.diagnostics()).isEmpty();
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly(String.valueOf(n + 1.0));
        stillWorks(s);
    }

    @Test
    void aFloodOfTokensIsRefused() {
        refused("(list " + "1 ".repeat(300_000) + ")", "E-LIMIT-011", "parse", 2_000);
    }

    @Test
    void hindleyMilnerDoublingByDefinitionsStops() {
        StringBuilder b = new StringBuilder("(define f0 (x) (Pair [fst x] [snd x]))\n");
        for (int i = 1; i <= 30; i++) b.append("(define f").append(i).append(" (x) (f").append(i - 1).append(" (f").append(i - 1).append(" x)))\n");
        refused(b.append("(f30 1)").toString(), "E-LIMIT-014", "verify", 3_000);
    }

    @Test
    void hindleyMilnerDoublingByLetStops() {
        refused(letDoubling(30, "(lambda (x) (Pair [fst x] [snd x]))"), "E-LIMIT-014", "verify", 3_000);
    }

    @Test
    void letDoublingOfSmallTypesStopsWhileLowering() {
        refused(letDoubling(30, "(lambda (x) x)"), "E-LIMIT-015", "lower", 3_000);
    }

    @Test
    void recordsOfRecordsThatExpandExponentiallyStop() {
        StringBuilder b = new StringBuilder("(record A0 (x Num))\n");
        for (int i = 1; i <= 30; i++) b.append("(record A").append(i).append(" (a").append(i).append(" A").append(i - 1).append(") (b").append(i).append(" A").append(i - 1).append("))\n");
        refused(b.append("(define f (r) (. r a30))").toString(), "E-LIMIT-014", "lower", 3_000);
    }

    @Test
    void declarationsThatDoubleTheirParametersStop() {
        StringBuilder b = new StringBuilder("(record P0 (x Any))\n");
        for (int i = 1; i <= 40; i++) b.append("(record P").append(i).append(" (a").append(i).append(" P").append(i - 1).append(") (b").append(i).append(" P").append(i - 1).append("))\n");
        refused(b.toString(), "E-LIMIT-014", "verify", 3_000);
    }

    @Test
    void theRunsDeadlineCoversInference() {
        Finch slow = Finch.builder().timeout(Duration.ofMillis(500))
                .compileLimits(CompileLimits.DEFAULT.withMaxWork(Long.MAX_VALUE).withMaxTypeSize(Integer.MAX_VALUE)).build();
        Session s = slow.newSession();
        long t0 = System.nanoTime();
        Outcome o = s.submit(Submission.of(letDoubling(40, "(lambda (x) x)"), "bomb.nm"));
        assertThat(millisSince(t0)).isLessThan(3_000);
        assertThat(first(o).code()).isEqualTo("E-LIMIT-016");
        stillWorks(s);
    }

    @ParameterizedTest
    @ValueSource(strings = {"$99999999999999999999999", "99999999999999999999h", "99999999999999999999999999ms", "1e400",
            "(record R (t (Text 99999999999999999999)))"})
    void oversizedLiteralsAreDiagnosticsAtTheLiteral(String text) {
        refused(text, "E-NORMAN-013", "parse", 2_000);
    }

    @Test
    void aMegabyteMoneyLiteralIsADiagnostic() {
        refused("$" + "9".repeat(1_000_000), "E-NORMAN-013", "parse", 2_000);
    }

    @Test
    void aUsedFileOverTheSourceLimitIsRefusedAtTheUse(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.nm");
        Files.writeString(big, "(val x \"" + "x".repeat(CompileLimits.DEFAULT.maxSourceChars()) + "\")");
        Diagnostic d = refused(withSources(dir), "(use \"" + big + "\")", "E-LIMIT-010", "parse", 2_000);
        assertThat(d.origin().source()).isEqualTo("x.nm");
    }

    @Test
    void aChainOfUsesDeeperThanTheLimitIsRefused(@TempDir Path dir) throws Exception {
        int n = CompileLimits.DEFAULT.maxNesting() + 10;
        for (int i = 0; i < n; i++) Files.writeString(dir.resolve("f" + i + ".nm"), "(use \"f" + (i + 1) + ".nm\")");
        Files.writeString(dir.resolve("f" + n + ".nm"), "(val end 1)");
        refused(withSources(dir), "(use \"" + dir.resolve("f0.nm") + "\")", "E-LIMIT-012", "parse", 3_000);
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** A Finch whose µNorman uses read files under {@code dir} (sessions read none by default). */
    private static Finch withSources(Path dir) { return Finch.builder().normanSources(dev.finch.norman.SourceLoader.under(dir)).build(); }

    private static String letDoubling(int n, String base) {
        StringBuilder b = new StringBuilder("(let* ([g0 " + base + "]");
        for (int i = 1; i <= n; i++) b.append(" [g").append(i).append(" (lambda (x) (g").append(i - 1).append(" (g").append(i - 1).append(" x)))]");
        return b.append(") (g").append(n).append(" 1))").toString();
    }

    /**
     * Submits {@code text} to a fresh session: refused with {@code code} in {@code phase} — the budget's own diagnostic,
     * which is what shows the work was bounded — and the session goes on. {@code millis} was the refusal's time on an idle
     * machine; a busy one stretches it, so it is only a generous hang guard (twenty times it), never the assertion.
     */
    private static Diagnostic refused(String text, String code, String phase, long millis) {
        return refused(FINCH, text, code, phase, millis);
    }

    private static Diagnostic refused(Finch finch, String text, String code, String phase, long millis) {
        Session s = finch.newSession();
        long t0 = System.nanoTime();
        Outcome o = s.submit(Submission.of(text, "x.nm"));
        long took = millisSince(t0);
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        Diagnostic d = first(o);
        assertThat(d.code()).isEqualTo(code);
        assertThat(d.phase().spelling()).isEqualTo(phase);
        assertThat(took).as("milliseconds to refuse it (a hang guard)").isLessThan(millis * 20);
        stillWorks(s);
        return d;
    }

    private static void stillWorks(Session s) {
        Outcome o = s.submit(Submission.of("(+ 1 2)", "x.nm"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(StackEntry::display).last().isEqualTo("3.0");
    }

    private static Diagnostic first(Outcome o) {
        assertThat(o.diagnostics()).isNotEmpty();
        return o.diagnostics().get(0);
    }

    private static long millisSince(long t0) { return (System.nanoTime() - t0) / 1_000_000; }
}
