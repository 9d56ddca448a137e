package dev.finch.lisp.syntax;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.misc.Interval;

/**
 * A submission's text as the reader indexes it (by code point, like the lexer), shared by every {@link Sx.Span} cut
 * from it: datums keep offsets, and a form's text is copied only when something asks for it.
 */
public final class SourceText {
    private final CharStream chars;

    SourceText(CharStream chars) { this.chars = chars; }

    /** How many code points the text has. */
    public int length() { return chars.size(); }

    /** The code points {@code start} (inclusive) to {@code end} (exclusive). */
    public String slice(int start, int end) {
        return end <= start ? "" : chars.getText(Interval.of(start, end - 1));
    }
}
