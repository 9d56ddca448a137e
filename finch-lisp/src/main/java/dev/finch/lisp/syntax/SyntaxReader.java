package dev.finch.lisp.syntax;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.LispLexer;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/**
 * Reads Lisp source into datums ({@link Sx}). Delimiter balance and nesting are checked first, in one pass without
 * recursion (so an unclosed form points at its opener, not at the end of the file, and a form nested deeper than the
 * submission's {@link CompileBudget} allows is refused before anything is tokenized); tokens are counted against the
 * budget as the lexer produces them; ANTLR's console listener is replaced by one that collects diagnostics. The datums
 * are then built from the tokens directly — an s-expression needs no parser: an opener starts a datum list, its closer
 * (the scan has matched every one) ends it, a quote applies to the datum after it — recursing once per nesting level,
 * which the scan has bounded (a run of quotes is read without recursion). Datums keep offsets into the shared
 * source, never copies of their text.
 */
public final class SyntaxReader {
    /** At most this many parse diagnostics are reported. */
    private static final int MAX_DIAGNOSTICS = 20;
    /** Longest ANTLR message reported. */
    private static final int MESSAGE_CHARS = 240;

    private final String sourceId;
    private final CompileBudget budget;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private SourceText source;

    private SyntaxReader(String sourceId, CompileBudget budget) {
        this.sourceId = sourceId;
        this.budget = budget;
    }

    /** Reads every datum of {@code text} under the default limits, or throws a {@link DiagnosticException} carrying parse diagnostics. */
    public static List<Sx> read(String text, String sourceId) {
        return read(text, sourceId, CompileBudget.standard());
    }

    /**
     * Reads every datum of {@code text}, or throws a {@link DiagnosticException} carrying parse diagnostics — or the
     * budget's refusal when the text nests too deeply ({@code E-LIMIT-012}) or has too many tokens ({@code E-LIMIT-011}).
     */
    public static List<Sx> read(String text, String sourceId, CompileBudget budget) {
        return new SyntaxReader(sourceId, budget).run(text);
    }

