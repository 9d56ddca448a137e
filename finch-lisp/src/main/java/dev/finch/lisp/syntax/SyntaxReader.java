package dev.finch.lisp.syntax;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.lisp.LispBaseVisitor;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.LispLexer;
import dev.finch.lisp.LispParser;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Reads Lisp source into datums ({@link Sx}). Delimiter balance and nesting are checked first, in one pass without
 * recursion (so an unclosed form points at its opener, not at the end of the file, and a form nested deeper than the
 * submission's {@link CompileBudget} allows is refused before anything is tokenized); tokens are counted against the
 * budget as the lexer produces them; ANTLR's console listeners are replaced by ones that collect diagnostics. The
 * parser and the datum builder recurse once per nesting level, which the scan has bounded. Datums keep offsets into
 * the shared source, never copies of their text.
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
        LispLexer lexer = new LispLexer(input);
        lexer.removeErrorListeners();
        lexer.addErrorListener(new Collector());
        List<Token> tokens = new ArrayList<>();
        for (Token t = lexer.nextToken(); ; t = lexer.nextToken()) {
            tokens.add(t);
            if (t.getType() == Token.EOF) break;
            budget.tokens(tokens.size(), origin(t));
            if (t.getType() == LispLexer.BAD) {
                report(LispCode.BAD_TOKEN.at(origin(t), "unexpected character '" + t.getText() + "'"));
            }
        }
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics);
        budget.poll(Phase.PARSE, Origin.of(sourceId, 1, 1));
        LispParser.ProgramContext program;
        try {
            // Two stages, as ANTLR's authors advise: the fast SLL prediction with no error recovery parses every text
            // that has no syntax error; only a text it gives up on is parsed again, fully, to report what is wrong.
            LispParser fast = new LispParser(new CommonTokenStream(new ListTokenSource(tokens, sourceId)));
            fast.removeErrorListeners();
            fast.setErrorHandler(new BailErrorStrategy());
            fast.getInterpreter().setPredictionMode(PredictionMode.SLL);
            program = fast.program();
        } catch (ParseCancellationException syntaxError) {
            LispParser parser = new LispParser(new CommonTokenStream(new ListTokenSource(tokens, sourceId)));
            parser.removeErrorListeners();
            parser.addErrorListener(new Collector());
            program = parser.program();
        }
        if (!diagnostics.isEmpty()) throw new DiagnosticException(diagnostics);
        Builder builder = new Builder();
        List<Sx> out = new ArrayList<>();
        for (LispParser.DatumContext d : program.datum()) out.add(builder.visit(d));
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

    /** Turns ANTLR syntax errors into diagnostics. */
    private final class Collector extends BaseErrorListener {
        @Override public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg, RecognitionException e) {
            report(LispCode.SYNTAX.at(Origin.of(sourceId, line, col + 1), msg.length() > MESSAGE_CHARS ? msg.substring(0, MESSAGE_CHARS) + "…" : msg));
        }
    }

    /** Builds datums from the parse tree. */
    private final class Builder extends LispBaseVisitor<Sx> {
        private List<Sx> all(List<LispParser.DatumContext> ds) {
            List<Sx> out = new ArrayList<>();
            for (LispParser.DatumContext d : ds) out.add(visit(d));
            return out;
        }

        @Override public Sx visitList(LispParser.ListContext ctx) {
            return new Sx.SList(all(ctx.datum()), new Sx.Span(source, ctx.start.getStartIndex(), ctx.stop.getStopIndex() + 1), origin(ctx.start));
        }

        @Override public Sx visitBracket(LispParser.BracketContext ctx) {
            List<Sx> items = all(ctx.datum());
            Sx.Span typeSpan = null;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).kind() == Sx.Kind.COLON) {
                    Token colon = ctx.datum(i).start;
                    typeSpan = new Sx.Span(source, colon.getStopIndex() + 1, ctx.stop.getStartIndex());
                    break;
                }
            }
            return new Sx.SBracket(items, typeSpan, origin(ctx.start));
        }

        @Override public Sx visitBraces(LispParser.BracesContext ctx) { return new Sx.SBraces(all(ctx.datum()), origin(ctx.start)); }

        @Override public Sx visitQuote(LispParser.QuoteContext ctx) { return new Sx.SQuote(visit(ctx.datum()), origin(ctx.start)); }

        @Override public Sx visitString(LispParser.StringContext ctx) {
            Token t = ctx.STRING().getSymbol();
            return new Sx.SString(unescape(t), origin(t));
        }

        @Override public Sx visitFloat(LispParser.FloatContext ctx) {
            Token t = ctx.FLOAT().getSymbol();
            return new Sx.SFloat(Double.parseDouble(t.getText()), origin(t));
        }

        @Override public Sx visitInt(LispParser.IntContext ctx) {
            Token t = ctx.INT().getSymbol();
            try {
                return new Sx.SInt(Long.parseLong(t.getText()), origin(t));
            } catch (NumberFormatException e) {
                report(LispCode.NUMBER_RANGE.at(origin(t), "integer literal " + Sx.quote(t.getText()) + " does not fit in 64 bits"));
                return new Sx.SInt(0, origin(t));
            }
        }

        @Override public Sx visitKeyword(LispParser.KeywordContext ctx) {
            Token t = ctx.KEYWORD().getSymbol();
            return new Sx.SKeyword(t.getText().substring(1), origin(t));
        }

        @Override public Sx visitColon(LispParser.ColonContext ctx) { return new Sx.SColon(origin(ctx.start)); }

        @Override public Sx visitSymbol(LispParser.SymbolContext ctx) {
            Token t = ctx.SYMBOL().getSymbol();
            return new Sx.SSymbol(t.getText(), origin(t));
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
}
