package dev.finch.norman;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.DiagnosticException;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import dev.finch.ir.limit.CompileBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/**
 * Reads µNorman text into datums ({@code datum : '(' datum* ')' | '[' datum* ']' | '\'' datum | STRING | ATOM}) in
 * one pass over the lexer's tokens, with an explicit stack of what is open: it never recurses in the input's nesting,
 * and it counts every token and every level of nesting (brackets and quotes) against the submission's
 * {@link CompileBudget} as they arrive, so a text of a million open brackets is refused at the first bracket past the
 * limit ({@code E-LIMIT-012}) and a flood of tokens at the first past the token limit ({@code E-LIMIT-011}). Below the
 * limit, a datum nests at most {@code maxNesting} deep, which bounds the recursion of every later phase. An unclosed
 * or mismatched bracket points at the bracket itself; ANTLR's console listener is replaced by a collector.
 *
 * <p>One reader serves one submission: the files a program uses are read by the same reader, so their tokens count
 * toward the one budget.
 */
public final class Reader {
    private final CompileBudget budget;
    /** Tokens read so far, across every file of the submission. */
    private long tokens;

    /** A reader whose tokens and nesting count against {@code budget}, across every file it reads. */
    Reader(CompileBudget budget) { this.budget = java.util.Objects.requireNonNull(budget, "budget"); }

    /** Reads every datum of {@code text} under a fresh default budget, or throws a {@link DiagnosticException}. */
    public static List<Sx> read(String text, String sourceId) { return read(text, sourceId, CompileBudget.standard()); }

    /**
     * Reads every datum of {@code text}, counting against {@code budget}; throws a {@link DiagnosticException} with the
     * parse diagnostics, or with the limit that was crossed.
     */
    public static List<Sx> read(String text, String sourceId, CompileBudget budget) { return new Reader(budget).file(text, sourceId); }

    /** Reads one file of the submission (see {@link #read(String, String, CompileBudget)}). */
    List<Sx> file(String text, String sourceId) { return new Pass(sourceId).run(text); }

    /** What is open while reading: a bracketed group collecting its items, or a quote waiting for its datum. */
    private sealed interface Open permits Group, Quoted { }

    private record Group(Token open, boolean bracket, List<Sx> items) implements Open { }

    private record Quoted(Origin at) implements Open { }

    /** The state of reading one file. */
    private final class Pass {
        private final String sourceId;
        private final Deque<Open> open = new ArrayDeque<>();
        private final List<Sx> datums = new ArrayList<>();
        /** The first malformed token, which is reported before anything else. */
        private Diagnostic badToken;
        /** The first structural error (a bracket, a dangling quote); nothing more is built after it. */
        private Diagnostic structure;
        private final List<Diagnostic> escapes = new ArrayList<>();

        Pass(String sourceId) { this.sourceId = sourceId; }

        List<Sx> run(String text) {
            NormanLexer lexer = new NormanLexer(CharStreams.fromString(text, sourceId));
            lexer.removeErrorListeners();
            lexer.addErrorListener(new Collector());
            for (Token t = lexer.nextToken(); t.getType() != Token.EOF; t = lexer.nextToken()) {
                budget.tokens(++tokens, origin(t));
                if (t.getType() == NormanLexer.BAD) {
                    if (badToken == null) {
                        String what = t.getText().equals("\"") ? "a string that is never closed" : "unexpected character '" + t.getText() + "'";
                        badToken = NormanCode.BAD_TOKEN.at(origin(t), what, "\"", "end of input");
                    }
                } else if (structure == null) {
                    token(t);
                }
            }
            if (structure == null && !open.isEmpty()) structure = unclosed(open.peek());
            if (badToken != null) throw new DiagnosticException(badToken);
            if (structure != null) throw new DiagnosticException(structure);
            if (!escapes.isEmpty()) throw new DiagnosticException(escapes);
            return datums;
        }

        private void token(Token t) {
            switch (t.getType()) {
                case NormanLexer.LPAREN, NormanLexer.LBRACKET -> push(new Group(t, t.getType() == NormanLexer.LBRACKET, new ArrayList<>()), t);
                case NormanLexer.QUOTE -> push(new Quoted(origin(t)), t);
                case NormanLexer.RPAREN, NormanLexer.RBRACKET -> close(t);
                case NormanLexer.STRING -> complete(new Sx.Str(unescape(t), origin(t)));
                default -> complete(new Sx.Atom(t.getText(), origin(t)));
            }
        }

        private void push(Open o, Token t) {
            open.push(o);
            budget.nesting(Phase.PARSE, open.size(), origin(t));
        }

        private void close(Token t) {
            String s = t.getText();
            Open top = open.peek();
            if (top == null) {
                structure = NormanCode.BRACKETS.at(origin(t), "unexpected '" + s + "': nothing is open");
            } else if (top instanceof Quoted q) {
                structure = danglingQuote(q);
            } else {
                Group g = (Group) open.pop();
                String want = g.bracket() ? "]" : ")";
                if (!want.equals(s)) {
                    Origin o = origin(g.open());
                    structure = NormanCode.BRACKETS.at(origin(t), "'" + s + "' does not match the '" + g.open().getText() + "' at "
                            + o.line() + ":" + o.column(), want, s);
                } else {
                    complete(new Sx.SList(g.items(), g.bracket(), origin(g.open())));
                }
            }
        }

        /** A datum is complete: the quotes waiting for it wrap it, and it joins the group it is in (or the file). */
        private void complete(Sx datum) {
            Sx d = datum;
            while (open.peek() instanceof Quoted q) {
                open.pop();
                d = new Sx.Quote(d, q.at());
            }
            if (open.peek() instanceof Group g) g.items().add(d);
            else datums.add(d);
        }

        private Diagnostic unclosed(Open o) {
            if (o instanceof Quoted q) return danglingQuote(q);
            Group g = (Group) o;
            String want = g.bracket() ? "]" : ")";
            return NormanCode.BRACKETS.at(origin(g.open()), "'" + g.open().getText() + "' is never closed: add '" + want + "'", want, "end of input");
        }

        private Diagnostic danglingQuote(Quoted q) {
            return NormanCode.BRACKETS.at(q.at(), "this ' quotes nothing: a datum must follow it", "a datum", "nothing");
        }

        /** Decodes the three escapes of the reference; any other backslash sequence is a bad token. */
        private String unescape(Token t) {
            String raw = t.getText();
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
                        escapes.add(NormanCode.BAD_TOKEN.at(origin(t), "unknown escape '\\" + n + "' in a string; only \\\", \\\\ and \\n exist",
                                "\\\" \\\\ \\n", "\\" + n));
                }
            }
            return b.toString();
        }

        private Origin origin(Token t) { return Origin.of(sourceId, t.getLine(), t.getCharPositionInLine() + 1); }

        /** Turns the lexer's errors (none are expected: every character lexes) into diagnostics. */
        private final class Collector extends BaseErrorListener {
            @Override
            public void syntaxError(Recognizer<?, ?> r, Object symbol, int line, int col, String msg, RecognitionException e) {
                if (badToken == null) badToken = NormanCode.BAD_TOKEN.at(Origin.of(sourceId, line, col + 1), msg);
            }
        }
    }
}
