package dev.finch.lisp.syntax;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Scans Lisp source for delimiter balance, skipping strings (with escapes) and {@code ;} comments, so that
 * parentheses inside them do not count. Shared by {@link dev.finch.lisp.LispBuffer} (is a submission complete?)
 * and the reader (an unbalanced form at the end points at its unclosed delimiter).
 */
public final class DelimiterScan {
    /** The outcome of a scan. */
    public enum Status { BALANCED, UNCLOSED, UNTERMINATED_STRING, UNEXPECTED_CLOSER }

    /**
     * @param status   what was found
     * @param line     1-based line of the offending character (the unclosed opener, the string's quote, the stray closer)
     * @param column   1-based column in code points
     * @param found    the offending character, or 0 when balanced
     * @param depth    how many delimiters are open at the end (for UNCLOSED)
     */
    public record Result(Status status, int line, int column, char found, int depth) {
        public boolean balanced() { return status == Status.BALANCED; }
    }

    private record Open(char ch, int line, int column) { }

    private DelimiterScan() { }

    /** Scans the whole text. */
    public static Result scan(String text) {
        Deque<Open> stack = new ArrayDeque<>();
        int line = 1;
        int col = 1;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int width = Character.charCount(cp);
            if (cp == '"') {
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
            if (cp == '(' || cp == '[' || cp == '{') stack.push(new Open((char) cp, line, col));
            else if (cp == ')' || cp == ']' || cp == '}') {
                if (stack.isEmpty() || stack.peek().ch() != opener((char) cp)) {
                    return new Result(Status.UNEXPECTED_CLOSER, line, col, (char) cp, stack.size());
                }
                stack.pop();
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
