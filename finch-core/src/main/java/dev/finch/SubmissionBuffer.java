package dev.finch;

import dev.finch.forth.ForthBuffer;
import dev.finch.lisp.LispBuffer;
import dev.finch.vm.OutputSink;
import java.util.Objects;
import java.util.Optional;

/**
 * Incremental source framing for one session (contract: "Co-Forth can be incrementally buffered because words are
 * read left to right, but executes only at an explicit program boundary. Lisp is buffered until its delimiters
 * balance."). {@link #feed} only buffers: nothing is parsed into the session or run, however many chunks arrive,
 * and a chunk may end in the middle of a word. {@link #flush} is the explicit program boundary: the buffered text
 * becomes one submission with this buffer's host-attached source identity. {@link #isComplete} tells a host (a
 * REPL, a streaming provider adapter) whether a boundary now would cut a construct open: for Co-Forth an open
 * definition, string, comment, control structure or bracket; for Lisp unbalanced delimiters.
 *
 * <p>The language is the stated one, else inferred from the buffered text by the contract's rule (first
 * non-whitespace {@code (} means Lisp). Not thread-safe: one producer feeds a buffer.
 */
public final class SubmissionBuffer {
    private final Session session;
    private final String sourceId;
    private final Language language;
    private final OutputSink sink;
    private final StringBuilder text = new StringBuilder();

    SubmissionBuffer(Session session, String sourceId, Language language, OutputSink sink) {
        this.session = Objects.requireNonNull(session, "session");
        this.sourceId = Objects.requireNonNull(sourceId, "sourceId");
        this.language = language;
        this.sink = sink == null ? OutputSink.NONE : sink;
    }

    /** This buffer's settings in {@code lang} (null: infer), keeping what is buffered. */
    public SubmissionBuffer withLanguage(Language lang) {
        SubmissionBuffer b = new SubmissionBuffer(session, sourceId, lang, sink);
        b.text.append(text);
        return b;
    }

    /** This buffer's settings with {@code say} chunks streamed to {@code out}, keeping what is buffered. */
    public SubmissionBuffer withSink(OutputSink out) {
        SubmissionBuffer b = new SubmissionBuffer(session, sourceId, language, out);
        b.text.append(text);
        return b;
    }

    /** Appends a chunk; runs nothing. Returns this buffer. */
    public SubmissionBuffer feed(String chunk) {
        if (chunk != null) text.append(chunk);
        return this;
    }

    /** The text buffered since the last boundary. */
    public String pending() { return text.toString(); }

    /** True when nothing but whitespace is buffered. */
    public boolean isBlank() { return text.toString().isBlank(); }

    /** The language a boundary now would submit in. */
    public Language language() { return language != null ? language : Language.infer(text.toString()); }

    /**
     * True when a boundary now would leave no construct open. Blank text is not complete (there is no program).
     * A program already wrong beyond repair (a stray {@code then} or {@code )}) counts as complete, so that
     * flushing it reports the error instead of waiting for input that cannot help.
     */
    public boolean isComplete() {
        if (isBlank()) return false;
        switch (language()) {
            case FORTH: return new ForthBuffer().feed(text.toString()).isComplete();
            case LISP: return new LispBuffer().feed(text.toString()).isComplete();
            default: return true; // µNorman has no incremental framing: the whole text is one file.
        }
    }

    /** The buffered program as a submission, emptying the buffer; empty when nothing but whitespace was buffered. */
    public Optional<Submission> take() {
        if (isBlank()) {
            text.setLength(0);
            return Optional.empty();
        }
        String program = text.toString();
        text.setLength(0);
        return Optional.of(Submission.of(program, sourceId).withLanguage(language != null ? language : Language.infer(program)).withSink(sink));
    }

    /**
     * The explicit program boundary: submits everything buffered as one program and empties the buffer. An
     * incomplete program is submitted too (the boundary is the host's decision) and fails with the frontend's
     * parse diagnostic, committing nothing. Empty when nothing but whitespace was buffered.
     */
    public Optional<Outcome> flush() { return take().map(session::submit); }

    /** The boundary only if it would cut nothing open: submits when {@link #isComplete()}, else keeps buffering. */
    public Optional<Outcome> flushIfComplete() { return isComplete() ? flush() : Optional.empty(); }

    /** Discards what is buffered. */
    public void clear() { text.setLength(0); }
}
