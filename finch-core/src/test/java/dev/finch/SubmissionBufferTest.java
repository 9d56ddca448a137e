package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)   // a hang guard per test (each takes milliseconds); nothing here bounds wall time
class SubmissionBufferTest {
    private final Finch finch = Finch.builder().timeout(Duration.ofSeconds(10)).build();

    @Test
    void forthChunksRunNothingUntilTheBoundary() {
        Session s = finch.newSession();
        StringBuilder said = new StringBuilder();
        SubmissionBuffer b = s.buffer("editor-1").withSink(said::append);
        b.feed(": sq ( int -- int ) ").feed("dup * ;").feed(" 7 sq \"done\" say");
        assertThat(b.isComplete()).isTrue();
        // Fed, complete, but not run: the session is untouched and nothing was said.
        assertThat(s.vmRevision()).isZero();
        assertThat(s.getVmState().definitions()).isEmpty();
        assertThat(said).isEmpty();
        Outcome o = b.flush().orElseThrow();
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.sourceId()).isEqualTo("editor-1");
        assertThat(o.language()).isEqualTo("forth");
        assertThat(o.stack()).containsExactly(new StackEntry("int", "49"));
        assertThat(said.toString()).isEqualTo("done");
        assertThat(b.pending()).isEmpty();
    }

    @Test
    void aWordMayBeSplitAcrossChunks() {
        Session s = finch.newSession();
        SubmissionBuffer b = s.buffer("stream").withLanguage(Language.FORTH);
        b.feed("1").feed("2").feed("3 d").feed("up +");
        assertThat(b.flush().orElseThrow().stack()).containsExactly(new StackEntry("int", "246"));
    }

    @Test
    void anOpenDefinitionStringOrControlIsIncomplete() {
        SubmissionBuffer b = finch.newSession().buffer("x");
        assertThat(b.feed(": sq ( int -- int ) dup").isComplete()).isFalse();
        b.feed(" * ;");
        assertThat(b.isComplete()).isTrue();
        b.clear();
        assertThat(b.feed("1 if 2").isComplete()).isFalse();
        assertThat(b.feed(" then").isComplete()).isTrue();
        b.clear();
        assertThat(b.feed("\"unclosed").isComplete()).isFalse();
        b.clear();
        assertThat(b.isComplete()).as("blank is no program").isFalse();
        assertThat(b.flush()).isEmpty();
    }

    @Test
    void flushingAnIncompleteProgramReportsTheParseErrorAndCommitsNothing() {
        Session s = finch.newSession();
        SubmissionBuffer b = s.buffer("x");
        b.feed("5 : half ( int -- int ) 2 /");
        assertThat(b.flushIfComplete()).isEmpty();
        assertThat(b.pending()).isNotEmpty();
        Outcome o = b.flush().orElseThrow();
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        // The frontend's own diagnostic for the open definition (its structure check runs while lowering).
        assertThat(o.diagnostics().get(0).code()).startsWith("E-FORTH-");
        assertThat(o.diagnostics().get(0).phase().spelling()).isIn("parse", "lower");
        assertThat(s.vmRevision()).isZero();
        assertThat(b.pending()).isEmpty();
    }

    @Test
    void lispIsBufferedUntilItsDelimitersBalance() {
        Session s = finch.newSession();
        SubmissionBuffer b = s.buffer("chat");
        b.feed("(define (greet [n : string])\n");
        assertThat(b.language()).isEqualTo(Language.LISP);
        assertThat(b.isComplete()).isFalse();
        assertThat(b.flushIfComplete()).isEmpty();
        b.feed("  (say (string-append \"hi \" n)))");
        assertThat(b.isComplete()).isTrue();
        assertThat(b.flushIfComplete().orElseThrow().status()).isEqualTo(Outcome.Status.COMPLETED);
        b.feed("(greet \"a )( b\")");  // delimiters inside strings do not count
        Outcome o = b.flushIfComplete().orElseThrow();
        assertThat(o.output()).isEqualTo("hi a )( b");
        assertThat(o.language()).isEqualTo("lisp");
    }

    @Test
    void takeGivesTheSubmissionForTheHostToDecorate() {
        Session s = finch.newSession();
        SubmissionBuffer b = s.buffer("turn-9");
        b.feed("1 2 +");
        Submission sub = b.take().orElseThrow().expecting(0, 1);
        assertThat(sub.sourceId()).isEqualTo("turn-9");
        assertThat(s.submit(sub).stack()).containsExactly(new StackEntry("int", "3"));
        assertThat(b.take()).isEmpty();
    }
}
