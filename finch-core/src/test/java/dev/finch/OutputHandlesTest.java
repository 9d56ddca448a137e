package dev.finch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.OutputEvent;
import dev.finch.vm.OutputSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Output handles through the public Session API (issue 21, item 4), in both tiers and both frontends: events reach the
 * run's sink in order and the outcome records them (coalesced, bounded); a host refuses a kind; a handle is run-owned;
 * an open handle cannot pause durably, a closed one's events survive a saved pause.
 */
class OutputHandlesTest {
    private static Session session(Finch.Tier tier) { return Finch.builder().tier(tier).build().newSession(); }

    private static Outcome run(Session s, String program, OutputSink sink) {
        Submission sub = Submission.of(program, "t").withSink(sink);
        return s.submit(program.strip().startsWith("(") ? sub.withLanguage(Language.LISP) : sub.withLanguage(Language.FORTH));
    }

    private static List<String> codes(Outcome o) { return o.diagnostics().stream().map(Diagnostic::code).toList(); }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void theSinkSeesEveryEventInOrderAndTheOutcomeCoalescesReplaces(Finch.Tier tier) {
        List<OutputEvent> seen = new ArrayList<>();
        Outcome o = run(session(tier), "\"a\" say \"job\" output-open 0 begin dup 5 < while over over int-to-string output-replace 1 + repeat drop "
                + "dup 1 1 output-progress output-close \"b\" say", OutputSink.events(seen::add));
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(seen).containsExactly(new OutputEvent.Say("a"), new OutputEvent.Open(1, "job"),
                new OutputEvent.Replace(1, "0"), new OutputEvent.Replace(1, "1"), new OutputEvent.Replace(1, "2"),
                new OutputEvent.Replace(1, "3"), new OutputEvent.Replace(1, "4"), new OutputEvent.Progress(1, 1, 1),
                new OutputEvent.Close(1), new OutputEvent.Say("b"));
        assertThat(o.events()).containsExactly(new OutputEvent.Say("a"), new OutputEvent.Open(1, "job"), new OutputEvent.Replace(1, "4"),
                new OutputEvent.Progress(1, 1, 1), new OutputEvent.Close(1), new OutputEvent.Say("b"));
        assertThat(o.output()).isEqualTo("ab");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void lispOpensReplacesAndClosesStackNeutrally(Finch.Tier tier) {
        List<OutputEvent> seen = new ArrayList<>();
        Outcome o = run(session(tier), "(define h (output-open \"lisp\")) (output-replace h \"x\") (output-progress h 2 4) (output-close h) 7",
                OutputSink.events(seen::add));
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly("7");
        assertThat(seen).containsExactly(new OutputEvent.Open(1, "lisp"), new OutputEvent.Replace(1, "x"),
                new OutputEvent.Progress(1, 2, 4), new OutputEvent.Close(1));
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aHostileReplaceLoopKeepsTheRecordSmall(Finch.Tier tier) {
        // 200,000 replaces of one handle, then 50,000 rounds over two: the record stays a handful of events, under 1 KiB of limit.
        Session s = Finch.builder().tier(tier).maxOutputBytes(1024).build().newSession();
        Outcome one = run(s, "\"x\" output-open 0 begin dup 200000 < while over \"working on it\" output-replace 1 + repeat drop output-close",
                OutputSink.NONE);
        assertThat(one).as("%s", one).isInstanceOf(Outcome.Completed.class);
        assertThat(one.events()).hasSize(3);
        Outcome two = run(s, "\"a\" output-open \"b\" output-open 0 begin dup 50000 < while rot dup \"x\" output-replace rot dup 1 2 output-progress "
                + "rot 1 + repeat drop output-close output-close", OutputSink.NONE);
        assertThat(two).as("%s", two).isInstanceOf(Outcome.Completed.class);
        assertThat(two.events()).hasSize(6);
        Outcome lisp = run(s, "(let ((h (output-open \"p\")) (i 0)) (while (< i 100000) (output-progress h i 100000) (set! i (+ i 1))) (output-close h))",
                OutputSink.NONE);
        assertThat(lisp).as("%s", lisp).isInstanceOf(Outcome.Completed.class);
        assertThat(lisp.events()).containsExactly(new OutputEvent.Open(1, "p"), new OutputEvent.Progress(1, 99999, 100000), new OutputEvent.Close(1));
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void interleavedHandlesKeepTheirLastUpdateAtTheirFirstPlace(Finch.Tier tier) {
        Outcome o = run(session(tier), "\"a\" output-open :> a \"b\" output-open :> b a \"a1\" output-replace b \"b1\" output-replace "
                + "a \"a2\" output-replace a 1 2 output-progress b output-close a 2 2 output-progress", OutputSink.NONE);
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        // Until b's close: a's last replace at a's first place, then b's; after it, a new stretch. a is closed as the run ends.
        assertThat(o.events()).containsExactly(new OutputEvent.Open(1, "a"), new OutputEvent.Open(2, "b"), new OutputEvent.Replace(1, "a2"),
                new OutputEvent.Replace(2, "b1"), new OutputEvent.Progress(1, 1, 2), new OutputEvent.Close(2), new OutputEvent.Progress(1, 2, 2),
                new OutputEvent.Close(1));
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aSinkThatThrowsDoesNotAffectTheProgram(Finch.Tier tier) {
        OutputSink broken = OutputSink.events(e -> { throw new IllegalStateException("display gone"); });
        Outcome o = run(session(tier), "\"x\" output-open dup 1 1 output-progress output-close \"ok\" say", broken);
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.events()).hasSize(4);
        assertThat(o.output()).isEqualTo("ok");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void eventsThatAreKeptCountAgainstTheOutputLimit(Finch.Tier tier) {
        Session s = Finch.builder().tier(tier).maxOutputBytes(1000).build().newSession();
        Outcome o = run(s, "0 begin dup 100 < while \"step\" output-open output-close 1 + repeat", OutputSink.NONE);
        assertThat(codes(o)).containsExactly("E-LIMIT-004");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aHostRefusesAKindAndTheWordFails(Finch.Tier tier) {
        Session s = session(tier);
        List<OutputEvent> seen = new ArrayList<>();
        OutputSink noProgress = OutputSink.events(seen::add).refusing(Set.of(OutputEvent.Kind.PROGRESS));
        Outcome o = run(s, "\"x\" output-open dup \"fine\" output-replace 1 2 output-progress", noProgress);
        assertThat(codes(o)).containsExactly("E-OUTPUT-002");
        // Nothing of the refused event was recorded or delivered; the run's open handle was closed as it ended.
        assertThat(seen).containsExactly(new OutputEvent.Open(1, "x"), new OutputEvent.Replace(1, "fine"), new OutputEvent.Close(1));
        assertThat(o.events()).containsExactlyElementsOf(seen);
        Outcome quiet = run(s, "(say \"hi\")", OutputSink.NONE.refusing(Set.of(OutputEvent.Kind.SAY)));
        assertThat(codes(quiet)).containsExactly("E-OUTPUT-002");
        assertThat(quiet.output()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aHandleIsRunOwnedAndClosedWhenItsRunEnds(Finch.Tier tier) {
        Session s = session(tier);
        Outcome first = run(s, "\"left open\" output-open", OutputSink.NONE);
        assertThat(first).as("%s", first).isInstanceOf(Outcome.Completed.class);
        assertThat(first.events()).containsExactly(new OutputEvent.Open(1, "left open"), new OutputEvent.Close(1));
        assertThat(first.stack()).extracting(StackEntry::type).containsExactly("resource<output>");
        Outcome later = run(s, "\"too late\" output-replace", OutputSink.NONE);
        assertThat(codes(later)).containsExactly("E-OUTPUT-001");
        assertThat(later.diagnostics().get(0).message()).contains("output#1").contains("closed or belongs to another run");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void anOpenHandleSurvivesASavedPauseAndAClosedOnesEventsToo(Finch.Tier tier) {
        Finch finch = Finch.builder().tier(tier).imageKey(new byte[32]).build();
        Session s = finch.newSession();
        // The handle is held across the pause: the restored run goes on replacing and closing it.
        Outcome open = run(s, "\"x\" output-open dup \"half\" output-replace unit yield dup \"all\" output-replace output-close", OutputSink.NONE);
        assertThat(open).as("%s", open).isInstanceOf(Outcome.Suspended.class);
        List<OutputEvent> streamed = new java.util.ArrayList<>();
        Session back = Finch.builder().tier(tier).imageKey(new byte[32]).build().restore(s.save(open.executionId()));
        Outcome finished = back.resume(open.executionId());
        assertThat(finished).as("%s", finished).isInstanceOf(Outcome.Completed.class);
        // The replace after the pause coalesces with the one before it, as it would have in place.
        assertThat(finished.events()).containsExactly(new OutputEvent.Open(1, "x"), new OutputEvent.Replace(1, "all"), new OutputEvent.Close(1));
        Session t = finch.newSession();
        Outcome closed = run(t, "\"x\" output-open dup \"half\" output-replace output-close \"mid\" say 1 yield \"y\" output-open output-close", OutputSink.NONE);
        assertThat(closed).as("%s", closed).isInstanceOf(Outcome.Suspended.class);
        String image = t.save(closed.executionId());
        Session restored = Finch.builder().tier(tier).imageKey(new byte[32]).build().restore(image);
        Outcome done = restored.resume(closed.executionId());
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.events()).containsExactly(new OutputEvent.Open(1, "x"), new OutputEvent.Replace(1, "half"), new OutputEvent.Close(1),
                new OutputEvent.Say("mid"), new OutputEvent.Open(2, "y"), new OutputEvent.Close(2));
    }
}
