package dev.finch.lisp.syntax;

import dev.finch.frontend.lex.EndOfInputEdges;
import dev.finch.frontend.read.DatumReader;
import dev.finch.frontend.read.Token;
import dev.finch.frontend.read.LexerTokens;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import dev.finch.lisp.LispCode;
import dev.finch.lisp.LispLexer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

/**
 * Reads Lisp source into datums ({@link Sx}). Delimiter balance and nesting are checked first, in one pass without
 * recursion (so an unclosed form points at its opener, not at the end of the file, and a form nested deeper than the
 * submission's {@link CompileBudget} allows is refused before anything is tokenized). The datums are then built by the
 * frontend kit's one {@link DatumReader} from this lexer's tokens — counted against the budget as they arrive, ANTLR's
 * console listener replaced by the reader's bad-token diagnostics — with Lisp's own datums and words: the dialect
 * here. Datums keep offsets into the shared source, never copies of their text.
 *
 * <p>What is reported, in order: a delimiter the scan found wrong; then every bad token (at most
 * {@value #MAX_DIAGNOSTICS}); then the problems inside atoms (a malformed escape, an integer out of range) before the
 * first structural error the reader met (a quote with nothing to quote), and that error.
 */
public final class SyntaxReader {
    /** At most this many parse diagnostics are reported. */
    private static final int MAX_DIAGNOSTICS = 20;
    /** Longest ANTLR message reported. */
    private static final int MESSAGE_CHARS = 240;

    private final String sourceId;
    private final CompileBudget budget;

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
        Dialect dialect = new Dialect(new SourceText(input));
        DatumReader.Reading<Sx> r = new DatumReader(budget, MAX_DIAGNOSTICS).read(new Tokens(input), sourceId, dialect);
        if (!r.badTokens().isEmpty()) throw new DiagnosticException(r.badTokens());
        budget.poll(Phase.PARSE, Origin.of(sourceId, 1, 1));
        List<Diagnostic> problems = new ArrayList<>(r.problems());
        r.structure().ifPresent(problems::add);
        if (!problems.isEmpty()) throw new DiagnosticException(problems.size() > MAX_DIAGNOSTICS ? problems.subList(0, MAX_DIAGNOSTICS) : problems);
        return r.datums();
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

    /** The Lisp lexer's tokens as the kit's reader reads them; the lexer's own complaints come as its messages. */
    private static final class Tokens extends LexerTokens {
        /** The grammar's DFA transitions on end of input, which ANTLR's lexer does not keep itself. */
        private static final EndOfInputEdges END_OF_INPUT = new EndOfInputEdges();
        private final LispLexer lexer;

        Tokens(CharStream input) {
            lexer = new LispLexer(input);
            END_OF_INPUT.install(lexer);
            lexer.removeErrorListeners();
            lexer.addErrorListener(new BaseErrorListener() {
                @Override public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg, RecognitionException e) {
                    complain(line, col + 1, msg);
                }
            });
        }

        @Override protected Token lex() { return token(lexer.nextToken()); }

