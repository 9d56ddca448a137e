package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import dev.finch.lisp.Lisp;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.word.Library;
import org.junit.jupiter.api.Test;

/** Issue 14, item 1: the plumbing — a submission's text is bounded before any frontend reads it, and the session survives. */
class CompileBudgetTest {
    @Test void aSourceOverTheLimitIsRefusedBeforeParsing() {
        var finch = Finch.builder().compileLimits(CompileLimits.DEFAULT.withMaxSourceChars(100)).build();
        var s = finch.newSession();
        Outcome o = s.submit(Submission.of("1 ".repeat(60), "big.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-LIMIT-010");
        assertThat(o.diagnostics().get(0).phase().spelling()).isEqualTo("parse");
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.check(Submission.of("1 ".repeat(60), "big.fth")).diagnostics().get(0).code()).isEqualTo("E-LIMIT-010");
    }

    @Test void aMegabyteWordNameCompilesAndRuns() {
        String name = "w" + "x".repeat(400_000);    // twice in the source: within the 1 Mi-character limit
        var s = Finch.create().newSession();
        Outcome lisp = s.submit(Submission.of("(define (" + name + " n) (* n 2)) (" + name + " 21)", "big.lisp"));
        assertThat(lisp.status()).as("%s", lisp.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        Outcome forth = s.submit(Submission.of(": " + name + "2 ( int -- int ) 1 + ; 1 " + name + "2", "big.fth"));
        assertThat(forth.diagnostics()).noneMatch(d -> d.code().equals("E-RUN-003") || d.code().equals("E-SESSION-006"));
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    /**
     * The flat list: 20,000 elements under a 2 s timeout returned after 18.5 s (the verifier copied every row).
     * What is asserted is the work compiling charges, which a copy per row would square: it doubles with the list.
     */
    @Test void aFlatListOfTwentyThousandElementsCostsWorkInProportionToItsLength() {
        long twenty = flatListWork(20_000);
        long forty = flatListWork(40_000);
        assertThat(forty).as("work for 40,000 elements against %d for 20,000", twenty).isLessThan(twenty * 5 / 2);
        assertThat(twenty).as("work for 20,000 elements (3 units an element when measured)").isLessThan(20_000L * 10);
        // And through a session, to its answer (the deadline a hang guard: the work above is what bounds it).
        var s = Finch.builder().timeout(dev.finch.HangGuard.LIMIT).build().newSession();
        Outcome lisp = s.submit(Submission.of(flatList(20_000), "flat.lisp"));
        assertThat(lisp.status()).as("%s", lisp.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(lisp.values()).containsExactly(dev.finch.vm.Value.of(20_000));
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }

    private static String flatList(int n) { return "(list-length (list " + "1 ".repeat(n) + "))"; }

    /** The compile work (lowering and verifying, as a session does) charged for a flat list of {@code n} elements. */
    private static long flatListWork(int n) {
        CompileBudget budget = CompileBudget.standard();
        Environment env = Environment.of(Library.core().vocabulary()).withBudget(budget);
        Lowering lowering = new Lisp().lower(flatList(n), "flat.lisp", env);
        assertThat(lowering.diagnostics()).isEmpty();
        Verification v = Verifier.verify(lowering.module().orElseThrow(), env);
        assertThat(v.diagnostics()).isEmpty();
        return budget.work();
    }
}
