package dev.finch.norman.test;

import dev.finch.host.ToolHost;

import dev.finch.norman.harness.ScriptedModels;
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
import org.junit.jupiter.api.Test;

/** Tool grants and call end to end: typed results, scripts, the clock, fork, and the host boundary (tool.call). */
class ScriptedCallTest extends HarnessTestSupport {
    @Test void theToolsExamplePasses() {
        FileReport r = harness.runAll(resource("examples/tools.nm"), "tools.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(10);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void theToolCallFixturePasses() {
        FileReport r = harness.runAll(resource("dev/finch/norman/norman-tool-call.nm"), "norman-tool-call.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(2);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void entriesAreConsumedInOrderAndTheClockAdvances() {
        FileReport r = run("""
                (grant fs (filesystem [read (Text 100)]))
                (script s [fs/read (result "one") (latency 1s) (result "two") (latency 3s)])
                (under ([script s])
                  (check-expect (begin (call fs read "a") (call fs read "b")) "two")
                  (check-within (begin (call fs read "a") (call fs read "b")) ([time 4s]))
                  (check-fail (begin (call fs read "a") (call fs read "b")) (PastDeadline)))
                (under ([script s] [time 2s])
                  (check-fail (begin (call fs read "a") (call fs read "b")) (PastDeadline)))
                """);
        assertThat(messages(r).get(0)).contains("true");
        assertThat(messages(r).get(1)).contains("true");
        assertThat(messages(r).get(2)).contains("false"); // unlimited time: the second read succeeds
        assertThat(messages(r).get(3)).contains("true");
    }

    @Test void aMalformedResultIsInvalidWithTheRawText() {
        FileReport r = run("""
                (grant web (http [status Num]))
                (script s [web/status (result "not json") (latency 1ms)])
                (under ([script s])
                  (check-expect (catch (call web status "u") e (case e [(Invalid raw) (if (= raw "not json") 1 2)] [_ 3])) 1))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void anExhaustedScriptAnUndeclaredOperationAndAnUnscriptedCallAreCheckedErrors() {
        FileReport r = run("""
                (grant py (kernel [exec Text]))
                (grant web (http))
                (script s [py/exec (result "x") (latency 1ms)])
                (under ([script s])
                  (check-error (begin (call py exec "a") (call py exec "b")))
                  (check-error (call py run "a"))
                  (check-expect (call py exec "a") "x"))
                (check-error (call web anything "u"))
                """);
        assertThat(r.results()).hasSize(4);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void forkAnswersANewCapabilityUsableInLaterCalls() {
        FileReport r = run("""
                (grant py (kernel [exec Text]))
                (script s [py/exec (result "parent") (latency 1ms) (result "child") (latency 1ms)]
                          [py/fork (result "") (latency 5s)])
                (define run-both ()
                  (let* ([a (call py exec "1")] [child (call py fork)] [b (call child exec "2")]) (list a b)))
                (under ([script s])
                  (check-expect (run-both) (list "parent" "child"))
                  (check-within (run-both) ([time 6s])))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void aCapabilityHasNoWrittenForm() {
        FileReport r = run("""
                (grant py (kernel))
                (check-error (show py))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    // ---- the host boundary ----------------------------------------------------------------------------------

    private static final String FILE = """
            (grant py (kernel [count Num] [exec Text]))
            (script s [py/count (result "7") (latency 1s)])
            (call py count "wc -l")
            """;

    /** Runs FILE with {@code grants}; a pause is answered with {@code answer} (given the request), if any. */
    private static Object[] runWith(GrantSet grants, java.util.function.Function<EffectRequest, HostResponse> answer) { return runWith(grants, answer, false); }

    private static Object[] runWith(GrantSet grants, java.util.function.Function<EffectRequest, HostResponse> answer, boolean deferred) {
        Norman frontend = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = frontend.check(FILE, "t.nm");
        NormanTests t = frontend.lowerTests(p, dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(t.diagnostics()).isEmpty();
        Verification v = Verifier.verify(t.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        ScriptedModels world = new ScriptedModels(new ScriptedModels.Script(t.agents().scripts().get("s")), -1, -1);
        try (Vm vm = new Vm()) {
            RunResult r = vm.run("authority", v.module().get(), VmState.EMPTY, TestHarness.LIMITS, OutputSink.NONE, new CancelToken(),
                    HostConfig.NONE.withGrants(grants).with(ToolHost.class, world).withDeferred(deferred));
            EffectRequest asked = null;
            if (r instanceof RunResult.Suspended s && answer != null) {
                asked = s.suspension().pendingRequest().orElseThrow();
                r = vm.resume(s.suspension(), answer.apply(asked), TestHarness.LIMITS, OutputSink.NONE, new CancelToken());
            }
            return new Object[] {r, world.elapsed(), asked};
        }
    }

    private static Object[] runWith(GrantSet grants) { return runWith(grants, null); }

    private static GrantSet grants(String spec) { return GrantSet.of(List.of(Grant.of("g", spec, Scope.TASK).value())).value(); }

    @Test void withoutTheGrantTheRunPausesBeforeTheToolIsCalled() {
        Object[] r = runWith(GrantSet.EMPTY);
        assertThat(r[0]).isInstanceOf(RunResult.Suspended.class);
        EffectRequest asked = ((RunResult.Suspended) r[0]).suspension().pendingRequest().orElseThrow();
        assertThat(asked.requirement().toString()).isEqualTo("tool.call(py,count)");
        assertThat(r[1]).isEqualTo(0L);
    }

    @Test void approvedTheCallRunsOnceAndDeniedNever() {
        Object[] approved = runWith(GrantSet.EMPTY, q -> new HostResponse.Approved(q.sequence(),
                dev.finch.capabilities.Grant.of("once", "tool.call(py,count)", dev.finch.capabilities.Scope.ONCE).value()));
        assertThat(approved[0]).as("%s", approved[0]).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) approved[0]).state().stack().get(0).value()).isEqualTo(7.0);
        assertThat(approved[1]).isEqualTo(1000L);
        Object[] denied = runWith(grants("tool.call(py,exec)"), q -> new HostResponse.Denied(q.sequence(), null));
        assertThat(((EffectRequest) denied[2]).requirement().toString()).isEqualTo("tool.call(py,count)");
        assertThat(denied[0]).isInstanceOf(RunResult.Failed.class);
        assertThat(((RunResult.Failed) denied[0]).diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(denied[1]).isEqualTo(0L);
    }

    @Test void aDeferredHostAnswersTheCallWithResultTextReadByTheGrantsDeclaration() {
        Object[] r = runWith(grants("tool.call(py,count)"), q -> new HostResponse.Result(q.sequence(), "12"), true);
        assertThat(((EffectRequest) r[2]).requirement().toString()).isEqualTo("tool.call(py,count)");
        assertThat(r[0]).as("%s", r[0]).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r[0]).state().stack().get(0).value()).isEqualTo(12.0); // [count Num]: read as JSON
        assertThat(r[1]).isEqualTo(0L); // the script was not used
        Object[] bad = runWith(grants("tool.call(py,count)"), q -> new HostResponse.Result(q.sequence(), "twelve"), true);
        assertThat(bad[0]).isInstanceOf(RunResult.Failed.class); // Invalid, uncaught at the top level
        assertThat(((RunResult.Failed) bad[0]).diagnostics().get(0).message()).contains("Invalid");
    }

    @Test void theGrantedOperationRuns() {
        Object[] r = runWith(grants("tool.call(py,count)"));
        assertThat(r[0]).as("%s", r[0]).isInstanceOf(RunResult.Completed.class);
        assertThat(r[1]).isEqualTo(1000L);
    }
}