        private static Token token(org.antlr.v4.runtime.Token t) {
            Token.Role role = switch (t.getType()) {
                case org.antlr.v4.runtime.Token.EOF -> Token.Role.END;
                case LispLexer.LPAREN, LispLexer.LBRACK, LispLexer.LBRACE -> Token.Role.OPEN;
                case LispLexer.RPAREN, LispLexer.RBRACK, LispLexer.RBRACE -> Token.Role.CLOSE;
                case LispLexer.QUOTE -> Token.Role.QUOTE;
                case LispLexer.BAD -> Token.Role.BAD;
                default -> Token.Role.ATOM;
            };
            // A delimiter's or a quote's text is its one character: spelled here, not cut from the source each time.
            String text = switch (t.getType()) {
                case org.antlr.v4.runtime.Token.EOF -> "<EOF>";
                case LispLexer.LPAREN -> "(";
                case LispLexer.RPAREN -> ")";
                case LispLexer.LBRACK -> "[";
                case LispLexer.RBRACK -> "]";
                case LispLexer.LBRACE -> "{";
                case LispLexer.RBRACE -> "}";
                case LispLexer.QUOTE -> "'";
                default -> t.getText();
            };
            return new Token(role, t.getType(), text, t.getLine(), t.getCharPositionInLine() + 1, t.getStartIndex(), t.getStopIndex());
        }
    }

    /** Lisp's datums and words, for the kit's reader. */
    private final class Dialect implements DatumReader.Dialect<Sx> {
        private final SourceText source;
        /** The token of each colon datum read, for the annotation text after a bracket's first colon. */
        private final Map<Sx, Token> colons = new IdentityHashMap<>();

        Dialect(SourceText source) { this.source = source; }

        private Origin origin(Token t) { return t.at(sourceId); }

        @Override public Sx atom(Token t, Consumer<Diagnostic> problems) {
            switch (t.type()) {
                case LispLexer.STRING: return new Sx.SString(unescape(t, problems), origin(t));
                case LispLexer.FLOAT: return new Sx.SFloat(Double.parseDouble(t.text()), origin(t));
                case LispLexer.INT: return integer(t, problems);
                case LispLexer.KEYWORD: return new Sx.SKeyword(t.text().substring(1), origin(t));
                case LispLexer.COLON: {
                    Sx colon = new Sx.SColon(origin(t));
                    colons.put(colon, t);
                    return colon;
                }
                default: return new Sx.SSymbol(t.text(), origin(t));
            }
        }

        @Override public Sx group(Token open, Token close, List<Sx> items) {
            switch (open.text()) {
                case "(": return new Sx.SList(items, new Sx.Span(source, open.start(), close.stop() + 1), origin(open));
                case "{": return new Sx.SBraces(items, new Sx.Span(source, open.start(), close.stop() + 1), origin(open));
                default: {
                    // [ … ]: its datums, and the source after its first top-level colon up to the closer (a type annotation's text).
                    Token colon = null;
                    for (Sx d : items) {
                        if (d.kind() == Sx.Kind.COLON) {
                            colon = colons.get(d);
                            break;
                        }
                    }
                    Sx.Span typeSpan = colon == null ? null : new Sx.Span(source, colon.stop() + 1, close.start());
                    return new Sx.SBracket(items, typeSpan, origin(open));
                }
            }
        }

        @Override public Sx quote(Token quote, Sx datum) { return new Sx.SQuote(datum, origin(quote)); }

        @Override public Diagnostic badToken(Token t) {
            if (t.role() == Token.Role.LEXER_ERROR) {
                return LispCode.SYNTAX.at(origin(t), t.text().length() > MESSAGE_CHARS ? t.text().substring(0, MESSAGE_CHARS) + "…" : t.text());
            }
            return LispCode.BAD_TOKEN.at(origin(t), "unexpected character '" + t.text() + "'");
        }

        @Override public Diagnostic strayCloser(Token close) { return unexpected(close); }

        @Override public Diagnostic mismatchedCloser(Token open, Token close) { return unexpected(close); }

        @Override public Diagnostic danglingQuote(Token quote, Token next) {
            return LispCode.SYNTAX.at(origin(quote), "a quote (') must be followed by the datum it quotes, but "
                    + (next.role() == Token.Role.END ? "the text ends" : "'" + next.text() + "' follows"));
        }

        @Override public Diagnostic unclosed(Token open, Token end, int depth) { return unexpected(end); }

        /** A token where none can be (the scan has balanced the delimiters: only a delimiter inside a symbol's braces gets here). */
        private Diagnostic unexpected(Token t) {
            return LispCode.SYNTAX.at(origin(t), "unexpected " + (t.role() == Token.Role.END ? "end of input" : "'" + t.text() + "'"));
        }
    }

    private Sx integer(Token t, Consumer<Diagnostic> problems) {
        try {
            return new Sx.SInt(Long.parseLong(t.text()), t.at(sourceId));
        } catch (NumberFormatException e) {
            problems.accept(LispCode.NUMBER_RANGE.at(t.at(sourceId), "integer literal " + Sx.quote(t.text()) + " does not fit in 64 bits"));
            return new Sx.SInt(0, t.at(sourceId));
        }
    }

    /** Decodes \n \t \r \0 \\ \" and \\uXXXX / \\u{X…}; anything else is a parse error at the escape. */
    private String unescape(Token t, Consumer<Diagnostic> problems) {
        String raw = t.text();
        StringBuilder b = new StringBuilder();
        int line = t.line();
        int col = t.column() + 1;
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
                        problems.accept(LispCode.BAD_ESCAPE.at(Origin.of(sourceId, line, col), "malformed \\u escape"));
                    }
                    continue;
                }
                default:
                    problems.accept(LispCode.BAD_ESCAPE.at(Origin.of(sourceId, line, col), "unknown escape '\\" + e + "' (use \\n \\t \\r \\0 \\\\ \\\" or \\u{…})"));
            }
            col += 2;
        }
        return b.toString();
    }
}
