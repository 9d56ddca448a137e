package dev.finch.forth;

import java.util.List;
import java.util.Optional;
import org.antlr.v4.runtime.Token;

/**
 * Incremental buffering of Co-Forth source (contract: words are read left to right, but a program executes only
 * at an explicit boundary). Feed chunks as they arrive; {@link #isComplete()} says whether a boundary here would
 * cut nothing open (a definition, string, comment, bracket or control construct). A program that is already
 * wrong beyond repair (for example a stray {@code then}) counts as complete, so submitting it reports the error.
 */
public final class ForthBuffer {
    private final StringBuilder text = new StringBuilder();

    /** Appends a chunk; returns this buffer. */
    public ForthBuffer feed(String chunk) {
        if (chunk != null) text.append(chunk);
        return this;
    }

    /** The text buffered so far. */
    public String text() { return text.toString(); }

    /** True when no construct is open, i.e. the buffered text may be submitted as one program. */
    public boolean isComplete() {
        String s = text.toString();
        List<Token> tokens = CoForth.tokens(s);
        for (int i = tokens.size() - 1; i >= 0; i--) {
            Token t = tokens.get(i);
            if (t.getType() == Token.EOF) continue;
            // A string cannot span lines, so an unclosed one is incomplete only while its line is still arriving.
            if (t.getType() == CoForthLexer.UNTERMINATED_STRING && t.getStopIndex() >= s.length() - 1) return false;
            if (t.getType() == CoForthParser.UNCLOSED_PAREN) return false;
            break;
        }
        Structure.Result r = Structure.scan(tokens, "<buffer>");
        if (r.needsMore()) return false;
        return r.error().isPresent() || r.open().isEmpty();
    }

    /** The buffered program and an empty buffer, when {@link #isComplete()}; otherwise empty and unchanged. */
    public Optional<String> take() {
        if (!isComplete()) return Optional.empty();
        String program = text.toString();
        text.setLength(0);
        return Optional.of(program);
    }
}
