package dev.finch.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.agent.AgentProvider;
import dev.finch.agent.ScriptedProvider;
import dev.finch.capabilities.Scope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38 item 1: a person's input starts an agent turn; the model answers in programs — a submit_program tool call,
 * or text that is source — which run in the session, say streaming to the host; a missing grant pauses the turn until
 * the host approves or denies; a fenced or prose answer's diagnostic goes back to the model; budgets end a turn.
 */
class ConversationTest {
    private static final byte[] KEY = "conversation-test-image-key-0123".getBytes(StandardCharsets.UTF_8);

    @TempDir Path ws;

    private static AgentProvider script(String text) { return ScriptedProvider.parse(text); }

    @Test void aTextAnswerIsSourceAndItsSayOutputIsTheAnswer() {
        Session s = Finch.create().newSession();
        List<String> streamed = new ArrayList<>();
        Conversation c = Conversation.builder(s, script(">>> final\n(say \"hello, \") (say \"person\")\n")).sink(streamed::add).build();
        Step step = c.turn("say hello");
        assertThat(step).isInstanceOf(Step.Answered.class);
        assertThat(step.output()).isEqualTo("hello, person");
        assertThat(String.join("", streamed)).as("say streams to the host as it runs").isEqualTo("hello, person");
        assertThat(((Step.Answered) step).answer().orElseThrow().sourceId()).isEqualTo("response-1");
        assertThat(c.transcript()).hasSize(3);   // the person, the model's answer, the outcome noted for the next turn
    }

    @Test void aToolCallsProgramPausesForItsGrantAndTheTurnGoesOnAfterApproval() throws Exception {
        Session s = Finch.create().newSession(SessionOptions.DEFAULT.withWorkspace(ws));
        Conversation c = Conversation.builder(s, script("""
>>> program lisp
(file-write (path "note.txt") (string-to-bytes "remember milk"))
(say "wrote")
>>> final
(say "done: {{status}}")
""")).build();
        Step paused = c.turn("write a note");
        assertThat(paused).isInstanceOf(Step.AwaitingApproval.class);
        Outcome.Suspended pending = ((Step.AwaitingApproval) paused).pending();
        assertThat(pending.requiredCapabilities()).containsExactly("fs.write(${workspace}/note.txt)");
        assertThat(pending.sourceId()).as("a program's source identity is the provider's call id").isEqualTo("script-1");
        assertThat(Files.exists(ws.resolve("note.txt"))).isFalse();
        assertThat(c.turn("another").toString()).contains("E-CONVERSATION-005");
        Step done = c.approve(Scope.ONCE);
        assertThat(done).as(done.toString()).isInstanceOf(Step.Answered.class);
        assertThat(done.output()).isEqualTo("wrotedone: completed");
        assertThat(Files.readString(ws.resolve("note.txt"))).isEqualTo("remember milk");
    }

    @Test void aDenialFailsTheProgramAndTheModelHearsOfIt() {
        Session s = Finch.create().newSession(SessionOptions.DEFAULT.withWorkspace(ws));
        Conversation c = Conversation.builder(s, script("""
>>> program lisp
(file-write (path "x.txt") (string-to-bytes "x"))
>>> final
(say "{{codes}}")
""")).build();
        assertThat(c.turn("go")).isInstanceOf(Step.AwaitingApproval.class);
        Step after = c.deny("not today");
        assertThat(after.output()).isEqualTo("E-HOST-001");
        assertThat(Files.exists(ws.resolve("x.txt"))).isFalse();
    }

    @Test void aFencedOrProseAnswerGoesBackToTheModelWhichTriesAgain() {
        Session s = Finch.create().newSession();
        Conversation c = Conversation.builder(s, script("""
>>> final
```lisp
(say "fenced")
```
>>> final
I think the answer is four.
>>> final
(say (int-to-string (+ 2 2)))
""")).build();
        Step step = c.turn("what is 2+2?");
        assertThat(step).isInstanceOf(Step.Answered.class);
        assertThat(step.output()).isEqualTo("4");
        assertThat(step.outcomes()).extracting(o -> o.diagnostics().isEmpty() ? "ok" : o.diagnostics().get(0).code())
                .containsExactly("E-SUBMIT-001", step.outcomes().get(1).diagnostics().get(0).code(), "ok");
        String transcript = c.transcript().toString();
        assertThat(transcript).contains("E-SUBMIT-001").contains("did not complete");
    }

    @Test void theModelCallBudgetEndsATurn() {
        Session s = Finch.create().newSession();
        Conversation c = Conversation.builder(s, script(">>> final\nnot a program\n>>> final\nstill not\n>>> final\nnope\n")).maxModelCalls(2).build();
        Step step = c.turn("hi");
        assertThat(step).isInstanceOf(Step.Stopped.class);
        assertThat(((Step.Stopped) step).why().code()).isEqualTo("E-CONVERSATION-001");
    }

    @Test void aProviderThatCannotAnswerStopsTheTurnWithItsCode() {
        Session s = Finch.create().newSession();
        Conversation c = Conversation.builder(s, script(">>> final\n\n")).build();
        assertThat(c.turn("one")).isInstanceOf(Step.Answered.class);
        Step second = c.turn("two");
        assertThat(((Step.Stopped) second).why().code()).isEqualTo("E-CONVERSATION-003");
    }

