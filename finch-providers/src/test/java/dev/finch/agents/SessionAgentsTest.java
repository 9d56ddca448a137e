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
import dev.finch.vm.value.Money;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * µNorman agents in a session: the model and tool hosts installed on {@code Finch}, asks and calls that pause for
 * approval at the host boundary and resume there, and the permission preview.
 */
class SessionAgentsTest {
    @TempDir Path ws;

    private final AtomicInteger asked = new AtomicInteger();

    /** A provider standing in for a real model: it answers the sum the user message asks for. */
    private final ModelProvider model = request -> {
        asked.incrementAndGet();
        return new ModelProvider.Reply("{\"value\":4}", 3, "end_turn", 5);
    };

    private static final String AGENT = """
            (grant gpt (model [in 1] [out 2] [ceiling 50]))
            (grant fs (filesystem [read Text]))
            (record Answer (value Num))
            (define ask-sum () (. (ask gpt Answer (list (Message [role User] [content (call fs read "q.txt")])) 'sum) value))
            (ask-sum)
            """;

    /** The host's terms for gpt: 1 and 2 micro-dollars a token, at most 50 output tokens an ask. */
    private static final HostModel GPT = HostModel.perToken(Money.ofMicros(1), Money.ofMicros(2), 50);

    /** Each run's world: a thousandth of a dollar and a minute over the test's model. */
    private ModelWorld world() {
        return ModelWorld.over(model).model("gpt", GPT).budget(Money.ofMicros(1_000)).timeLimit(Duration.ofMinutes(1)).build();
    }

    private Finch finch(Tools tools) {
        return Finch.builder().models(world()).tools(() -> tools).imageKey(dev.finch.persist.Images.KEY).build();
    }

    private static Outcome submit(Session s, String src) { return s.submit(Submission.of(src, "agent.nm").withLanguage(Language.NORMAN)); }

    @Test void anAgentPausesForEachGrantItNeedsAndResumesWhereItStopped() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "2+2?");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession();
            Outcome o = submit(s, AGENT);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("tool.call(fs,read)");
            assertThat(o.inferredCapabilities()).containsExactly("model.ask(gpt)", "tool.call(fs,read)");
            o = s.approve(o.executionId(), Scope.ONCE);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("model.ask(gpt)");
            assertThat(asked.get()).isZero();
            o = s.approve(o.executionId(), Scope.SESSION);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("4.0");
            assertThat(asked.get()).isEqualTo(1);
            // the session grant now covers the model; the file read still needs its approval
            Outcome again = submit(s, AGENT);
            assertThat(again.requiredCapabilities()).containsExactly("tool.call(fs,read)");
        }
    }

    @Test void grantedUpFrontTheAgentRunsThrough() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "2+2?");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)").withGrant("tool.call(fs,read)"));
            Outcome o = submit(s, AGENT);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
            assertThat(asked.get()).isEqualTo(1);
        }
    }

    @Test void anAgentPausedAtAnAskIsSavedAndResumedInAnotherSessionWithoutRepeatingAnything() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "2+2?");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Finch finch = finch(tools);
            SessionOptions options = SessionOptions.DEFAULT.withGrant("tool.call(fs,read)");
            Session s = finch.newSession(options);
            Outcome o = submit(s, AGENT);
            assertThat(o.requiredCapabilities()).containsExactly("model.ask(gpt)");
            String image = s.save(o.executionId());
            Session restored = finch(tools).restore(image, options);
            Outcome done = restored.approve(o.executionId(), Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(e -> e.display()).containsExactly("4.0");
            assertThat(asked.get()).isEqualTo(1);
        }
    }

    @Test void anAgentPausedAtAToolCallIsSavedWithItsCapabilityAndResumedElsewhere() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "2+2?");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            SessionOptions options = SessionOptions.DEFAULT.withGrant("model.ask(gpt)");
            Session s = finch(tools).newSession(options);
            Outcome o = submit(s, AGENT);
            assertThat(o.requiredCapabilities()).containsExactly("tool.call(fs,read)");
            Session restored = finch(tools).restore(s.save(o.executionId()), options);
            Outcome done = restored.approve(o.executionId(), Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(e -> e.display()).containsExactly("4.0");
            assertThat(asked.get()).isEqualTo(1);
        }
    }

    @Test void anAgentPausedInsideClosuresIsSavedAndResumedElsewhere() throws IOException {
        // The ask waits inside retry's thunk, inside a budget's body, inside catch: closures are on the paused frames.
        String agent = """
                (grant gpt (model [in 1] [out 2] [ceiling 50]))
                (record Answer (value Num))
                (define ask-n (q) (lambda () (ask gpt Answer (list (Message [role User] [content q])) 'sum)))
                (define guarded (q) (catch (budget ([cost $0.01]) (. (retry 2 (ask-n q)) value)) e -1))
                (+ (guarded "2+2?") 0)
                """;
        Session s = Finch.builder().models(world()).imageKey(dev.finch.persist.Images.KEY).build().newSession();
        Outcome o = submit(s, agent);
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
        assertThat(o.requiredCapabilities()).containsExactly("model.ask(gpt)");
        String image = s.save(o.executionId());
        Session restored = Finch.builder().models(world()).imageKey(dev.finch.persist.Images.KEY).build().restore(image);
        Outcome done = restored.approve(o.executionId(), Scope.ONCE);
        assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
        assertThat(done.stack()).extracting(e -> e.display()).containsExactly("4.0");
        assertThat(asked.get()).isEqualTo(1);
    }

    @Test void aDeniedAskNeverReachesTheModel() {
        Session s = Finch.builder().models(ModelWorld.over(model).model("gpt", GPT).unlimitedBudget().build()).build().newSession();
        Outcome o = submit(s, "(grant gpt (model)) (ask gpt Num (list (Message [role User] [content \"n?\"])))");
        assertThat(o.requiredCapabilities()).containsExactly("model.ask(gpt)");
        o = s.deny(o.executionId(), "no");
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(o.fields().diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(asked.get()).isZero();
    }

    @Test void eachSessionGetsItsOwnToolsAndEachRunItsOwnBudget() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "2+2?");
        AtomicInteger toolHosts = new AtomicInteger();
        AtomicInteger worlds = new AtomicInteger();
        Finch finch = Finch.builder()
                .models(() -> { worlds.incrementAndGet(); return world().get(); })
                .tools(() -> { toolHosts.incrementAndGet(); return Tools.of(Map.of("fs", FileSystemTool.workspace(ws))); })
                .build();
        SessionOptions granted = SessionOptions.DEFAULT.withGrant("model.ask(gpt)").withGrant("tool.call(fs,read)");
        Session a = finch.newSession(granted);
        Session b = finch.newSession(granted);
        assertThat(toolHosts.get()).isEqualTo(2);
        assertThat(submit(a, AGENT)).isInstanceOf(Outcome.Completed.class);
        assertThat(submit(a, AGENT)).isInstanceOf(Outcome.Completed.class);
        assertThat(submit(b, AGENT)).isInstanceOf(Outcome.Completed.class);
        assertThat(worlds.get()).isEqualTo(3);
        assertThat(toolHosts.get()).isEqualTo(2);
    }

    @Test void withoutAModelHostAnAskIsUnavailable() {
        Outcome o = submit(Finch.create().newSession(SessionOptions.DEFAULT.withGrant("model.ask(gpt)")),
                "(grant gpt (model)) (ask gpt Num (list (Message [role User] [content \"n?\"])))");
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(o.fields().diagnostics().get(0).code()).isEqualTo("E-HOST-013");
    }
}
