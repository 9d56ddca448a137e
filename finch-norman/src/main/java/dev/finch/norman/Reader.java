package dev.finch.norman;

import dev.finch.frontend.lex.EndOfInputEdges;
import dev.finch.frontend.read.DatumReader;
import dev.finch.frontend.read.Token;
import dev.finch.frontend.read.LexerTokens;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.limit.CompileBudget;
import java.util.List;
import java.util.function.Consumer;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;

/**
 * Reads µNorman text into datums ({@code datum : '(' datum* ')' | '[' datum* ']' | '\'' datum | STRING | ATOM}) with the
 * frontend kit's one {@link DatumReader}: one pass over this lexer's tokens with an explicit stack of what is open, so
 * it never recurses in the input's nesting, and every token and every level of nesting (brackets and quotes) counted
 * against the submission's {@link CompileBudget} as they arrive — a text of a million open brackets is refused at the
 * first bracket past the limit ({@code E-LIMIT-012}), a flood of tokens at the first past the token limit
 * ({@code E-LIMIT-011}). Below the limit, a datum nests at most {@code maxNesting} deep, which bounds the recursion of
 * every later phase. This class is µNorman's side of it: the tokens, the datums ({@link Sx}) and the diagnostics. An
 * unclosed or mismatched bracket points at the bracket itself; what is reported first is the first malformed token,
 * then the first bracket or quote out of place, then the strings' unknown escapes.
 *
 * <p>One reader serves one submission: the files a program uses are read by the same reader, so their tokens count
 * toward the one budget.
 */
public final class Reader {
    private final DatumReader reader;

    /** A reader whose tokens and nesting count against {@code budget}, across every file it reads. */
    Reader(CompileBudget budget) { this.reader = new DatumReader(java.util.Objects.requireNonNull(budget, "budget"), Integer.MAX_VALUE); }

    /** Reads every datum of {@code text} under a fresh default budget, or throws a {@link DiagnosticException}. */
    public static List<Sx> read(String text, String sourceId) { return read(text, sourceId, CompileBudget.standard()); }

    /**
     * Reads every datum of {@code text}, counting against {@code budget}; throws a {@link DiagnosticException} with the
     * parse diagnostics, or with the limit that was crossed.
     */
    public static List<Sx> read(String text, String sourceId, CompileBudget budget) { return new Reader(budget).file(text, sourceId); }

    /** Reads one file of the submission (see {@link #read(String, String, CompileBudget)}). */
    List<Sx> file(String text, String sourceId) {
        DatumReader.Reading<Sx> r = reader.read(new Tokens(text, sourceId), sourceId, new Dialect(sourceId));
        if (!r.badTokens().isEmpty()) throw new DiagnosticException(r.badTokens().get(0));
        if (r.structure().isPresent()) throw new DiagnosticException(r.structure().get());
        if (!r.problems().isEmpty()) throw new DiagnosticException(r.problems());
        return r.datums();
    }

    /** The µNorman lexer's tokens as the kit's reader reads them; the lexer's own complaints come as its messages. */
    private static final class Tokens extends LexerTokens {
        /** The grammar's DFA transitions on end of input, which ANTLR's lexer does not keep itself. */
        private static final EndOfInputEdges END_OF_INPUT = new EndOfInputEdges();
        private final NormanLexer lexer;

        Tokens(String text, String sourceId) {
            lexer = new NormanLexer(CharStreams.fromString(text, sourceId));
            END_OF_INPUT.install(lexer);
            lexer.removeErrorListeners();
            lexer.addErrorListener(new BaseErrorListener() {
                @Override
                public void syntaxError(Recognizer<?, ?> r, Object symbol, int line, int col, String msg, RecognitionException e) {
                    complain(line, col + 1, msg);
                }
            });
        }

        @Override protected Token lex() { return token(lexer.nextToken()); }

        private static Token token(org.antlr.v4.runtime.Token t) {
            Token.Role role = switch (t.getType()) {
                case org.antlr.v4.runtime.Token.EOF -> Token.Role.END;
                case NormanLexer.LPAREN, NormanLexer.LBRACKET -> Token.Role.OPEN;
                case NormanLexer.RPAREN, NormanLexer.RBRACKET -> Token.Role.CLOSE;
                case NormanLexer.QUOTE -> Token.Role.QUOTE;
                case NormanLexer.BAD -> Token.Role.BAD;
                default -> Token.Role.ATOM;
            };
            String text = role == Token.Role.END ? "<EOF>" : t.getText();
            return new Token(role, t.getType(), text, t.getLine(), t.getCharPositionInLine() + 1, t.getStartIndex(), t.getStopIndex());
        }
    }

    /** µNorman's datums and diagnostics, for the kit's reader. */
    private static final class Dialect implements DatumReader.Dialect<Sx> {
        private final String sourceId;

        Dialect(String sourceId) { this.sourceId = sourceId; }

        private Origin origin(Token t) { return t.at(sourceId); }

        @Override public Sx atom(Token t, Consumer<Diagnostic> problems) {
            return t.type() == NormanLexer.STRING ? new Sx.Str(unescape(t, problems), origin(t)) : new Sx.Atom(t.text(), origin(t));
        }

        @Override public Sx group(Token open, Token close, List<Sx> items) { return new Sx.SList(items, open.text().equals("["), origin(open)); }

        @Override public Sx quote(Token quote, Sx datum) { return new Sx.Quote(datum, origin(quote)); }

        @Override public Diagnostic badToken(Token t) {
            if (t.role() == Token.Role.LEXER_ERROR) return NormanCode.BAD_TOKEN.at(origin(t), t.text());
            String what = t.text().equals("\"") ? "a string that is never closed" : "unexpected character '" + t.text() + "'";
            return NormanCode.BAD_TOKEN.at(origin(t), what, "\"", "end of input");
        }

        @Override public Diagnostic strayCloser(Token close) {
            return NormanCode.BRACKETS.at(origin(close), "unexpected '" + close.text() + "': nothing is open");
        }

        @Override public Diagnostic mismatchedCloser(Token open, Token close) {
            Origin o = origin(open);
            String want = Token.closerOf(open.text());
            return NormanCode.BRACKETS.at(origin(close), "'" + close.text() + "' does not match the '" + open.text() + "' at "
                    + o.line() + ":" + o.column(), want, close.text());
        }

        @Override public Diagnostic danglingQuote(Token quote, Token next) {
            return NormanCode.BRACKETS.at(origin(quote), "this ' quotes nothing: a datum must follow it", "a datum", "nothing");
        }

        @Override public Diagnostic unclosed(Token open, Token end, int depth) {
            String want = Token.closerOf(open.text());
            return NormanCode.BRACKETS.at(origin(open), "'" + open.text() + "' is never closed: add '" + want + "'", want, "end of input");
        }

        /** Decodes the three escapes of the reference; any other backslash sequence is a bad token. */
        private String unescape(Token t, Consumer<Diagnostic> problems) {
            String raw = t.text();
            StringBuilder b = new StringBuilder(raw.length());
            for (int i = 1; i < raw.length() - 1; i++) {
                char c = raw.charAt(i);
                if (c != '\\') { b.append(c); continue; }
                char n = raw.charAt(++i);
                switch (n) {
                    case '"': b.append('"'); break;
                    case '\\': b.append('\\'); break;
                    case 'n': b.append('\n'); break;
                    default:
                        problems.accept(NormanCode.BAD_TOKEN.at(origin(t), "unknown escape '\\" + n + "' in a string; only \\\", \\\\ and \\n exist",
                                "\\\" \\\\ \\n", "\\" + n));
                }
            }
            return b.toString();
        }
    }
}
