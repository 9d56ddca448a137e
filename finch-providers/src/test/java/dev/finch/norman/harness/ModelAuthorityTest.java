package dev.finch.norman.harness;

import dev.finch.host.ModelHost;

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
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import java.util.List;
import java.util.Map;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.boundary.RunHost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An ask passes the host boundary like every host word: without the grant model.ask(NAME) the run pauses before the
 * model is called, and resumes exactly there — approved, the model is asked once; denied, it never is; in deferred
 * mode the host answers the ask itself.
 */
class ModelAuthorityTest {
    private static final String FILE = """
            (grant gpt (model [in 2] [out 8]))
            (record Answer (value Num))
            (define ask-n () (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math))
            (define twice () (+ (. (ask-n) value) (. (retry 1 ask-n) value)))
            (script s [math (reply "{\\"value\\":4}") (out 4) (latency 1s) (reply "{\\"value\\":5}") (out 4) (latency 1s)])
            (twice)
            """;

    private final int[] calls = {0};
    private final Vm vm = new Vm();

    @AfterEach void close() { vm.close(); }

    private RunResult run(GrantSet grants, boolean deferred) {
        Norman frontend = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = frontend.check(FILE, "t.nm");
        NormanTests t = frontend.lowerTests(p, dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(t.diagnostics()).isEmpty();
        Verification v = Verifier.verify(t.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        ModelProvider script = new ScriptedModels.Script(t.agents().scripts().get("s"));
        ModelProvider counting = new ModelProvider() {
            @Override public Response complete(Request r) { calls[0]++; return script.complete(r); }

            @Override public boolean simulated() { return true; }
        };
        ScriptedModels world = new ScriptedModels(counting, -1, -1);
        HostConfig host = HostConfig.NONE.withGrants(grants).with(ModelHost.class, world);
        if (deferred) host = host.withDeferred(true);
        return vm.run("authority", v.module().get(), VmState.EMPTY, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken(), host);
    }

    private static GrantSet grants(String spec) { return GrantSet.of(List.of(Grant.of("g", spec, Scope.TASK).value())).value(); }

    private RunResult resume(RunResult paused, HostResponse answer) {
        return vm.resume(((RunResult.Suspended) paused).suspension(), answer, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken());
    }

    private static EffectRequest pending(RunResult r) {
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Suspended.class);
        return ((RunResult.Suspended) r).suspension().pendingRequest().orElseThrow();
    }

    @Test void withoutTheGrantTheRunPausesBeforeTheModelIsCalledAndResumesThere() {
        RunResult r = run(GrantSet.EMPTY, false);
        EffectRequest first = pending(r);
        assertThat(first.requirement().toString()).isEqualTo("model.ask(gpt)");
        assertThat(first.operation()).isEqualTo("model-ask");
        assertThat(calls[0]).isZero();
        // approved for the session: this ask and the next (inside retry, inside a closure) go through
        r = resume(r, new HostResponse.Approved(first.sequence(), Grant.of("g", "model.ask(gpt)", Scope.SESSION).value()));
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(9.0);
        assertThat(calls[0]).isEqualTo(2);
    }

    @Test void anApprovalOnceCoversOneAskAndTheNextPausesAgainInsideAClosure() {
        RunResult r = run(GrantSet.EMPTY, false);
        EffectRequest first = pending(r);
        r = resume(r, new HostResponse.Approved(first.sequence(), Grant.of("once", "model.ask(gpt)", Scope.ONCE).value()));
        EffectRequest second = pending(r);
        assertThat(second.sequence()).isGreaterThan(first.sequence());
        assertThat(calls[0]).isEqualTo(1);
        r = resume(r, new HostResponse.Approved(second.sequence(), Grant.of("once", "model.ask(gpt)", Scope.ONCE).value()));
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(calls[0]).isEqualTo(2);
    }

    @Test void aDenialStopsTheRunAndTheModelIsNeverCalled() {
        RunResult r = run(grants("model.ask(claude)"), false);
        EffectRequest first = pending(r);
        r = resume(r, new HostResponse.Denied(first.sequence(), "not today"));
        assertThat(r).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) r).diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(calls[0]).isZero();
    }

    @Test void aDeferredHostAnswersTheAskWithReplyTextThatIsValidatedLikeAnyReply() {
        RunResult r = run(grants("model.ask(gpt)"), true);
        EffectRequest first = pending(r);
        assertThat(((RunResult.Suspended) r).suspension().waiting()).contains(RunHost.Waiting.RESULT);
        assertThat(first.expectedResult()).extracting(Object::toString).containsExactly("string");
        r = resume(r, new HostResponse.Result(first.sequence(), "{\"value\":40}"));
        // the retry's first answer is not an Answer: Invalid, so retry asks again
        EffectRequest second = pending(r);
        r = resume(r, new HostResponse.Result(second.sequence(), "forty-two"));
        EffectRequest third = pending(r);
        r = resume(r, new HostResponse.Result(third.sequence(), "{\"value\":2}"));
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(42.0);
        assertThat(calls[0]).isZero();
        // a value of another type than the reply text is refused
        RunResult again = run(grants("model.ask(gpt)"), true);
        RunResult wrong = resume(again, new HostResponse.Result(pending(again).sequence(), 40.0));
        assertThat(((RunResult.Failed) wrong).diagnostics().get(0).code()).isEqualTo("E-HOST-014");
    }

    @Test void withTheGrantTheAsksAreAnsweredOnceEach() {
        RunResult r = run(grants("model.ask(gpt)"), false);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(9.0);
        assertThat(calls[0]).isEqualTo(2);
    }
}
