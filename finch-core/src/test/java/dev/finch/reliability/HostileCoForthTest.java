package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.limit.CompileLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 14, item 1 (and 7) for Co-Forth, the written types and the verifier, through {@link Session#submit} and
 * {@link Session#check}: each hostile program ends in its diagnostic (code and phase) — the limit that refused it,
 * which is what bounds its cost — and the session still answers afterwards; what must complete does so within the
 * run's deadline and compile budget (the VM decides, no wall-time assertion). Reliability row 23.
 */
class HostileCoForthTest {
    private static final Finch FINCH = Finch.builder().timeout(dev.finch.HangGuard.LIMIT).build();
    /** Source limit raised, for the literals that must be refused by their own rules, not by size. */
    private static final Finch LARGE = Finch.builder().timeout(dev.finch.HangGuard.LIMIT)
            .compileLimits(CompileLimits.DEFAULT.withMaxSourceChars(40 << 20)).build();

    @AfterAll static void close() {
        FINCH.close();
        LARGE.close();
    }

    private static Diagnostic refused(Session s, String program) {
        Outcome o = s.submit(Submission.of(program, "hostile.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        var check = s.check(Submission.of(program, "hostile.fth"));
        assertThat(check.diagnostics()).extracting(Diagnostic::code).containsExactly(o.diagnostics().get(0).code());
        stillWorks(s);
        return o.diagnostics().get(0);
    }

    private static void stillWorks(Session s) {
        Outcome after = s.submit(Submission.of("1 2 +", "after.fth"));
        assertThat(after.status()).isEqualTo(Outcome.Status.COMPLETED);
        s.submit(Submission.of("drop", "after.fth"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "lists      | '[ '          | '] '",
            "branches   | 'true if '    | 'then '",
            "loops      | 'begin '      | 'true until '",
            "records    | '{ a: '       | '} '",
            "closures   | '[: ( -- ) '  | ';] '",
            "maps       | 'map{ 1 '     | '}map '"})
    void aMillionDeepNestingIsRefusedInMilliseconds(String what, String open, String close) {
        // 10^6 levels need more text than the default source limit, which would refuse it first: raised here.
        Diagnostic d = refused(LARGE.newSession(), open.repeat(1_000_000) + "1 " + close.repeat(1_000_000));
        assertThat(d.code()).isEqualTo("E-LIMIT-012");
        assertThat(d.phase().spelling()).isEqualTo("parse");
        Diagnostic within = refused(FINCH.newSession(), open.repeat(50_000) + "1 " + close.repeat(50_000));
        assertThat(within.code()).isEqualTo("E-LIMIT-012");
    }

    @Test void twentyThousandLiteralsCompileAndRun() {
        // Was 18 s and 6 GB (check alone 23 s): the verifier copied the whole operand row at every instruction. The
        // deadline is a hang guard; that the work is now linear is asserted where it is charged (finch-verifier's
        // HostileVerifierTest, CompileBudgetTest here).
        Session s = FINCH.newSession();
        Outcome o = s.submit(Submission.of("1 ".repeat(20_000), "lits.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.stack()).hasSize(20_000);
        var check = s.check(Submission.of("[ " + "{ a: 1 } ".repeat(20_000) + "] list-length", "rows.fth"));
        assertThat(check.diagnostics()).isEmpty();
        Session fresh = FINCH.newSession();
        stillWorks(fresh);
    }

    @Test void nestedCommentsAreLinear() {
        Session s = FINCH.newSession();
        Outcome o = s.submit(Submission.of("( ".repeat(200_000) + ") ".repeat(200_000) + "1", "c.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(refused(s, "1 " + "( ".repeat(500_000)).code()).isEqualTo("E-FORTH-104");
    }

    @Test void nestedSignatureTypesAreANestingLimitNotAStackOverflow() {
        Session s = FINCH.newSession();
        String deep = "list<".repeat(100_000) + "int" + ">".repeat(100_000);
        assertThat(refused(s, ": f ( " + deep + " -- ) drop ; 1").code()).isEqualTo("E-LIMIT-012");
        assertThat(refused(s, "\"[1]\" json-parse<" + deep + ">").code()).isEqualTo("E-LIMIT-012");
        String parens = "(".repeat(100_000) + "int" + ")".repeat(100_000);
        assertThat(refused(s, ": f ( " + parens + " -- ) drop ; 1").code()).isEqualTo("E-LIMIT-012");
    }

    @Test void exponentialTypesAreATypeSizeLimit() {
        Session s = FINCH.newSession();
        StringBuilder words = new StringBuilder(": p0 :> x { l: x r: x } ; ");
        for (int i = 1; i < 40; i++) words.append(": p").append(i).append(" p").append(i - 1).append(" p").append(i - 1).append(" ; ");
        Diagnostic d = refused(s, words + "1 p39");
        assertThat(d.code()).isEqualTo("E-LIMIT-014");
        assertThat(d.phase().spelling()).isEqualTo("verify");
        StringBuilder shared = new StringBuilder("1 :> x0 ");
        for (int i = 0; i < 40; i++) shared.append("{ l: x").append(i).append(" r: x").append(i).append(" } :> x").append(i + 1).append(' ');
        assertThat(refused(s, shared + "x40").code()).isEqualTo("E-LIMIT-014");
    }

    @Test void tooManyTokensAreRefusedWhileReading() {
        Session s = FINCH.newSession();
        assertThat(refused(s, "1 ".repeat(300_000)).code()).isEqualTo("E-LIMIT-011");
    }

    @Test void hugeNamesAndLiteralsHaveTheirOwnDiagnostics() {
        Session s = LARGE.newSession();
        // Were E-RUN-003 (an internal defect): a 1 MB word name, and a 20 MB JSON literal.
        assertThat(refused(s, "x".repeat(1 << 20)).code()).isEqualTo("E-FORTH-008");
        assertThat(refused(s, ": " + "w".repeat(1 << 20) + " 1 ;").code()).isEqualTo("E-FORTH-008");
        Diagnostic json = refused(s, "{\"a\": \"" + "x".repeat(20 << 20) + "\"}");
        assertThat(json.code()).isEqualTo("E-FORTH-006");
        assertThat(json.message()).contains("longer than");
        assertThat(refused(s, "{\"a\": " + "[".repeat(600) + "]".repeat(600) + "}").code()).isEqualTo("E-FORTH-006");
        assertThat(refused(s, "['] ".repeat(100_000) + "dup").code()).isEqualTo("E-FORTH-107");
    }

    @Test void aRunOutOfCompileWorkIsTheWorkLimit() {
        Finch tight = Finch.builder().compileLimits(CompileLimits.DEFAULT.withMaxWork(50_000)).build();
        try {
            Session s = tight.newSession();
            Diagnostic d = refused(s, "1 " + "dup drop ".repeat(40_000));
            assertThat(d.code()).isIn("E-LIMIT-015");
        } finally {
            tight.close();
        }
    }
}
