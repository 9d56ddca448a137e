package dev.finch.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.providers.FileSystemTool;
import dev.finch.norman.providers.Tools;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.value.Money;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * µNorman workflow and par steps that need approval (issue 15, item 4): they no longer have to be granted up front.
 * The run pauses at the first step's request, the second step's request waits behind it (made only after the first
 * is answered), and the workflow completes with each effect once.
 */
class WorkflowApprovalTest {
    @TempDir Path ws;

    private final AtomicInteger asked = new AtomicInteger();

    private final ModelProvider model = request -> {
        asked.incrementAndGet();
        return new ModelProvider.Reply("{\"value\":4}", 3, "end_turn", 5);
    };

    private static final HostModel GPT = HostModel.perToken(Money.ofMicros(1), Money.ofMicros(2), 50);

    private Finch finch(Tools tools) {
        ModelWorld world = ModelWorld.over(model).model("gpt", GPT).budget(Money.ofMicros(1_000)).timeLimit(Duration.ofMinutes(1)).build();
        return Finch.builder().models(world).tools(() -> tools).imageKey(dev.finch.persist.Images.KEY).build();
    }

    /** An ask and a tool call, each a definition (the image law over µNorman uses them too). */
    static final String HEAD = """
            (grant gpt (model [in 1] [out 2] [ceiling 50]))
            (grant fs (filesystem [read Text]))
            (record Answer (value Num))
            (define sum () (. (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'sum) value))
            (define note () (call fs read "q.txt"))
            """;

    /** The requests and settlements the host saw. */
    static final class Recorder implements EffectObserver {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());

        @Override public void requested(EffectRequest r) { log.add("request " + r.sequence() + " " + r.requirement()); }

        @Override public void settled(EffectJournal.Entry e) { log.add("settled " + e.request().sequence() + " " + e.state()); }
    }

    private static Outcome submit(Session s, String src, Recorder rec) {
        return s.submit(Submission.of(src, "agent.nm").withLanguage(Language.NORMAN).withObserver(rec));
    }

    @Test void aWorkflowWhoseTwoStepsEachNeedAGrantPausesIsApprovedAndCompletesWithEachEffectOnce() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Recorder rec = new Recorder();
            Outcome o = submit(s, HEAD + "(workflow ([n (sum)] [t (note)]) (+ n (text-length t)))", rec);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("model.ask(gpt)");
            assertThat(rec.log).containsExactly("request 1 model.ask(gpt)");
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("tool.call(fs,read)");
            assertThat(asked.get()).isEqualTo(1);
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("9.0");
            assertThat(asked.get()).isEqualTo(1);
            // The ask is in flight off the baton while the second step makes its request: those two may interleave.
            assertThat(rec.log).filteredOn(l -> l.startsWith("request")).containsExactly("request 1 model.ask(gpt)", "request 2 tool.call(fs,read)");
            assertThat(rec.log).filteredOn(l -> l.startsWith("settled")).containsExactly("settled 1 ACKNOWLEDGED", "settled 2 ACKNOWLEDGED");
        }
    }

    @Test void parBranchesThatNeedApprovalPauseInTurn() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Recorder rec = new Recorder();
            Outcome o = submit(s, HEAD + "(let* ([p (par (note) (sum))]) (+ (text-length (. p fst)) (. p snd)))", rec);
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("tool.call(fs,read)");
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("model.ask(gpt)");
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("9.0");
            assertThat(asked.get()).isEqualTo(1);
        }
    }

    @Test void bestOfsNestedStepsPauseForEachAttempt() {
        // best-of is a recursive par: steps inside steps, each attempt's ask approved in turn.
        Session s = finch(null).newSession();
        Recorder rec = new Recorder();
        Outcome o = submit(s, HEAD + "(best-of 3 sum (lambda (n) (> n 3)))", rec);
        int approvals = 0;
        while (o instanceof Outcome.Suspended) {
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("model.ask(gpt)");
            o = s.approve(o.executionId(), Scope.ONCE);
            approvals++;
        }
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.stack()).extracting(e -> e.display()).containsExactly("4.0");
        assertThat(approvals).isEqualTo(3);
        assertThat(asked.get()).isEqualTo(3);
        assertThat(rec.log).filteredOn(l -> l.startsWith("request")).containsExactly(
                "request 1 model.ask(gpt)", "request 2 model.ask(gpt)", "request 3 model.ask(gpt)");
    }

    @Test void aDeniedStepFailsTheWorkflowAndTheOtherStepNeverAsks() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Recorder rec = new Recorder();
            Outcome o = submit(s, HEAD + "(workflow ([n (sum)] [t (note)]) (+ n (text-length t)))", rec);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            Outcome denied = s.deny(o.executionId(), "no");
            assertThat(denied).as("%s", denied).isInstanceOf(Outcome.Failed.class);
            assertThat(asked.get()).isZero();
            assertThat(rec.log).containsExactly("request 1 model.ask(gpt)", "settled 1 DENIED");
            assertThat(s.vmRevision()).isZero();
        }
    }

    @Test void aPausedWorkflowIsSavedAndApprovedInAnotherSession() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Outcome o = submit(s, HEAD + "(workflow ([n (sum)] [t (note)]) (+ n (text-length t)))", new Recorder());
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("model.ask(gpt)");
            Session second = finch(tools).restore(s.save(o.executionId()));
            o = second.approve(o.executionId(), Scope.ONCE);
            assertThat(o.requiredCapabilities()).as("%s", o).containsExactly("tool.call(fs,read)");
            Session third = finch(tools).restore(second.save(o.executionId()));
            o = third.approve(o.executionId(), Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("9.0");
            assertThat(asked.get()).isEqualTo(1);
        }
    }

    @Test void aWorkflowPausedInsideABudgetIsSavedWithWhatIsLeftOfItsScopes() throws IOException {
        // The steps' budget scopes are their model host's per-step state: saved as what is left, rebased on restore.
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Outcome o = submit(s, HEAD + "(budget ([cost $0.01]) (workflow ([n (sum)] [t (note)]) (+ n (text-length t))))", new Recorder());
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            String id = o.executionId();
            Session restored = finch(tools).restore(s.save(id));
            o = restored.approve(id, Scope.ONCE);
            o = restored.approve(id, Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("9.0");
            // In memory too.
            o = submit(s, HEAD + "(budget ([cost $0.01]) (workflow ([n (sum)] [t (note)]) (+ n (text-length t))))", new Recorder());
            o = s.approve(o.executionId(), Scope.ONCE);
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o.stack()).extracting(e -> e.display()).endsWith("9.0");
        }
    }

    @Test void aRestoredRunStillKeepsItsBudget() throws IOException {
        // The root pauses inside a budget too small for the ask it makes after the approval: the restored run refuses it.
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)"));
            String program = HEAD + "(budget ([cost $0.000005]) (begin (note) (catch (sum) e -1)))";
            Outcome o = submit(s, program, new Recorder());
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            // The restoring host gives the same authority (an image carries none).
            Session restored = finch(tools).restore(s.save(o.executionId()), SessionOptions.DEFAULT.withGrant("model.ask(gpt)"));
            Outcome done = restored.approve(o.executionId(), Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(e -> e.display()).as("the ask did not fit the 5 µ$ left: OverBudget, caught").containsExactly("-1.0");
        }
    }

    @Test void grantedUpFrontTheWorkflowStillRunsThrough() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)").withGrant("tool.call(fs,read)"));
            Outcome o = submit(s, HEAD + "(workflow ([n (sum)] [t (note)]) (+ n (text-length t)))", new Recorder());
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("9.0");
        }
    }
}