    @Test void aPausedConversationSavesAndRestoresWithItsTranscriptAndContinuesOnce() throws Exception {
        Finch finch = Finch.builder().imageKey(KEY).build();
        String script = """
>>> program lisp
(define (double x) (* 2 x))
(file-write (path "out.txt") (string-to-bytes (int-to-string (double 21))))
>>> final
(say (int-to-string (double 5)))
""";
        Conversation c = Conversation.builder(finch.newSession(SessionOptions.DEFAULT.withWorkspace(ws)), script(script)).build();
        assertThat(c.turn("compute")).isInstanceOf(Step.AwaitingApproval.class);
        String saved = c.save();
        Finch elsewhere = Finch.builder().imageKey(KEY).build();
        Conversation back = Conversation.restore(elsewhere, saved, SessionOptions.DEFAULT.withWorkspace(ws), script(script), null);
        assertThat(back.awaitingApproval()).isTrue();
        assertThat(back.transcript()).hasSize(c.transcript().size());
        Step done = back.approve(Scope.ONCE);
        assertThat(done).as(done.toString()).isInstanceOf(Step.Answered.class);
        assertThat(done.output()).isEqualTo("10");
        assertThat(Files.readString(ws.resolve("out.txt"))).isEqualTo("42");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Conversation.restore(elsewhere, "{\"format\":\"other\"}", SessionOptions.DEFAULT,
                script(script), null)).isInstanceOfSatisfying(Conversation.ConversationException.class,
                e -> assertThat(e.diagnostic().code()).isEqualTo("E-CONVERSATION-006"));
    }

    @Test void aProgramCallStatingAStaleRevisionIsRefusedAndTheModelHearsWhy() {
        Session s = Finch.create().newSession();
        Conversation c = Conversation.builder(s, script("""
                >>> tool submit_program
                {"source": "(say \\"late\\")", "language": "lisp", "expected_vm_revision": 7}
                >>> final
                (say "{{codes}}")
                """)).build();
        Step step = c.turn("go");
        assertThat(step.outcomes().get(0).diagnostics().get(0).code()).isEqualTo("E-SESSION-001");
        assertThat(step.output()).isEqualTo("E-SESSION-001");
    }

    /** A provider answering each call with prose that is no program, reporting 400 tokens and a response id. */
    private static AgentProvider wordy() {
        int[] n = {0};
        return c -> new AgentProvider.Turn(n[0] == 0 ? "" + ++n[0] + " is not a program" : "(say \"ok\")", List.of(), "end_turn",
                new AgentProvider.Usage(300, 100), "msg_" + (n[0]++));
    }

    @Test void aTokenBudgetEndsATurnAndTextAnswersCarryTheProvidersResponseId() {
        Conversation bounded = Conversation.builder(Finch.create().newSession(), wordy()).maxTurnTokens(700).build();
        Step stopped = bounded.turn("hi");
        assertThat(((Step.Stopped) stopped).why().code()).isEqualTo("E-CONVERSATION-007");
        Conversation roomy = Conversation.builder(Finch.create().newSession(), wordy()).maxTurnTokens(10_000).build();
        Step answered = roomy.turn("hi");
        assertThat(answered.output()).isEqualTo("ok");
        assertThat(((Step.Answered) answered).answer().orElseThrow().sourceId()).isEqualTo("msg_2");
        assertThat(roomy.save()).contains("\"response_id\":\"msg_2\"").contains("\"input_tokens\":300");
    }

    @Test void aMoneyBudgetAtTheHostsPricesEndsATurn() {
        // 300 input and 100 output tokens a call at $3 and $15 per million: $0.0024 a call.
        Conversation bounded = Conversation.builder(Finch.create().newSession(), wordy())
                .maxTurnSpend(new java.math.BigDecimal("0.004"), new java.math.BigDecimal("3"), new java.math.BigDecimal("15")).build();
        Step stopped = bounded.turn("hi");
        assertThat(((Step.Stopped) stopped).why().code()).isEqualTo("E-CONVERSATION-008");
        assertThat(((Step.Stopped) stopped).why().message()).contains("$0.0048");
        Conversation roomy = Conversation.builder(Finch.create().newSession(), wordy())
                .maxTurnSpend(new java.math.BigDecimal("0.01"), new java.math.BigDecimal("3"), new java.math.BigDecimal("15")).build();
        assertThat(roomy.turn("hi").output()).isEqualTo("ok");
    }

    @Test void aTurnWhoseThreadTheHostInterruptsIsCancelled() {
        Conversation c = Conversation.builder(Finch.create().newSession(), script(">>> final\n(say \"never\")\n>>> final\n(say \"next\")\n")).build();
        Thread.currentThread().interrupt();
        Step step;
        try {
            step = c.turn("go");
        } finally {
            Thread.interrupted();
        }
        assertThat(((Step.Stopped) step).why().code()).isEqualTo("E-CONVERSATION-009");
        assertThat(c.turn("again").output()).as("the conversation goes on; the model was not asked during the cancelled turn").isEqualTo("never");
    }

    @Test void aToolCallsProgramTakesTheProvidersResponseIdAsItsSourceIdentity() {
        int[] n = {0};
        AgentProvider provider = c -> n[0]++ == 0
                ? new AgentProvider.Turn("", List.of(new AgentProvider.ToolCall("call_1", "submit_program", "{\"source\":\"(say \\\"x\\\")\"}")),
                        "tool_use", AgentProvider.Usage.UNKNOWN, "msg_A")
                : AgentProvider.Turn.finalMessage("");
        Step step = Conversation.builder(Finch.create().newSession(), provider).build().turn("go");
        assertThat(step.outcomes()).singleElement().satisfies(o -> assertThat(o.sourceId()).isEqualTo("msg_A"));
        assertThat(step.output()).isEqualTo("x");
    }
}
