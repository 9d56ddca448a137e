package dev.finch.lisp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Phase;
import dev.finch.lisp.syntax.Sx;
import dev.finch.lisp.syntax.SyntaxReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReaderTest {
    private static Diagnostic parseError(String text) {
        try {
            SyntaxReader.read(text, "src");
        } catch (DiagnosticException e) {
            return e.diagnostics().get(0);
        }
        throw new AssertionError("expected a parse error for " + text);
    }

    @Test
    void deepUnbalancedDelimitersArePointedAtPastTheScansFirstSixteen() {
        // 40 open, 39 closed: the one left open is the outermost, at column 1.
        Diagnostic unclosed = parseError("(".repeat(40) + ")".repeat(39));
        assertThat(unclosed.message()).isEqualTo("'(' is never closed: add ')'");
        assertThat(unclosed.origin().column()).isEqualTo(1);
        // 30 deep, then a closer that does not match the innermost opener ('[' at column 30).
        Diagnostic mismatched = parseError("(".repeat(29) + "[" + ")");
        assertThat(mismatched.message()).contains("unexpected ')'").contains("does not match");
        assertThat(mismatched.origin().column()).isEqualTo(31);
        // 20 open, the innermost a brace: what is left open at the end is that brace.
        Diagnostic brace = parseError("(".repeat(19) + "{ 1");
        assertThat(brace.message()).contains("'{' is never closed").contains("(20 forms are open");
        assertThat(brace.origin().column()).isEqualTo(20);
    }

    @Test
    void integersReadTheSameAfterTextOutsideTheBasicPlaneAndOutOfRangeOnesAreRefused() {
        // A token's indices count code points; with an emoji (a surrogate pair) before them they no longer index the text.
        for (String prefix : new String[] {"", "\"\uD83D\uDE00\" ", "\"é\" "}) {
            List<Sx> forms = SyntaxReader.read("(" + prefix + "12 -9223372036854775808 9223372036854775807)", "src");
            List<Sx> it = ((Sx.SList) forms.get(0)).items();
            int first = prefix.isEmpty() ? 0 : 1;
            assertThat(((Sx.SInt) it.get(first)).value()).as(prefix).isEqualTo(12);
            assertThat(((Sx.SInt) it.get(first + 1)).value()).as(prefix).isEqualTo(Long.MIN_VALUE);
            assertThat(((Sx.SInt) it.get(first + 2)).value()).as(prefix).isEqualTo(Long.MAX_VALUE);
            assertThat(parseError(prefix + "9223372036854775808").message()).as(prefix).contains("does not fit in 64 bits");
        }
    }

    @Test
    void readsAtomsListsBracketsAndRecords() {
        List<Sx> forms = SyntaxReader.read("(f 1 -2 1.5 \"a\\n\\\"b\\u{41}\" true 'sym :key [x : list<int>] { :a 1 }) ; comment (", "src");
        assertThat(forms).hasSize(1);
        Sx.SList l = (Sx.SList) forms.get(0);
        List<Sx> it = l.items();
        assertThat(it.get(0)).isEqualTo(new Sx.SSymbol("f", it.get(0).origin()));
        assertThat(((Sx.SInt) it.get(1)).value()).isEqualTo(1);
        assertThat(((Sx.SInt) it.get(2)).value()).isEqualTo(-2);
        assertThat(((Sx.SFloat) it.get(3)).value()).isEqualTo(1.5);
        assertThat(((Sx.SString) it.get(4)).value()).isEqualTo("a\n\"bA");
        assertThat(it.get(5).kind()).isEqualTo(Sx.Kind.SYMBOL);
        assertThat(it.get(6).kind()).isEqualTo(Sx.Kind.QUOTE);
        assertThat(((Sx.SKeyword) it.get(7)).name()).isEqualTo("key");
        assertThat(((Sx.SBracket) it.get(8)).typeText()).isEqualTo("list<int>");
        assertThat(it.get(9).kind()).isEqualTo(Sx.Kind.BRACES);
    }

    @Test
    void typeSpellingsWithBracesAreOneSymbol() {
        Sx.SList l = (Sx.SList) SyntaxReader.read("(variant variant{none|some(int)} :some 42)", "src").get(0);
        assertThat(l.items().get(1)).isInstanceOf(Sx.SSymbol.class);
        assertThat(((Sx.SSymbol) l.items().get(1)).name()).isEqualTo("variant{none|some(int)}");
    }

    @Test
    void originsAreLineAndColumn() {
        Sx.SList l = (Sx.SList) SyntaxReader.read("\n  (say \"x\")", "src").get(0);
        assertThat(l.origin().source()).isEqualTo("src");
        assertThat(l.origin().line()).isEqualTo(2);
        assertThat(l.origin().column()).isEqualTo(3);
        assertThat(l.items().get(1).origin().column()).isEqualTo(8);
    }

    @Test
    void unclosedFormPointsAtItsOpener() {
        Diagnostic d = parseError("(say \"ok\")\n(define (f x)\n  (+ x 1)\n");
        assertThat(d.phase()).isEqualTo(Phase.PARSE);
        assertThat(d.code()).isEqualTo("E-LISP-001");
        assertThat(d.origin().line()).isEqualTo(2);
        assertThat(d.origin().column()).isEqualTo(1);
    }

    @Test
    void parenthesesInStringsAndCommentsDoNotCount() {
        assertThat(SyntaxReader.read("(say \"(((\") ; )))\n(say \")\")", "src")).hasSize(2);
    }

    @Test
    void strayCloserAndUnterminatedString() {
        Diagnostic closer = parseError("(say 1))");
        assertThat(closer.code()).isEqualTo("E-LISP-002");
        assertThat(closer.origin().column()).isEqualTo(8);
        Diagnostic mismatch = parseError("(say [1)");
        assertThat(mismatch.code()).isEqualTo("E-LISP-002");
        Diagnostic string = parseError("(say \"abc)");
        assertThat(string.code()).isEqualTo("E-LISP-003");
        assertThat(string.origin().column()).isEqualTo(6);
    }

    @Test
    void badEscapeBadTokenAndRange() {
        Diagnostic esc = parseError("(say \"a\\qb\")");
        assertThat(esc.code()).isEqualTo("E-LISP-005");
        assertThat(esc.origin().column()).isEqualTo(8);
        assertThat(parseError("(f `x)").code()).isEqualTo("E-LISP-004");
        assertThat(parseError("(f 99999999999999999999)").code()).isEqualTo("E-LISP-006");
    }

    @Test
    void lispFrontendReportsParseErrorsAsDiagnosticsNotExceptions() {
        assertThatThrownBy(() -> SyntaxReader.read("(", "s")).isInstanceOf(DiagnosticException.class);
        Diagnostic d = Support.fails("(say (int-to-string 1)");
        assertThat(d.phase()).isEqualTo(Phase.PARSE);
        assertThat(d.origin()).isEqualTo(dev.finch.ir.diag.Origin.of("test.lisp", 1, 1));
    }

    @Test
    void aQuoteWithNothingToQuoteIsASyntaxErrorAtTheQuote() {
        Diagnostic atEnd = parseError("(say 1) '");
        assertThat(atEnd.code()).isEqualTo(LispCode.SYNTAX.code());
        assertThat(atEnd.origin().column()).isEqualTo(9);
        assertThat(atEnd.message()).contains("the text ends");
        Diagnostic beforeCloser = parseError("(list 1 ')");
        assertThat(beforeCloser.code()).isEqualTo(LispCode.SYNTAX.code());
        assertThat(beforeCloser.origin().column()).isEqualTo(9);
        assertThat(beforeCloser.message()).contains("')' follows");
    }

    @Test
    void quotesNestOutsideIn() {
        Sx.SQuote outer = (Sx.SQuote) SyntaxReader.read("''(a)", "src").get(0);
        assertThat(outer.origin().column()).isEqualTo(1);
        Sx.SQuote inner = (Sx.SQuote) outer.datum();
        assertThat(inner.origin().column()).isEqualTo(2);
        assertThat(inner.datum()).isInstanceOf(Sx.SList.class);
    }

    @Test
    void aRunOfQuotesNestsAndTheNestingLimitCountsIt() {
        Sx d = SyntaxReader.read("'".repeat(200) + "x", "src").get(0);
        int depth = 0;
        while (d instanceof Sx.SQuote q) { d = q.datum(); depth++; }
        assertThat(depth).isEqualTo(200);
        assertThat(d).isInstanceOf(Sx.SSymbol.class);
        assertThat(parseError("'".repeat(100_000) + "x").code()).isEqualTo("E-LIMIT-012");
    }

    @Test
    void aBracketsTypeTextStartsAfterItsColonWhateverComesBefore() {
        Sx.SBracket b = (Sx.SBracket) SyntaxReader.read("[(f [g : int]) 'h : map<string,int>]", "src").get(0);
        assertThat(b.items()).hasSize(4);
        assertThat(b.typeText()).isEqualTo("map<string,int>");
        assertThat(((Sx.SBracket) ((Sx.SList) b.items().get(0)).items().get(1)).typeText()).isEqualTo("int");
    }

    @Test
    void listsKeepTheirSourceSpan() {
        Sx.SList l = (Sx.SList) SyntaxReader.read("  (a (b) c)  ", "src").get(0);
        assertThat(l.span().start()).isEqualTo(2);
        assertThat(l.span().end()).isEqualTo(11);
    }
}
