package dev.finch;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;

/**
 * Renders a diagnostic for a person, in the manner of compilers people already read:
 * <pre>
 * error[E-VERIFY-002] verify: `-` needs int int, found string int
 *   --&gt; prog.fth:1:9
 *    |
 *  1 | "x" 1 -
 *    |       ^
 *    = expected: int int
 *    = found:    string int
 * </pre>
 * The source line and caret appear when the origin names a line of the submitted text.
 */
public final class DiagnosticText {
    private DiagnosticText() { }

    /** The diagnostic with the line of {@code source} it points at (null source: no excerpt). */
    public static String render(Diagnostic d, String source) {
        StringBuilder b = new StringBuilder();
        b.append("error[").append(d.code()).append("] ").append(d.phase().spelling()).append(": ").append(d.message()).append('\n');
        Origin o = d.origin();
        if (o.line() > 0) b.append("  --> ").append(o.source()).append(':').append(o.line()).append(':').append(o.column()).append('\n');
        else b.append("  --> ").append(o.source()).append('\n');
        String line = source == null ? null : line(source, o.line());
        if (line != null) {
            String num = Integer.toString(o.line());
            String pad = " ".repeat(num.length());
            b.append(' ').append(pad).append(" |\n");
            b.append(' ').append(num).append(" | ").append(line).append('\n');
            b.append(' ').append(pad).append(" | ").append(caretIndent(line, o.column())).append("^\n");
        }
        if (d.expected() != null) b.append("   = expected: ").append(d.expected()).append('\n');
        if (d.found() != null) b.append("   = found:    ").append(d.found()).append('\n');
        return b.toString();
    }

    /** Line {@code n} (1-based) without its terminator, or null when there is no such line. */
    static String line(String text, int n) {
        if (n <= 0) return null;
        int start = 0;
        for (int i = 1; i < n; i++) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) return null;
            start = nl + 1;
        }
        if (start > text.length()) return null;
        int end = text.indexOf('\n', start);
        String l = text.substring(start, end < 0 ? text.length() : end);
        return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
    }

    /** Spaces up to the column (counted in code points), keeping tabs so the caret lines up under them. */
    static String caretIndent(String line, int column) {
        StringBuilder b = new StringBuilder();
        int cp = 1;
        for (int i = 0; i < line.length() && cp < column; cp++) {
            int c = line.codePointAt(i);
            b.append(c == '\t' ? '\t' : ' ');
            i += Character.charCount(c);
        }
        // A column past the end of the line (an unexpected end of input) points just after it.
        for (; cp < column; cp++) b.append(' ');
        return b.toString();
    }
}
