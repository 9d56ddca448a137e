package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.finch.ir.Lowering;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import dev.finch.ir.vocab.Vocabulary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, deliverable 1 for µNorman: every phase of the frontend is bounded by the submission's compile budget, and
 * crossing a bound is one phase-named {@code E-LIMIT-…} diagnostic; the long flat programs complete within the
 * default compile budget. No wall time is asserted. The same bombs through a session are in
 * {@code finch-core}'s {@code HostileNormanTest}.
 */
class CompileLimitsTest {
    private static final CompileLimits LIMITS = CompileLimits.DEFAULT;

    // ---- the reader ---------------------------------------------------------------------------------------------

    @Test
    void aMillionOpenBracketsAreRefusedInMillisecondsWithoutRecursing() {
        String text = "(".repeat(1_000_000);
        // A small stack: the reader never recurses, so this is plenty for any nesting.
        DiagnosticException e = onStack(128, () -> catchThrowableOfType(() -> Reader.read(text, "deep.nm"), DiagnosticException.class));
        assertThat(only(e)).satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-LIMIT-012");
            assertThat(d.phase().spelling()).isEqualTo("parse");
            assertThat(d.origin().column()).isEqualTo(LIMITS.maxNesting() + 1);
        });
    }

    @Test
    void quotesNestLikeBrackets() {
        assertThat(only(catchThrowableOfType(() -> Reader.read("'[".repeat(200) + "x" + "]".repeat(200), "q.nm"), DiagnosticException.class)).code())
                .isEqualTo("E-LIMIT-012");
        assertThat(only(catchThrowableOfType(() -> Reader.read("'".repeat(1_000_000) + "x", "q.nm"), DiagnosticException.class)).code())
                .isEqualTo("E-LIMIT-012");
        Sx three = Reader.read("'''x", "q.nm").get(0);
        assertThat(((Sx.Quote) ((Sx.Quote) ((Sx.Quote) three).datum()).datum()).datum()).isEqualTo(new Sx.Atom("x", dev.finch.ir.diag.Origin.of("q.nm", 1, 4)));
    }

    @Test
    void tokensAreCountedAsTheyArrive() {
        CompileBudget b = CompileBudget.of(LIMITS.withMaxTokens(10), Long.MAX_VALUE, () -> false);
        Diagnostic d = only(catchThrowableOfType(() -> Reader.read("(list 1 2 3 4 5 6 7 8 9 10)", "t.nm", b), DiagnosticException.class));
        assertThat(d.code()).isEqualTo("E-LIMIT-011");
        assertThat(d.origin().column()).isEqualTo(23); // the eleventh token, 9
        assertThat(Reader.read("(list 1 2 3 4 5 6 7)", "t.nm", CompileBudget.of(LIMITS.withMaxTokens(10), Long.MAX_VALUE, () -> false))).hasSize(1);
    }

    @Test
    void aQuoteOfNothingIsABracketError() {
        for (String text : List.of("(list ')", "'", "(a '")) {
            assertThat(only(catchThrowableOfType(() -> Reader.read(text, "t.nm"), DiagnosticException.class)).code()).as(text).isEqualTo("E-NORMAN-002");
        }
    }

    // ---- at the bound, every later phase's recursion is safe -----------------------------------------------------

    @Test
    void aProgramNestedExactlyToTheLimitChecksAndLowersOnAnOrdinaryStack() {
        // A thread of the JVM's default stack (1 MiB). Measured: lowering this program takes 530–590 KiB of stack with the
        // code interpreted or compiled by C1, and 250 KiB once C2 has compiled it — so 512 KiB passed or failed with the
        // JIT's state, that is with which tests ran before it.
        String deepest = atDepth(LIMITS.maxNesting());
        Lowering ok = onStack(1024, () -> Support.lower(deepest));
        assertThat(ok.diagnostics()).isEmpty();
        assertThat(ok.module()).isPresent();
        Lowering over = Support.lower(atDepth(LIMITS.maxNesting() + 1));
        assertThat(over.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-012"));
    }

    @Test
    void checkWithoutAnEnvironmentHasTheStandardBudget() {
        NormanProgram p = new Norman(SourceLoader.inMemory(Map.of())).check(atDepth(LIMITS.maxNesting() + 1), "t.nm");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-012"));
    }

    // ---- used files ---------------------------------------------------------------------------------------------

    @Test
    void usedFilesTokensCountTowardTheOneBudget() {
        SourceLoader files = SourceLoader.inMemory(Map.of("a.nm", "(val a 1)", "b.nm", "(val b 2)"));
        CompileBudget b = CompileBudget.of(LIMITS.withMaxTokens(20), Long.MAX_VALUE, () -> false);
        // 8 tokens of uses, then 5 in each file: the second file crosses 20.
        NormanProgram p = new Norman(files).check("(use \"a.nm\") (use \"b.nm\") (val c 3)", "main.nm", Vocabulary.EMPTY, Map.of(), b);
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-LIMIT-011");
            assertThat(d.origin().source()).isEqualTo("b.nm");
        });
    }

    @Test
    void aUsedFileLongerThanTheLimitIsRefusedAtTheUse() {
        SourceLoader files = SourceLoader.inMemory(Map.of("big.nm", "(val x \"" + "x".repeat(200) + "\")"));
        CompileBudget b = CompileBudget.of(LIMITS.withMaxSourceChars(100), Long.MAX_VALUE, () -> false);
        NormanProgram p = new Norman(files).check("\n  (use \"big.nm\")", "main.nm", Vocabulary.EMPTY, Map.of(), b);
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-LIMIT-010");
            assertThat(d.phase().spelling()).isEqualTo("parse");
            assertThat(d.origin()).isEqualTo(dev.finch.ir.diag.Origin.of("main.nm", 2, 3));
            assertThat(d.message()).contains("big.nm").contains("100");
        });
    }

    @Test
    void aUseOfAnEndlessFileReadsNoFurtherThanTheLimit(@TempDir Path dir) {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/dev/zero")), "needs /dev/zero");
        NormanProgram p = new Norman().check("(use \"/dev/zero\")", dir.resolve("main.nm").toString());
        assertThat(p.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-010"));
    }

    @Test
    void aChainOfUsesNestsAtMostTheLimit() {
        Map<String, String> chain = new HashMap<>();
        for (int i = 0; i < 20; i++) chain.put("f" + i + ".nm", "(use \"f" + (i + 1) + ".nm\")");
        chain.put("f20.nm", "(val end 1)");
        CompileBudget b = CompileBudget.of(LIMITS.withMaxNesting(8), Long.MAX_VALUE, () -> false);
        NormanProgram p = new Norman(SourceLoader.inMemory(chain)).check("(use \"f0.nm\")", "main.nm", Vocabulary.EMPTY, Map.of(), b);
        assertThat(p.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-012"));
        NormanProgram fine = new Norman(SourceLoader.inMemory(chain)).check("(use \"f0.nm\") end", "main.nm");
        assertThat(fine.diagnostics()).isEmpty();
    }

    // ---- inference ----------------------------------------------------------------------------------------------

    @Test
    void hindleyMilnerDoublingByDefinitionsStopsAtTheTypeSizeLimit() {
        Diagnostic d = quickly(() -> Support.check(defineDoubling(30)).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("verify");
        assertThat(Support.check(defineDoubling(3)).diagnostics()).isEmpty(); // 2^9 parts: well within
    }

    @Test
    void hindleyMilnerDoublingByLetStopsAtTheTypeSizeLimit() {
        Diagnostic d = quickly(() -> Support.check(letDoubling(30, "(lambda (x) (Pair [fst x] [snd x]))")).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("verify");
    }

    @Test
    void monomorphicDoublingInsideOneFunctionStopsToo() {
        StringBuilder b = new StringBuilder("(define f (x) (let* ([p0 (Pair [fst x] [snd x])]");
        for (int i = 1; i <= 40; i++) b.append(" [p").append(i).append(" (Pair [fst p").append(i - 1).append("] [snd p").append(i - 1).append("])]");
        b.append(") p40))");
        assertThat(quickly(() -> Support.check(b.toString()).diagnostics()).code()).isEqualTo("E-LIMIT-014");
    }

    @Test
    void lateBindingCannotGrowATypePastTheLimitUnseen() {
        // Each val's type is small when it is bound; binding its hole later doubles the first one's, again and again.
        StringBuilder b = new StringBuilder("(define dup (x) (Pair [fst x] [snd x]))\n(define hole () (fail 'x))\n(define same (x y) (if #t x y))\n");
        b.append("(val v0 (dup (hole)))\n");
        for (int i = 1; i <= 40; i++) {
            b.append("(val v").append(i).append(" (dup (hole)))\n");
            b.append("(val w").append(i).append(" (same (. v").append(i - 1).append(" fst) v").append(i).append("))\n");
        }
        assertThat(quickly(() -> Support.check(b.toString()).diagnostics()).code()).isEqualTo("E-LIMIT-014");
    }

    @Test
    void declarationsDoublingTheirParametersStop() {
        StringBuilder b = new StringBuilder("(record P0 (x Any))\n");
        for (int i = 1; i <= 40; i++) b.append("(record P").append(i).append(" (a").append(i).append(" P").append(i - 1).append(") (b").append(i).append(" P").append(i - 1).append("))\n");
        Diagnostic d = quickly(() -> Support.check(b.toString()).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("verify");
    }

    @Test
    void declarationsReferringDeeperThanTheLimitStop() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 400; i++) b.append("(record R").append(i).append(" (next R").append(i + 1).append("))\n");
        b.append("(record R400 (end Num))\n");
        assertThat(quickly(() -> Support.check(b.toString()).diagnostics()).code()).isEqualTo("E-LIMIT-012");
    }

    @Test
    void theDeadlineAndCancellationArePolledWhileInferring() {
        CompileLimits unbounded = LIMITS.withMaxWork(Long.MAX_VALUE).withMaxTypeSize(Integer.MAX_VALUE);
        String bomb = letDoubling(40, "(lambda (x) x)");
        NormanProgram late = new Norman(SourceLoader.inMemory(Map.of())).check(bomb + (" " + bomb).repeat(20), "t.nm", Vocabulary.EMPTY, Map.of(),
                CompileBudget.of(unbounded, System.nanoTime() - 1, () -> false));
        assertThat(late.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-016"));
        NormanProgram cancelled = new Norman(SourceLoader.inMemory(Map.of())).check(bomb + (" " + bomb).repeat(20), "t.nm", Vocabulary.EMPTY, Map.of(),
                CompileBudget.of(unbounded, Long.MAX_VALUE, () -> true));
        assertThat(cancelled.diagnostics()).singleElement().satisfies(d -> assertThat(d.code()).isEqualTo("E-LIMIT-017"));
    }

    // ---- lowering -----------------------------------------------------------------------------------------------

    @Test
    void letDoublingOfSmallTypesIsStoppedByTheWorkLimitWhileLowering() {
        // The types stay small; the lowering rebuilds each polymorphic local at each use, which doubles the code.
        Diagnostic d = quickly(() -> Support.lower(letDoubling(30, "(lambda (x) x)")).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-015");
        assertThat(d.phase().spelling()).isEqualTo("lower");
    }

    @Test
    void recordsOfRecordsExpandingPastTheTypeSizeLimitStopWhileLowering() {
        StringBuilder b = new StringBuilder("(record A0 (x Num))\n");
        for (int i = 1; i <= 30; i++) b.append("(record A").append(i).append(" (a").append(i).append(" A").append(i - 1).append(") (b").append(i).append(" A").append(i - 1).append("))\n");
        b.append("(define f (r) (. r a30))\n");
        assertThat(Support.check(b.toString()).diagnostics()).isEmpty(); // nominal types are small
        Diagnostic d = quickly(() -> Support.lower(b.toString()).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("lower");
    }

    @Test
    void aCaseWhoseBranchesNestPastTheLimitStopsWhileLowering() {
        String branches = " [(Some v) v]".repeat(LIMITS.maxNesting() + 10);
        Diagnostic d = quickly(() -> Support.lower("(define f (o) (case o" + branches + " [None 0]))").diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("lower");
        assertThat(Support.lower("(define f (o) (case o" + " [(Some v) v]".repeat(20) + " [None 0]))").diagnostics()).isEmpty();
    }

    @Test
    void aChainOfRebuiltLocalsNestsAtMostTheLimit() {
        StringBuilder b = new StringBuilder("(let* ([g0 (lambda (x) x)]");
        for (int i = 1; i <= 300; i++) b.append(" [g").append(i).append(" (lambda (x) (g").append(i - 1).append(" x))]");
        b.append(") (g300 1))");
        Diagnostic d = quickly(() -> onStack(1024, () -> Support.lower(b.toString())).diagnostics());
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("lower");
    }

    // ---- long, flat programs stay linear ------------------------------------------------------------------------

    @Test
    void aLongChainOfDefinitionsIsOrderedWithoutRecursing() {
        StringBuilder b = new StringBuilder("(define f20000 () 1)\n");
        for (int i = 0; i < 20_000; i++) b.insert(0, "(define f" + i + " () (f" + (i + 1) + "))\n");
        NormanProgram p = onStack(512, () -> Support.check(b.toString()));
        assertThat(p.diagnostics()).isEmpty();
        assertThat(p.types()).containsEntry("f0", "(-> Num)");
    }

    @Test
    void workflowStepsAreOrderedInLinearTimeAsTheReferenceOrdersThem() {
        Ast.Workflow w = (Ast.Workflow) new Syntax().exp(Reader.read("(workflow ([a (+ d 1)] [b (+ c 1)] [c 1] [d 1]) a)", "w.nm").get(0));
        assertThat(w.steps()).extracting(Ast.Binding::name).containsExactly("c", "d", "a", "b");
        Ast.Workflow x = (Ast.Workflow) new Syntax().exp(Reader.read("(workflow ([a (+ b c)] [b 1] [c (+ b 1)] [d a]) d)", "w.nm").get(0));
        assertThat(x.steps()).extracting(Ast.Binding::name).containsExactly("b", "c", "a", "d");
        // Each step reads the next: the pass-by-pass order would take one pass per step.
        StringBuilder b = new StringBuilder("(workflow (");
        int n = 20_000;
        for (int i = 0; i < n; i++) b.append("[s").append(i).append(" s").append(i + 1).append("] ");
        b.append("[s").append(n).append(" 1]) s0)");
        String text = b.toString();
        Ast.Workflow big = (Ast.Workflow) new Syntax().exp(Reader.read(text, "w.nm").get(0));
        assertThat(big.steps().get(0).name()).isEqualTo("s" + n);
        assertThat(big.steps().get(n).name()).isEqualTo("s0");
    }

    @Test
    void effectsPropagateThroughALongChainInLinearTime() {
        // One group of mutually recursive functions, each calling the next, the last one failing: the effect reaches
        // the first one through n implications, each looked at once — the work charged doubles with n, never squares
        // (the work, not the wall time, which a busy machine stretches).
        long[] work = new long[2];
        for (int k = 0; k < 2; k++) {
            int n = 2_500 << k;
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) b.append("(define g").append(i).append(" (k) (if (< k 0) (g0 k) (g").append(i + 1).append(" k)))\n");
            b.append("(define g").append(n).append(" (k) (if (< k 0) (g0 k) (fail 'end)))\n");
            dev.finch.ir.limit.CompileBudget budget = dev.finch.ir.limit.CompileBudget.standard();
            NormanProgram p = new Norman(SourceLoader.inMemory(java.util.Map.of())).check(b.toString(), "t.nm", dev.finch.ir.vocab.Vocabulary.EMPTY,
                    java.util.Map.of(), budget);
            assertThat(p.diagnostics()).isEmpty();
            assertThat(p.types()).containsEntry("g0", "(Num -> 'a ! Failure)");
            work[k] = budget.work();
        }
        assertThat(work[1]).as("work for 5,000 functions against 2,500").isLessThan(work[0] * 5 / 2);
    }

    // ---- literals -----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"$99999999999999999999999", "$9223372036854.775808", "99999999999999999999h", "2562047788016h",
            "9223372036854775808ms", "1e400", "-1e400", "(record R (t (Text 99999999999999999999)))", "0.0000001h", "$0.0000001"})
    void oversizedAndInexactLiteralsAreDiagnosticsAtTheLiteral(String text) {
        assertThat(Support.check(text).diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-013");
            assertThat(d.phase().spelling()).isEqualTo("parse");
        });
    }

    @Test
    void theLargestLiteralsStillRead() {
        NormanProgram p = Support.check("(val m $9223372036854.775807) (val d 2562047788015h) (val e 9223372036854775807ms) (val h 0.0078125h) (val n 1e308)");
        assertThat(p.diagnostics()).isEmpty();
    }

    @Test
    void aMegabyteNumeralCostsItsLengthAndIsQuotedShort() {
        String huge = "$" + "9".repeat(1_000_000);
        Diagnostic d = only(new DiagnosticException(Support.check(huge).diagnostics()));
        assertThat(d.code()).isEqualTo("E-NORMAN-013");
        assertThat(d.message()).hasSizeLessThan(200).contains("1000001 characters");
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** {@code (define f0 (x) (Pair …))} then {@code f(i)} = {@code f(i-1) ∘ f(i-1)}: each step squares the type. */
    static String defineDoubling(int n) {
        StringBuilder b = new StringBuilder("(define f0 (x) (Pair [fst x] [snd x]))\n");
        for (int i = 1; i <= n; i++) b.append("(define f").append(i).append(" (x) (f").append(i - 1).append(" (f").append(i - 1).append(" x)))\n");
        return b.append("(f").append(n).append(" 1)\n").toString();
    }

    /** The same doubling with let-bound lambdas over {@code base}. */
    static String letDoubling(int n, String base) {
        StringBuilder b = new StringBuilder("(let* ([g0 " + base + "]");
        for (int i = 1; i <= n; i++) b.append(" [g").append(i).append(" (lambda (x) (g").append(i - 1).append(" (g").append(i - 1).append(" x)))]");
        return b.append(") (g").append(n).append(" 1))").toString();
    }

    /** A program whose datums nest exactly {@code depth} deep, through applications, ifs, lets and lambdas. */
    static String atDepth(int depth) {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        int d = 0;
        int k = 0;
        while (d < depth) {
            // (let* ([v X]) v) puts X three levels down; ((lambda (y) X) 1) two; (+ 1 X) and (if #t X 0) one.
            int left = depth - d;
            switch (k++ % 4) {
                case 0 -> { if (left > 3) { open.append("(let* ([v").append(k).append(' '); close.insert(0, "]) v" + k + ")"); d += 3; continue; } }
                case 1 -> { if (left > 2) { open.append("((lambda (y").append(k).append(") "); close.insert(0, ") 1)"); d += 2; continue; } }
                case 2 -> { open.append("(if #t "); close.insert(0, " 0)"); d += 1; continue; }
                default -> { }
            }
            open.append("(+ 1 ");
            close.insert(0, ")");
            d += 1;
        }
        return open + "1" + close;
    }

    private static Diagnostic only(DiagnosticException e) {
        assertThat(e).isNotNull();
        assertThat(e.diagnostics()).hasSize(1);
        return e.diagnostics().get(0);
    }

    /** The first diagnostic {@code run} produces (the limit's own: what bounds the work, not a clock). */
    private static Diagnostic quickly(Supplier<List<Diagnostic>> run) {
        List<Diagnostic> ds = run.get();
        assertThat(ds).isNotEmpty();
        return ds.get(0);
    }

    /** Runs {@code task} on a thread with a stack of {@code kb} kilobytes. */
    private static <T> T onStack(int kb, Supplier<T> task) {
        AtomicReference<T> out = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                out.set(task.get());
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "small-stack", kb * 1024L);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if (failed.get() != null) throw new AssertionError("failed on a " + kb + " KB stack", failed.get());
        return out.get();
    }
}
