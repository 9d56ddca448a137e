package dev.finch.frontend.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.ir.limit.CompileLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kit's one datum reader, over the small language of {@link Mini}. */
class DatumReaderTest {
    private static DatumReader.Reading<Mini.D> read(String text) { return read(text, CompileBudget.standard(), 20); }

    private static DatumReader.Reading<Mini.D> read(String text, CompileBudget budget, int maxReported) {
        return new DatumReader(budget, maxReported).read(Mini.lex(text), "m", Mini.DIALECT);
    }

    private static String messageOf(Diagnostic d) { return d.origin().line() + ":" + d.origin().column() + " " + d.message(); }

    @Test
    void readsGroupsQuotesAndAtomsInOrder() {
        DatumReader.Reading<Mini.D> r = read("(a [b {c}] 'd) '(e) \"s t\"\n''x");
        assertThat(r.clean()).isTrue();
        assertThat(Mini.print(r.datums())).isEqualTo("(a [b {c}] 'd) '(e) \"s t\" ''x");
        assertThat(r.datums().get(3)).isEqualTo(new Mini.Quote(new Mini.Quote(new Mini.Atom("x"))));
    }

    @Test
    void anEmptyTextHasNoDatums() {
        assertThat(read("  \n ").datums()).isEmpty();
        assertThat(read("()").datums()).containsExactly(new Mini.Group("(", List.of()));
    }

    @Test
    void theFirstStructuralErrorIsReportedWhereItIs() {
        assertThat(read("(a) )").structure().map(DatumReaderTest::messageOf)).contains("1:5 stray )");
        assertThat(read("(a\n [b)").structure().map(DatumReaderTest::messageOf)).contains("2:4 mismatch [)");
        assertThat(read("(a ')").structure().map(DatumReaderTest::messageOf)).contains("1:4 dangling before )");
        assertThat(read("x '").structure().map(DatumReaderTest::messageOf)).contains("1:3 dangling before <EOF>");
        assertThat(read("(a (b [c]").structure().map(DatumReaderTest::messageOf)).contains("1:4 unclosed ( of 2");
    }

    @Test
    void nothingIsBuiltAfterAStructuralErrorButBadTokensAreStillFound() {
        DatumReader.Reading<Mini.D> r = read("(a) \"\\q\" ) (b \"\\z\") # c #");
        assertThat(Mini.print(r.datums())).isEqualTo("(a) \"\\q\"");
        assertThat(r.structure().map(DatumReaderTest::messageOf)).contains("1:10 stray )");
        // The problem in the atom after the error is not looked at; the one before it is.
        assertThat(r.problems()).extracting(DatumReaderTest::messageOf).containsExactly("1:5 escape \"\\q\"");
        assertThat(r.badTokens()).extracting(DatumReaderTest::messageOf).containsExactly("1:21 bad #", "1:25 bad #");
    }

    @Test
    void badTokensAreNotDatumsAndAtMostMaxReportedAreKept() {
        DatumReader.Reading<Mini.D> r = read("(a # b)" + " #".repeat(50), CompileBudget.standard(), 3);
        assertThat(Mini.print(r.datums())).isEqualTo("(a b)");
        assertThat(r.badTokens()).hasSize(3).extracting(DatumReaderTest::messageOf).startsWith("1:4 bad #", "1:9 bad #");
        assertThat(r.structure()).isEmpty();
    }

