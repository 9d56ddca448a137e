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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models and tool capabilities passed as values in a session (issue 16, item 4): an ask or call through a parameter
 * requires the grant the value names at the host boundary, the preview is the program's grants that can reach it,
 * and a run paused with a model value in its frames is saved and resumed.
 */
class FirstClassCapabilitiesTest {
    @TempDir Path ws;

    private final List<String> asked = new CopyOnWriteArrayList<>();

    private final ModelProvider model = request -> {
        asked.add(request.grant());
        return new ModelProvider.Reply("{\"tag\":\"Ham\"}", 3, "end_turn", 5);
    };

    private static final String AGENT = """
            (grant small (model [in 1] [out 2] [ceiling 50]))
            (grant big (model [in 1] [out 2] [ceiling 50]))
            (grant fs (filesystem [read Text]))
            (datatype Label [Spam] [Ham])
            (define classify (m text) (ask m Label (list (Message [role User] [content text])) 'classify))
            (define read-with (t path) (call t read path))
            (classify big (read-with fs "q.txt"))
            """;

    private static final HostModel TERMS = HostModel.perToken(Money.ofMicros(1), Money.ofMicros(2), 50);

    private Finch finch(Tools tools) {
        return Finch.builder().models(ModelWorld.over(model).model("small", TERMS).model("big", TERMS)
                .budget(Money.ofMicros(1_000)).timeLimit(Duration.ofMinutes(1)).build())
                .tools(() -> tools).imageKey(dev.finch.persist.Images.KEY).build();
    }

    private static Outcome submit(Session s, String src) { return s.submit(Submission.of(src, "agent.nm").withLanguage(Language.NORMAN)); }

    @Test void anAskThroughAModelParameterRequiresTheGrantTheValueNames() throws IOException {
        Files.writeString(ws.resolve("q.txt"), "hello");
        try (Tools tools = Tools.of(Map.of("fs", FileSystemTool.workspace(ws)))) {
            Session s = finch(tools).newSession(SessionOptions.DEFAULT.withGrant("model.ask(small)"));
            Outcome o = submit(s, AGENT);
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            // the call through a parameter: the bound in the preview, the concrete grant at the boundary
            assertThat(o.requiredCapabilities()).containsExactly("tool.call(fs,read)");
            assertThat(o.inferredCapabilities()).contains("model.ask(big)", "model.ask(small)", "tool.call(*,*)");
            o = s.approve(o.executionId(), Scope.ONCE);
            // granting small does not let an ask of big through
            assertThat(o).as("%s", o).isInstanceOf(Outcome.Suspended.class);
            assertThat(o.requiredCapabilities()).containsExactly("model.ask(big)");
            assertThat(asked).isEmpty();
            Session restored = finch(tools).restore(s.save(o.executionId()), SessionOptions.DEFAULT);
            Outcome done = restored.approve(o.executionId(), Scope.ONCE);
            assertThat(done).as("%s", done).isInstanceOf(Outcome.Completed.class);
            assertThat(done.stack()).extracting(e -> e.display()).containsExactly("(Ham)");
            assertThat(asked).containsExactly("big");
        }
    }

    @Test void showInAGenericHelperWritesByTheConcreteType() {
        Session s = finch(Tools.of(Map.of())).newSession();
        Outcome o = submit(s, "(record Quote (price Num) (symbol Sym))\n(define render (x) (show x))\n"
                + "(render (list (Some (Quote [symbol 'ACME] [price 12.5])) None))");
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Completed.class);
        assertThat(o.stack()).extracting(e -> e.display())
                .containsExactly("\"[{\\\"tag\\\":\\\"Some\\\",\\\"value\\\":{\\\"price\\\":12.5,\\\"symbol\\\":\\\"ACME\\\"}},{\\\"tag\\\":\\\"None\\\"}]\"");
    }

    @Test void aModelValueIsNeverShown() {
        Session s = finch(Tools.of(Map.of())).newSession();
        Outcome o = submit(s, "(grant small (model))\n(define render (x) (show x))\n(render small)");
        assertThat(o).as("%s", o).isInstanceOf(Outcome.Failed.class);
        assertThat(o.diagnostics()).extracting(d -> d.code()).contains("E-SHOW-001");
    }
}
