package dev.finch.frontend.read;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.diag.Phase;
import java.util.List;
import java.util.function.Consumer;

/**
 * A small s-expression language for the reader's tests: {@code ( [ {} groups, {@code '} quotes, strings with the one
 * escape {@code \"} (any other is a problem), atoms of any other run of characters, and {@code #} as a bad character.
 */
final class Mini {
    private Mini() { }

    /** A datum: a group (with its opener), a quote, or an atom. */
    sealed interface D permits Group, Quote, Atom { }

    record Group(String open, List<D> items) implements D { }

    record Quote(D datum) implements D { }

    record Atom(String text) implements D { }

    /** The datum spelled back: groups with single spaces, atoms as written. */
    static String print(D d) {
        if (d instanceof Atom a) return a.text();
        if (d instanceof Quote q) return "'" + print(q.datum());
        Group g = (Group) d;
        StringBuilder b = new StringBuilder(g.open());
        for (int i = 0; i < g.items().size(); i++) b.append(i > 0 ? " " : "").append(print(g.items().get(i)));
        return b.append(Token.closerOf(g.open())).toString();
    }

    static String print(List<D> ds) {
        StringBuilder b = new StringBuilder();
        for (D d : ds) b.append(b.length() > 0 ? " " : "").append(print(d));
        return b.toString();
    }

    static final int STRING = 1;
    static final int WORD = 2;

    /** The tokens of {@code text}. */
    static TokenSource lex(String text) {
        return new TokenSource() {
            private int i;
            private int line = 1;
            private int col = 1;

            @Override public Token next() {
                while (i < text.length() && Character.isWhitespace(text.charAt(i))) advance();
                if (i >= text.length()) return new Token(Token.Role.END, -1, "<EOF>", line, col, i, i - 1);
                int start = i;
                int l = line;
                int c = col;
                char ch = text.charAt(i);
                Token.Role role = switch (ch) {
                    case '(', '[', '{' -> Token.Role.OPEN;
                    case ')', ']', '}' -> Token.Role.CLOSE;
                    case '\'' -> Token.Role.QUOTE;
                    case '#' -> Token.Role.BAD;
                    default -> null;
                };
                if (role != null) {
                    advance();
                    return new Token(role, 0, String.valueOf(ch), l, c, start, start);
                }
                if (ch == '"') {
                    advance();
                    while (i < text.length() && text.charAt(i) != '"') {
                        if (text.charAt(i) == '\\') advance();
                        advance();
                    }
                    advance();
                    return new Token(Token.Role.ATOM, STRING, text.substring(start, Math.min(i, text.length())), l, c, start, i - 1);
                }
                while (i < text.length() && "()[]{}'\"# \t\n".indexOf(text.charAt(i)) < 0) advance();
                return new Token(Token.Role.ATOM, WORD, text.substring(start, i), l, c, start, i - 1);
            }

            private void advance() {
                if (i < text.length() && text.charAt(i) == '\n') { line++; col = 1; } else col++;
                i++;
            }
        };
    }

    /** Mini's datums, with every diagnostic naming what it found. */
    static final DatumReader.Dialect<D> DIALECT = new DatumReader.Dialect<>() {
        @Override public D atom(Token atom, Consumer<Diagnostic> problems) {
            if (atom.type() == STRING && atom.text().replace("\\\"", "").contains("\\")) problems.accept(diag(atom, "escape " + atom.text()));
            return new Atom(atom.text());
        }

        @Override public D group(Token open, Token close, List<D> items) { return new Group(open.text(), items); }

        @Override public D quote(Token quote, D datum) { return new Quote(datum); }

        @Override public Diagnostic badToken(Token bad) { return diag(bad, "bad " + bad.text()); }

        @Override public Diagnostic strayCloser(Token close) { return diag(close, "stray " + close.text()); }

        @Override public Diagnostic mismatchedCloser(Token open, Token close) { return diag(close, "mismatch " + open.text() + close.text()); }

        @Override public Diagnostic danglingQuote(Token quote, Token next) { return diag(quote, "dangling before " + next.text()); }

        @Override public Diagnostic unclosed(Token open, Token end, int depth) { return diag(open, "unclosed " + open.text() + " of " + depth); }
    };

    private static Diagnostic diag(Token t, String message) {
        return new Diagnostic(Phase.PARSE, "E-MINI-001", message, Origin.of("m", t.line(), t.column()), null, null);
    }
}
