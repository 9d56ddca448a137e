package dev.finch.frontend.read;

import dev.finch.ir.diag.Origin;
import java.util.Objects;

/**
 * One token as the datum reader sees it: the part it plays in a datum ({@link Role}), the lexer's own type (which the
 * language reads back when it makes an atom), its text, and where it is.
 *
 * @param role   what the token does to the datum structure
 * @param type   the lexer's token type, for the language to tell its atoms apart
 * @param text   the token's text (for {@link Role#LEXER_ERROR}, the lexer's message)
 * @param line   1-based line
 * @param column 1-based column, in code points
 * @param start  the index of its first code point in the source
 * @param stop   the index of its last code point (inclusive; {@code start - 1} for an empty token such as the end)
 */
public record Token(Role role, int type, String text, int line, int column, int start, int stop) {
    /** The part a token plays. */
    public enum Role {
        /** <code>(</code>, <code>[</code> or <code>{</code>: opens a group that the matching closer ends. */
        OPEN,
        /** <code>)</code>, <code>]</code> or <code>}</code>. */
        CLOSE,
        /** {@code '}: applies to the datum after it. */
        QUOTE,
        /** Anything that is a datum by itself: a string, a number, a symbol. */
        ATOM,
        /** A character no token of the language starts with (counted as a token, never part of a datum). */
        BAD,
        /** A message from the lexer itself (not a token: it is not counted). */
        LEXER_ERROR,
        /** The end of the text (exactly once, last). */
        END
    }

    public Token {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
    }

    /** Where the token is, in source {@code sourceId}. */
    public Origin at(String sourceId) { return Origin.of(sourceId, line, column); }

    /** The closer that ends a group {@code opener} opens: ")" for "(", "]" for "[", "}" for "{". */
    public static String closerOf(String opener) {
        switch (opener) {
            case "(": return ")";
            case "[": return "]";
            case "{": return "}";
            default: throw new IllegalArgumentException("not an opener: " + opener);
        }
    }
}
