package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import org.junit.jupiter.api.Test;

class DiagnosticTextTest {
    @Test
    void showsTheSourceLineWithACaretUnderTheColumn() {
        Diagnostic d = new Diagnostic(Phase.VERIFY, "E-VERIFY-002", "`-` needs int int", Origin.of("p.fth", 2, 7), "int int", "string int");
        String text = DiagnosticText.render(d, "1 drop\n\"x\" 1 -\n");
        assertThat(text).isEqualTo("""
                error[E-VERIFY-002] verify: `-` needs int int
                  --> p.fth:2:7
                   |
                 2 | "x" 1 -
                   |       ^
                   = expected: int int
                   = found:    string int
                """);
    }

    @Test
    void columnsCountCodePointsAndKeepTabs() {
        assertThat(DiagnosticText.caretIndent("\t\uD83D\uDE00x", 3)).isEqualTo("\t ");
        assertThat(DiagnosticText.caretIndent("ab", 5)).isEqualTo("    ");
    }

    @Test
    void aWholeSubmissionDiagnosticHasNoExcerpt() {
        Diagnostic d = SessionCode.STALE_REVISION.at(Origin.of("turn-3", 0, 0), "stale", "2", "1");
        assertThat(DiagnosticText.render(d, "1 2 +")).isEqualTo("""
                error[E-SESSION-001] host: stale
                  --> turn-3
                   = expected: 2
                   = found:    1
                """);
    }

    @Test
    void aLinePastTheEndIsNotInvented() {
        assertThat(DiagnosticText.line("a\nb", 3)).isNull();
        assertThat(DiagnosticText.line("a\r\nb", 1)).isEqualTo("a");
    }
}
