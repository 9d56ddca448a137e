package dev.finch.lisp.syntax;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Scans Lisp source for delimiter balance, skipping strings (with escapes) and {@code ;} comments, so that
 * parentheses inside them do not count. Shared by {@link dev.finch.lisp.LispBuffer} (is a submission complete?)
 * and the reader (an unbalanced form at the end points at its unclosed delimiter).
 *
 * <p>The scan also measures nesting as the reader will see it — every open delimiter and every pending quote
 * prefix ({@code 'x}) is one level — and stops at the first character that nests deeper than its bound, so a
 * hostile input is refused in one pass, without recursion and before anything is tokenized.
 */
public final class DelimiterScan {
    /** The outcome of a scan. */
    public enum Status { BALANCED, UNCLOSED, UNTERMINATED_STRING, UNEXPECTED_CLOSER, TOO_DEEP }

    /**
     * @param status   what was found
     * @param line     1-based line of the offending character (the unclosed opener, the string's quote, the stray closer,
     *                 the delimiter or quote that nests too deep)
     * @param column   1-based column in code points
     * @param found    the offending character, or 0 when balanced
     * @param depth    how many delimiters are open at the end (for UNCLOSED), or the depth reached (for TOO_DEEP)
     */
    public record Result(Status status, int line, int column, char found, int depth) {
        public boolean balanced() { return status == Status.BALANCED; }
    }

    /** An open delimiter, and how many quote prefixes were pending before it (they end with its datum). */
    private record Open(char ch, int line, int column, int quotesBefore) { }

    private DelimiterScan() { }

    /** Scans the whole text, however deeply it nests. */
    public static Result scan(String text) { return scan(text, Integer.MAX_VALUE); }

    /** Scans the text, stopping with {@link Status#TOO_DEEP} where it first nests deeper than {@code maxNesting}. */
    public static Result scan(String text, int maxNesting) {
        Deque<Open> stack = new ArrayDeque<>();
        int depth = 0;
        int quotes = 0;
        int line = 1;
        int col = 1;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int width = Character.charCount(cp);
            if (cp == '"') {
                depth -= quotes;
                quotes = 0;
                int sLine = line;
                int sCol = col;
                i += width;
                col++;
                boolean closed = false;
                while (i < text.length()) {
                    int c = text.codePointAt(i);
                    i += Character.charCount(c);
                    if (c == '\n') { line++; col = 1; } else col++;
                    if (c == '\\' && i < text.length()) {
                        int e = text.codePointAt(i);
                        i += Character.charCount(e);
                        if (e == '\n') { line++; col = 1; } else col++;
                    } else if (c == '"') { closed = true; break; }
                }
                if (!closed) return new Result(Status.UNTERMINATED_STRING, sLine, sCol, '"', stack.size());
                continue;
            }
            if (cp == ';') {
                while (i < text.length() && text.charAt(i) != '\n') i++;
                continue;
            }
            if (cp == '(' || cp == '[' || cp == '{') {
                if (++depth > maxNesting) return new Result(Status.TOO_DEEP, line, col, (char) cp, depth);
                stack.push(new Open((char) cp, line, col, quotes));
                quotes = 0;
            } else if (cp == ')' || cp == ']' || cp == '}') {
                if (stack.isEmpty() || stack.peek().ch() != opener((char) cp)) {
                    return new Result(Status.UNEXPECTED_CLOSER, line, col, (char) cp, stack.size());
                }
                Open open = stack.pop();
                // Quotes left dangling inside the form end with it (the parser reports them), and so do those before it.
                depth -= quotes + 1 + open.quotesBefore();
                quotes = 0;
            } else if (cp == '\'') {
                if (++depth > maxNesting) return new Result(Status.TOO_DEEP, line, col, '\'', depth);
                quotes++;
            } else if (cp != ' ' && cp != '\t' && cp != '\r' && cp != '\n' && cp != '\f') {
                // Any other character is part of an atom, which completes the quotes before it.
                depth -= quotes;
                quotes = 0;
            }
            if (cp == '\n') { line++; col = 1; } else col++;
            i += width;
        }
        if (!stack.isEmpty()) {
            Open top = stack.peek();
            return new Result(Status.UNCLOSED, top.line(), top.column(), top.ch(), stack.size());
        }
        return new Result(Status.BALANCED, line, col, (char) 0, 0);
    }

    /** The opener matching a closer. */
    public static char opener(char closer) {
        return closer == ')' ? '(' : closer == ']' ? '[' : '{';
    }

    /** The closer matching an opener. */
    public static char closer(char opener) {
        return opener == '(' ? ')' : opener == '[' ? ']' : '}';
    }
}