    private List<Sx> run(String text) {
        DelimiterScan.Result scan = DelimiterScan.scan(text, budget.limits().maxNesting());
        if (scan.status() == DelimiterScan.Status.TOO_DEEP) {
            budget.nesting(Phase.PARSE, scan.depth(), Origin.of(sourceId, scan.line(), scan.column()));
        }
        if (!scan.balanced()) throw new DiagnosticException(balanceDiagnostic(scan));
        CharStream input = CharStreams.fromString(text, sourceId);
        source = new SourceText(input);
        // A token's indices count code points: they index the text itself when it has no surrogate pair.
        this.text = input.size() == text.length() ? text : null;
        LispLexer lexer = new LispLexer(input);
        lexer.removeErrorListeners();
        lexer.addErrorListener(new Collector());
        List<Token> tokens = new ArrayList<>();
        int maxTokens = budget.limits().maxTokens();
        for (Token t = lexer.nextToken(); ; t = lexer.nextToken()) {
            tokens.add(t);
            if (t.getType() == Token.EOF) break;
            if (tokens.size() > maxTokens) budget.tokens(tokens.size(), origin(t)); // refuses; its origin made only then
            if (t.getType() == LispLexer.BAD) {
                report(LispCode.BAD_TOKEN.at(origin(t), "unexpected character '" + t.getText() + "'"));
            }
        }
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics);
        budget.poll(Phase.PARSE, Origin.of(sourceId, 1, 1));
        this.tokens = tokens;
        List<Sx> out = new ArrayList<>();
        while (tokens.get(next).getType() != Token.EOF) {
            Sx d = datum();
            if (d == null) break;
            out.add(d);
        }
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics);
        return out;
    }

    private void report(Diagnostic d) {
        if (diagnostics.size() < MAX_DIAGNOSTICS) diagnostics.add(d);
    }

    private Diagnostic balanceDiagnostic(DelimiterScan.Result scan) {
        Origin at = Origin.of(sourceId, scan.line(), scan.column());
        switch (scan.status()) {
            case UNCLOSED:
                return LispCode.UNCLOSED_DELIMITER.at(at, "'" + scan.found() + "' is never closed: add '"
                        + DelimiterScan.closer(scan.found()) + "'" + (scan.depth() > 1 ? " (" + scan.depth() + " forms are open at the end)" : ""),
                        String.valueOf(DelimiterScan.closer(scan.found())), "end of input");
            case UNTERMINATED_STRING:
                return LispCode.UNTERMINATED_STRING.at(at, "string literal is never closed", "\"", "end of input");
            default:
                return LispCode.UNEXPECTED_CLOSER.at(at, "unexpected '" + scan.found() + "'"
                        + (scan.depth() == 0 ? ": nothing is open" : ": it does not match the open delimiter"));
        }
    }

    private Origin origin(Token t) { return Origin.of(sourceId, t.getLine(), t.getCharPositionInLine() + 1); }

    /** Turns ANTLR lexer errors into diagnostics. */
    private final class Collector extends BaseErrorListener {
        @Override public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg, RecognitionException e) {
            report(LispCode.SYNTAX.at(Origin.of(sourceId, line, col + 1), msg.length() > MESSAGE_CHARS ? msg.substring(0, MESSAGE_CHARS) + "…" : msg));
        }
    }

    // ---- datums from tokens -----------------------------------------------------------------------------------

    /** The text being read when the tokens' indices are its own (no surrogate pair), else null. */
    private String text;

    /** The tokens being read (the last is EOF) and the index of the next one. */
    private List<Token> tokens;
    private int next;

    /**
     * The datum starting at the next token, or null (with a diagnostic) when there is none: a quote with nothing
     * after it to quote. The delimiter scan has matched every opener with its closer, so a list always ends.
     */
    private Sx datum() {
        int quotes = 0;
        int firstQuote = next;
        while (tokens.get(next).getType() == LispLexer.QUOTE) { quotes++; next++; }
        Token t = tokens.get(next);
        if (quotes > 0 && (t.getType() == Token.EOF || closes(t.getType()))) {
            Token q = tokens.get(next - 1);
            report(LispCode.SYNTAX.at(origin(q), "a quote (') must be followed by the datum it quotes, but "
                    + (t.getType() == Token.EOF ? "the text ends" : "'" + t.getText() + "' follows")));
            return null;
        }
        next++;
        Sx d = switch (t.getType()) {
            case LispLexer.LPAREN -> {
                List<Sx> items = items(LispLexer.RPAREN, null);
                if (items == null) yield null;
                Token close = tokens.get(next - 1);
                yield new Sx.SList(items, new Sx.Span(source, t.getStartIndex(), close.getStopIndex() + 1), origin(t));
            }
            case LispLexer.LBRACK -> bracket(t);
            case LispLexer.LBRACE -> {
                List<Sx> items = items(LispLexer.RBRACE, null);
                if (items == null) yield null;
                Token close = tokens.get(next - 1);
                yield new Sx.SBraces(items, new Sx.Span(source, t.getStartIndex(), close.getStopIndex() + 1), origin(t));
            }
            case LispLexer.STRING -> new Sx.SString(unescape(t), origin(t));
            case LispLexer.FLOAT -> new Sx.SFloat(Double.parseDouble(t.getText()), origin(t));
            case LispLexer.INT -> integer(t);
            case LispLexer.KEYWORD -> new Sx.SKeyword(t.getText().substring(1), origin(t));
            case LispLexer.COLON -> new Sx.SColon(origin(t));
            case LispLexer.SYMBOL -> new Sx.SSymbol(t.getText(), origin(t));
            default -> {
                // A closer the scan did not expect, or a token the lexer already reported: never a datum.
                report(LispCode.SYNTAX.at(origin(t), "unexpected '" + t.getText() + "'"));
                yield null;
            }
        };
        if (d == null) return null;
        // 'x is (quote x); each quote of a run wraps the datum once more, innermost last.
        for (int i = quotes - 1; i >= 0; i--) d = new Sx.SQuote(d, origin(tokens.get(firstQuote + i)));
        return d;
    }

    private static boolean closes(int type) { return type == LispLexer.RPAREN || type == LispLexer.RBRACK || type == LispLexer.RBRACE; }

    /**
     * The datums up to the closer {@code close} (consumed), or null when one of them could not be read; when
     * {@code colon} is given, its one slot gets the token of the first colon among them (a bracket's annotation).
     */
    private List<Sx> items(int close, Token[] colon) {
        List<Sx> out = new ArrayList<>();
        while (true) {
            int type = tokens.get(next).getType();
            if (type == close) { next++; return out; }
            if (type == Token.EOF || closes(type)) {
                report(LispCode.SYNTAX.at(origin(tokens.get(next)), "unexpected " + (type == Token.EOF ? "end of input" : "'" + tokens.get(next).getText() + "'")));
                return null;
            }
            Token first = tokens.get(next);
            Sx d = datum();
            if (d == null) return null;
            if (colon != null && colon[0] == null && d.kind() == Sx.Kind.COLON) colon[0] = first;
            out.add(d);
        }
    }

    /** {@code [ … ]}: its datums, and the source after a top-level colon up to the closer (a type annotation's text). */
    private Sx bracket(Token open) {
        Token[] colon = new Token[1];
        List<Sx> items = items(LispLexer.RBRACK, colon);
        if (items == null) return null;
        Token close = tokens.get(next - 1);
        Sx.Span typeSpan = colon[0] == null ? null : new Sx.Span(source, colon[0].getStopIndex() + 1, close.getStartIndex());
        return new Sx.SBracket(items, typeSpan, origin(open));
    }

    private Sx integer(Token t) {
        try {
            long v = text != null ? Long.parseLong(text, t.getStartIndex(), t.getStopIndex() + 1, 10) : Long.parseLong(t.getText());
            return new Sx.SInt(v, origin(t));
        } catch (NumberFormatException e) {
            report(LispCode.NUMBER_RANGE.at(origin(t), "integer literal " + Sx.quote(t.getText()) + " does not fit in 64 bits"));
            return new Sx.SInt(0, origin(t));
        }
    }

    /** Decodes \n \t \r \0 \\ \" and \\uXXXX / \\u{X…}; anything else is a parse error at the escape. */
    private String unescape(Token t) {
        String raw = t.getText();
        StringBuilder b = new StringBuilder();
        int line = t.getLine();
        int col = t.getCharPositionInLine() + 2;
        for (int i = 1; i < raw.length() - 1; i++) {
            char c = raw.charAt(i);
            if (c != '\\') {
                b.append(c);
                if (c == '\n') { line++; col = 1; } else col++;
                continue;
            }
            char e = raw.charAt(++i);
            switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case '0': b.append('\0'); break;
                case '\\': b.append('\\'); break;
                case '"': b.append('"'); break;
                case 'u': {
                    int end;
                    String hex;
                    if (i + 1 < raw.length() && raw.charAt(i + 1) == '{') {
                        end = raw.indexOf('}', i);
                        hex = end < 0 ? "" : raw.substring(i + 2, end);
                    } else {
                        end = Math.min(i + 4, raw.length() - 2);
                        hex = raw.substring(i + 1, end + 1);
                        if (hex.length() != 4) hex = "";
                    }
                    try {
                        b.appendCodePoint(Integer.parseInt(hex, 16));
                        col += end - i + 2;
                        i = end;
                    } catch (IllegalArgumentException ex) {
                        report(LispCode.BAD_ESCAPE.at(Origin.of(sourceId, line, col), "malformed \\u escape"));
                    }
                    continue;
                }
                default:
                    report(LispCode.BAD_ESCAPE.at(Origin.of(sourceId, line, col), "unknown escape '\\" + e + "' (use \\n \\t \\r \\0 \\\\ \\\" or \\u{…})"));
            }
            col += 2;
        }
        return b.toString();
    }
}
