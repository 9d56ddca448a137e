package dev.finch.lisp.syntax;

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

    /**
     * The open delimiters, innermost last: each one's character, line and column, and how many quote prefixes were
     * pending before it (they end with its datum). Parallel arrays, not an object per delimiter: every submission is
     * scanned.
     */
    private static final class Opens {
        private char[] ch = new char[16];
        private int[] line = new int[16];
        private int[] column = new int[16];
        private int[] quotesBefore = new int[16];
        private int size;

        void push(char c, int l, int col, int quotes) {
            if (size == ch.length) {
                int n = size * 2;
                ch = java.util.Arrays.copyOf(ch, n);
                line = java.util.Arrays.copyOf(line, n);
                column = java.util.Arrays.copyOf(column, n);
                quotesBefore = java.util.Arrays.copyOf(quotesBefore, n);
            }
            ch[size] = c;
            line[size] = l;
            column[size] = col;
            quotesBefore[size] = quotes;
            size++;
        }
    }

    private DelimiterScan() { }

    /** Scans the whole text, however deeply it nests. */
    public static Result scan(String text) { return scan(text, Integer.MAX_VALUE); }

    /** Scans the text, stopping with {@link Status#TOO_DEEP} where it first nests deeper than {@code maxNesting}. */
    public static Result scan(String text, int maxNesting) {
        Opens stack = new Opens();
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
                if (!closed) return new Result(Status.UNTERMINATED_STRING, sLine, sCol, '"', stack.size);
                continue;
            }
            if (cp == ';') {
                while (i < text.length() && text.charAt(i) != '\n') i++;
                continue;
            }
            if (cp == '(' || cp == '[' || cp == '{') {
                if (++depth > maxNesting) return new Result(Status.TOO_DEEP, line, col, (char) cp, depth);
                stack.push((char) cp, line, col, quotes);
                quotes = 0;
            } else if (cp == ')' || cp == ']' || cp == '}') {
                if (stack.size == 0 || stack.ch[stack.size - 1] != opener((char) cp)) {
                    return new Result(Status.UNEXPECTED_CLOSER, line, col, (char) cp, stack.size);
                }
                stack.size--;
                // Quotes left dangling inside the form end with it (the parser reports them), and so do those before it.
                depth -= quotes + 1 + stack.quotesBefore[stack.size];
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
        if (stack.size > 0) {
            int top = stack.size - 1;
            return new Result(Status.UNCLOSED, stack.line[top], stack.column[top], stack.ch[top], stack.size);
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
