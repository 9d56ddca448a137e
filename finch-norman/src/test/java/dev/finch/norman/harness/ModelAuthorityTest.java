package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.ir.checked.Environment;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.RunResult;
import dev.finch.vm.Vm;
import dev.finch.vm.VmState;
import dev.finch.vm.host.HostConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An ask passes the host boundary: without the grant model.ask(NAME) the run stops before the model is called. */
class ModelAuthorityTest {
    private static final String FILE = """
            (grant gpt (model [in 2] [out 8]))
            (record Answer (value Num))
            (define ask-n () (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math))
            (script s [math (reply "{\\"value\\":4}") (out 4) (latency 1s)])
            (. (ask-n) value)
            """;

    private static RunResult run(GrantSet grants, int[] calls) {
        Norman frontend = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = frontend.check(FILE, "t.nm");
        NormanTests t = frontend.lowerTests(p);
        assertThat(t.diagnostics()).isEmpty();
        Verification v = Verifier.verify(t.module().orElseThrow(), Environment.EMPTY);
        assertThat(v.diagnostics()).isEmpty();
        ModelProvider script = new ScriptedModels.Script(t.agents().scripts().get("s"));
        ModelProvider counting = r -> { calls[0]++; return script.complete(r); };
        ScriptedModels world = new ScriptedModels(t.agents(), counting, -1, -1);
        try (Vm vm = new Vm()) {
            return vm.run("authority", v.module().get(), VmState.EMPTY, TestHarness.LIMITS, OutputSink.NONE, new CancelToken(),
                    HostConfig.NONE.withGrants(grants).withModels(world));
        }
    }

    @Test void withoutTheGrantTheRunStopsBeforeTheModelIsCalled() {
        int[] calls = {0};
        RunResult r = run(GrantSet.EMPTY, calls);
        assertThat(r).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-HOST-015");
        assertThat(((RunResult.Failed) r).diagnostics().get(0).message()).contains("model.ask(gpt)");
        assertThat(calls[0]).isZero();
    }

    @Test void aGrantForAnotherModelDoesNotPermitIt() {
        int[] calls = {0};
        GrantSet other = GrantSet.of(List.of(Grant.of("g", "model.ask(claude)", Scope.TASK).value())).value();
        assertThat(run(other, calls)).isInstanceOf(RunResult.Failed.class);
        assertThat(calls[0]).isZero();
    }

    @Test void withTheGrantTheAskIsAnsweredOnce() {
        int[] calls = {0};
        GrantSet gpt = GrantSet.of(List.of(Grant.of("g", "model.ask(gpt)", Scope.TASK).value())).value();
        RunResult r = run(gpt, calls);
        assertThat(r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(4.0);
        assertThat(calls[0]).isEqualTo(1);
    }
}
