package dev.finch.norman.harness;

import dev.finch.host.ModelHost;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs a µNorman file's top level on a VM over a model world, with one model grant given: how provider tests drive an ask. */
public final class WorldRuns {
    /** The limits of the provider tests' runs: the default, with the µNorman harness's 20 s timeout. */
    public static final Limits LIMITS = Limits.DEFAULT.withTimeout(Duration.ofSeconds(20));

    private WorldRuns() { }

    /** Runs {@code file}'s top level over {@code world} with {@code model.ask(GRANT)} granted. */
    public static RunResult run(String file, String grant, ScriptedModels world) {
        Norman frontend = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = frontend.check(file, "t.nm");
        NormanTests t = frontend.lowerTests(p, VmState.EMPTY.library().vocabulary());
        assertThat(t.diagnostics()).isEmpty();
        Verification v = Verifier.verify(t.module().orElseThrow(), VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        GrantSet grants = GrantSet.of(List.of(Grant.of("g", "model.ask(" + grant + ")", Scope.TASK).value())).value();
        try (Vm vm = new Vm()) {
            return vm.run("world-run", v.module().get(), VmState.EMPTY, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken(),
                    HostConfig.NONE.withGrants(grants).with(ModelHost.class, world));
        }
    }
}
