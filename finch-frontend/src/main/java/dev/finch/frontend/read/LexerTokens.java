package dev.finch.frontend.read;

import java.util.ArrayDeque;

/**
 * A {@link TokenSource} over a lexer that reports its complaints to a listener while it makes a token: the language
 * gives {@link #lex()} (its lexer's next token, as a {@link Token}) and calls {@link #complain} from its lexer's
 * listener; the complaints come out as {@link Token.Role#LEXER_ERROR} tokens before the token they arose in.
 */
public abstract class LexerTokens implements TokenSource {
    private final ArrayDeque<Token> queued = new ArrayDeque<>();

    /** The lexer's next token (its last is {@link Token.Role#END}). */
    protected abstract Token lex();

    /** Records the lexer's complaint {@code message} at {@code line}, {@code column} (1-based). */
    protected final void complain(int line, int column, String message) {
        queued.add(new Token(Token.Role.LEXER_ERROR, -1, message, line, column, -1, -2));
    }

    @Override public final Token next() {
        if (!queued.isEmpty()) return queued.poll();
        Token t = lex();
        if (queued.isEmpty()) return t;
        queued.add(t);
        return queued.poll();
    }
}
