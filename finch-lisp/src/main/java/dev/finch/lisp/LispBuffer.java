package dev.finch.lisp;

import dev.finch.lisp.syntax.DelimiterScan;

/**
 * Source framing for Lisp (contract: "Lisp is buffered until its delimiters balance"): feed chunks, ask whether
 * the buffered text is a complete submission. Parentheses inside strings and comments do not count. Not thread-safe.
 */
public final class LispBuffer {
    private final StringBuilder text = new StringBuilder();

    /** Appends a chunk of source. */
    public LispBuffer feed(String chunk) {
        text.append(chunk);
        return this;
    }

    /**
     * True when the buffered text holds at least one datum and every delimiter and string is closed. A stray closer
     * also counts as complete: more input cannot repair it, so the submission goes on to report the parse error.
     */
    public boolean isComplete() {
        DelimiterScan.Result r = DelimiterScan.scan(text.toString());
        if (r.status() == DelimiterScan.Status.UNEXPECTED_CLOSER) return true;
        return r.balanced() && hasDatum();
    }

    /** How many delimiters are open at the end of the buffered text (0 when balanced). */
    public int openDepth() {
        DelimiterScan.Result r = DelimiterScan.scan(text.toString());
        return r.status() == DelimiterScan.Status.UNCLOSED ? r.depth() : 0;
    }

    /** The buffered text. */
    public String text() { return text.toString(); }

    /** Returns the buffered text and empties the buffer. */
    public String take() {
        String s = text.toString();
        text.setLength(0);
        return s;
    }

    /** Empties the buffer. */
    public void clear() { text.setLength(0); }

    private boolean hasDatum() {
        boolean comment = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (comment) { if (c == '\n') comment = false; continue; }
            if (c == ';') comment = true;
            else if (!Character.isWhitespace(c)) return true;
        }
        return false;
    }
}
