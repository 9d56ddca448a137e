package dev.finch.frontend.read;

/**
 * A language's lexer as the datum reader reads it: one {@link Token} at a time, in source order, ending with exactly
 * one {@link Token.Role#END}. A lexer's own complaints come as {@link Token.Role#LEXER_ERROR} tokens, in the order they
 * arise.
 */
@FunctionalInterface
public interface TokenSource {
    /** The next token; after {@link Token.Role#END} it is not asked again. */
    Token next();
}
