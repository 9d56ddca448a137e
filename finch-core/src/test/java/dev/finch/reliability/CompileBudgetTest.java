package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import dev.finch.ir.limit.CompileLimits;
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

    /** The flat list: 20,000 elements under a 2 s timeout returned after 18.5 s (the verifier copied every row). */
    @Test void aFlatListOfTwentyThousandElementsAnswersWithinItsTimeout() {
        var s = Finch.builder().timeout(java.time.Duration.ofSeconds(2)).build().newSession();
        // Completed: compiled and run within the 2 s deadline, which covers compiling (E-LIMIT-016 past it).
        Outcome lisp = s.submit(Submission.of("(list-length (list " + "1 ".repeat(20_000) + "))", "flat.lisp"));
        assertThat(lisp.status()).as("%s", lisp.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(lisp.values()).containsExactly(dev.finch.vm.Value.of(20_000));
        assertThat(s.submit(Submission.of("1 2 +", "ok.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
    }
}
