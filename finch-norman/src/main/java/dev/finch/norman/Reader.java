package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/**
 * Reads µNorman text into datums. Brackets are checked first on the token stream so that an unclosed or
 * mismatched bracket points at the bracket itself; ANTLR's console listeners are replaced by collectors.
 */
public final class Reader {
    private final String sourceId;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    private Reader(String sourceId) { this.sourceId = sourceId; }

    /** Reads every datum of {@code text}, or throws a {@link DiagnosticException} with parse diagnostics. */
    public static List<Sx> read(String text, String sourceId) { return new Reader(sourceId).run(text); }

    private List<Sx> run(String text) {
        NormanLexer lexer = new NormanLexer(CharStreams.fromString(text, sourceId));
        lexer.removeErrorListeners();
        lexer.addErrorListener(new Collector());
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        for (Token t : tokens.getTokens()) {
            if (t.getType() == NormanLexer.BAD) {
                String what = t.getText().equals("\"") ? "a string that is never closed" : "unexpected character '" + t.getText() + "'";
                diagnostics.add(NormanCode.BAD_TOKEN.at(origin(t), what, "\"", "end of input"));
            }
        }
        if (diagnostics.isEmpty()) checkBrackets(tokens.getTokens());
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics.subList(0, 1));
        NormanParser parser = new NormanParser(tokens);
        parser.removeErrorListeners();
        parser.addErrorListener(new Collector());
        NormanParser.ProgramContext program = parser.program();
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics.subList(0, 1));
        List<Sx> out = new ArrayList<>();
        for (NormanParser.DatumContext d : program.datum()) out.add(datum(d));
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics);
        return out;
    }

    private void checkBrackets(List<Token> tokens) {
        Deque<Token> open = new ArrayDeque<>();
        for (Token t : tokens) {
            String s = t.getText();
            if (t.getType() == NormanLexer.T__0 || t.getType() == NormanLexer.T__2) {
                open.push(t);
            } else if (t.getType() == NormanLexer.T__1 || t.getType() == NormanLexer.T__3) {
                if (open.isEmpty()) {
                    diagnostics.add(NormanCode.BRACKETS.at(origin(t), "unexpected '" + s + "': nothing is open"));
                    return;
                }
                Token o = open.pop();
                String want = o.getText().equals("(") ? ")" : "]";
                if (!want.equals(s)) {
                    diagnostics.add(NormanCode.BRACKETS.at(origin(t), "'" + s + "' does not match the '" + o.getText() + "' at "
                            + origin(o).line() + ":" + origin(o).column(), want, s));
                    return;
                }
            }
        }
        if (!open.isEmpty()) {
            Token o = open.peek();
            String want = o.getText().equals("(") ? ")" : "]";
            diagnostics.add(NormanCode.BRACKETS.at(origin(o), "'" + o.getText() + "' is never closed: add '" + want + "'", want, "end of input"));
        }
    }

    private Sx datum(NormanParser.DatumContext d) {
        Origin at = origin(d.getStart());
        if (d instanceof NormanParser.ParenContext p) return new Sx.SList(items(p.datum()), false, at);
        if (d instanceof NormanParser.BracketContext b) return new Sx.SList(items(b.datum()), true, at);
        if (d instanceof NormanParser.QuoteContext q) return new Sx.Quote(datum(q.datum()), at);
        if (d instanceof NormanParser.StringContext s) return new Sx.Str(unescape(s.STRING().getSymbol()), at);
        return new Sx.Atom(d.getText(), at);
    }

    private List<Sx> items(List<NormanParser.DatumContext> ds) {
        List<Sx> out = new ArrayList<>(ds.size());
        for (NormanParser.DatumContext d : ds) out.add(datum(d));
        return out;
    }

    /** Decodes the three escapes of the reference; any other backslash sequence is a bad token. */
    private String unescape(Token t) {
        String raw = t.getText();
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < raw.length() - 1; i++) {
            char c = raw.charAt(i);
            if (c != '\\') { b.append(c); continue; }
            char n = raw.charAt(++i);
            switch (n) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case 'n': b.append('\n'); break;
                default:
                    diagnostics.add(NormanCode.BAD_TOKEN.at(origin(t), "unknown escape '\\" + n + "' in a string; only \\\", \\\\ and \\n exist",
                            "\\\" \\\\ \\n", "\\" + n));
            }
        }
        return b.toString();
    }

    private Origin origin(Token t) { return Origin.of(sourceId, t.getLine(), t.getCharPositionInLine() + 1); }

    /** Turns ANTLR's syntax errors into one diagnostic each. */
    private final class Collector extends BaseErrorListener {
        @Override
        public void syntaxError(Recognizer<?, ?> r, Object symbol, int line, int col, String msg, RecognitionException e) {
            diagnostics.add(NormanCode.BRACKETS.at(Origin.of(sourceId, line, col + 1), msg));
        }
    }
}