    @Test
    void aLexerMessageIsReportedButNotCounted() {
        Token complaint = new Token(Token.Role.LEXER_ERROR, -1, "the lexer is unhappy", 1, 1, -1, -2);
        TokenSource inner = Mini.lex("a");
        TokenSource source = new TokenSource() {
            boolean said;
            @Override public Token next() {
                if (!said) { said = true; return complaint; }
                return inner.next();
            }
        };
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT.withMaxTokens(1), Long.MAX_VALUE, () -> false);
        DatumReader reader = new DatumReader(budget, 20);
        DatumReader.Reading<Mini.D> r = reader.read(source, "m", Mini.DIALECT);
        assertThat(r.badTokens()).extracting(Diagnostic::message).containsExactly("bad the lexer is unhappy");
        assertThat(reader.tokens()).isEqualTo(1);
    }

    @Test
    void aLexersComplaintsComeBeforeTheTokenTheyAroseIn() {
        TokenSource inner = Mini.lex("a b");
        LexerTokens tokens = new LexerTokens() {
            int made;
            @Override protected Token lex() {
                if (made++ == 1) complain(1, 3, "odd b");
                return inner.next();
            }
        };
        DatumReader.Reading<Mini.D> r = new DatumReader(CompileBudget.standard(), 20).read(tokens, "m", Mini.DIALECT);
        assertThat(Mini.print(r.datums())).isEqualTo("a b");
        assertThat(r.badTokens()).extracting(DatumReaderTest::messageOf).containsExactly("1:3 bad odd b");
    }

    @Test
    void nestingPastTheLimitIsRefusedAtTheFirstLevelPastIt() {
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT.withMaxNesting(10), Long.MAX_VALUE, () -> false);
        // Ten levels read; the eleventh, a quote, is refused where it is.
        assertThat(read("(".repeat(10) + ")".repeat(10), budget, 20).clean()).isTrue();
        assertThatThrownBy(() -> read("(".repeat(9) + "['x]" + ")".repeat(9), budget, 20))
                .isInstanceOfSatisfying(DiagnosticException.class, e -> {
                    Diagnostic d = e.diagnostics().get(0);
                    assertThat(d.code()).isEqualTo("E-LIMIT-012");
                    assertThat(d.origin().column()).isEqualTo(11);
                });
        // A million open brackets cost no stack: refused at the first past the limit.
        assertThatThrownBy(() -> read("(".repeat(1_000_000), budget, 20))
                .isInstanceOfSatisfying(DiagnosticException.class, e -> assertThat(e.diagnostics().get(0).origin().column()).isEqualTo(11));
    }

    @Test
    void aQuotedDatumEndsItsQuotesLevels() {
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT.withMaxNesting(3), Long.MAX_VALUE, () -> false);
        // Each 'x completes its quote, so quotes in a row at one level never add up.
        assertThat(read("(" + "'x ".repeat(100) + ")", budget, 20).datums()).hasSize(1);
        assertThatThrownBy(() -> read("''''x", budget, 20)).isInstanceOf(DiagnosticException.class);
    }

    @Test
    void tokensPastTheLimitAreRefusedAcrossTheTextsOfOneReader() {
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT.withMaxTokens(6), Long.MAX_VALUE, () -> false);
        DatumReader reader = new DatumReader(budget, 20);
        assertThat(reader.read(Mini.lex("(a b)"), "m", Mini.DIALECT).clean()).isTrue();
        assertThat(reader.tokens()).isEqualTo(4);
        assertThatThrownBy(() -> reader.read(Mini.lex("x y z"), "n", Mini.DIALECT))
                .isInstanceOfSatisfying(DiagnosticException.class, e -> {
                    assertThat(e.diagnostics().get(0).code()).isEqualTo("E-LIMIT-011");
                    assertThat(e.diagnostics().get(0).origin().source()).isEqualTo("n");
                    assertThat(e.diagnostics().get(0).origin().column()).isEqualTo(5);
                });
    }

    @Test
    void aDeeplyNestedTextIsReadWithoutRecursion() {
        int n = 200_000;
        CompileBudget budget = CompileBudget.of(CompileLimits.DEFAULT.withMaxNesting(n + 1).withMaxTokens(2 * n + 1), Long.MAX_VALUE, () -> false);
        DatumReader.Reading<Mini.D> r = read("(".repeat(n) + ")".repeat(n), budget, 20);
        int depth = 0;
        for (Mini.D d = r.datums().get(0); d instanceof Mini.Group g; d = g.items().isEmpty() ? null : g.items().get(0)) depth++;
        assertThat(depth).isEqualTo(n);
    }
}
