package dev.finch.forth;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/** Replaces ANTLR's console listeners: every lexer or parser error becomes a parse {@link Diagnostic}. */
final class DiagnosticListener extends BaseErrorListener {
    private final String sourceId;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    DiagnosticListener(String sourceId) { this.sourceId = sourceId; }

    List<Diagnostic> diagnostics() { return diagnostics; }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
                            String msg, RecognitionException e) {
        Origin origin = Origin.of(sourceId, line, charPositionInLine + 1);
        if (recognizer instanceof Lexer) {
            diagnostics.add(ForthCode.BAD_TOKEN.at(origin, msg));
            return;
        }
        String found = offendingSymbol instanceof Token t ? (t.getType() == Token.EOF ? "end of input" : t.getText()) : null;
        String expected = e != null && e.getExpectedTokens() != null ? e.getExpectedTokens().toString(recognizer.getVocabulary()) : null;
        diagnostics.add(ForthCode.SYNTAX.at(origin, msg, expected, found));
    }
}
