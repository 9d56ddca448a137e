package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.Value;
import dev.finch.host.EditorHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21, item 2: editor-backed proposals. proposal-open needs program.invoke(language=L) for exactly its
 * language, answers execute / chat / cancel as option<result<string,string>> data (never running the proposal), and
 * without an editor host always waits for the embedder's answer.
 */
class ProposalTest {
    private static final String PROPOSE = "(proposal-open \"python\" \"Count lines\" \"print(len(open('a').readlines()))\")";

    /** An editor that records what it was shown and decides as told. */
    private static final class Recording implements EditorHost {
        final List<String> shown = new ArrayList<>();
        final Decision decision;

        Recording(Decision decision) { this.decision = decision; }

        @Override public Decision propose(String language, String title, String source) {
            shown.add(language + "|" + title + "|" + source);
            return decision;
        }
    }

    private static Session session(EditorHost editor, String... grants) {
        SessionOptions o = SessionOptions.builder().grants(List.of(grants)).build();
        return Finch.create().newSession(editor == null ? o : o.withEditorHost(editor));
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void executeChatAndCancelAreDataForTheProgram(Finch.Tier tier) {
        Recording execute = new Recording(new EditorHost.Decision.Execute("print(2)"));
        Session s = Finch.builder().tier(tier).build().newSession(SessionOptions.builder().grants(List.of("program.invoke(language=python)")).build()
                .withEditorHost(execute));
        Outcome o = s.submit(Submission.of(PROPOSE, "p.lisp"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack().get(0).display()).isEqualTo("(some (ok \"print(2)\"))");
        assertThat(o.stack().get(0).type()).isEqualTo("option<result<string,string>>");
        assertThat(execute.shown).containsExactly("python|Count lines|print(len(open('a').readlines()))");
        Outcome chat = session(new Recording(new EditorHost.Decision.Chat("why lines?")), "program.invoke(language=python)")
                .submit(Submission.of(PROPOSE, "c.lisp"));
        assertThat(chat.stack().get(0).display()).isEqualTo("(some (err \"why lines?\"))");
        Outcome cancel = session(new Recording(new EditorHost.Decision.Cancel()), "program.invoke(language=python)")
                .submit(Submission.of("\"python\" \"t\" \"x\" proposal-open", "x.fth"));
        assertThat(cancel.stack().get(0).display()).isEqualTo("(none)");
    }

    @Test
    void theRequirementIsTheProposalsLanguageExactly() {
        Recording editor = new Recording(new EditorHost.Decision.Cancel());
        Session s = session(editor, "program.invoke(language=bash)");
        Outcome o = s.submit(Submission.of(PROPOSE, "p.lisp"));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("program.invoke(language=python)");
        assertThat(o.inferredCapabilities()).containsExactly("program.invoke(language=python)");
        assertThat(editor.shown).as("nothing is shown before the approval").isEmpty();
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(approved.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(editor.shown).hasSize(1);
        Outcome again = s.submit(Submission.of(PROPOSE, "p2.lisp"));
        Outcome denied = s.deny(again.executionId(), "not now");
        assertThat(denied.diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(editor.shown).as("a denied proposal is never shown").hasSize(1);
    }

    @Test
    void withoutAnEditorHostTheEmbedderAnswers() {
        Session s = session(null, "program.invoke(language=python)");
        Outcome o = s.submit(Submission.of(PROPOSE, "p.lisp"));
        assertThat(o.status()).as("a proposal is never dispatched by the session: it waits for the host").isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).isEmpty();
        var pending = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(pending.operation()).isEqualTo("proposal-open");
        assertThat(pending.expectedResult()).hasToString("[option<result<string,string>>]");
        Outcome done = s.respond(o.executionId(), dev.finch.vm.boundary.HostResponse.result(pending.sequence(),
                Value.some(Value.ok(Value.of("print(3)"), "string"))));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.stack().get(0).display()).isEqualTo("(some (ok \"print(3)\"))");
    }

    @Test
    void aLanguageNoGrantCanNameIsRefusedBeforeAnyRequest() {
        Session s = session(new Recording(new EditorHost.Decision.Cancel()));
        for (String lang : List.of("*", "Python", "py thon", "")) {
            Outcome o = s.submit(Submission.of("(proposal-open \"" + lang + "\" \"t\" \"x\")", "bad.lisp"));
            assertThat(o.status()).as(lang).isEqualTo(Outcome.Status.FAILED);
            assertThat(o.diagnostics().get(0).code()).isEqualTo("E-HOST-007");
        }
    }
}
