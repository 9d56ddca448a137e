package dev.finch.norman.test;

import dev.finch.norman.harness.ScriptedModels;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The trace of asks and calls, the check-equiv grades, and workflow/par/best-of on the simulated clock. */
class WorkflowAndTraceTest extends HarnessTestSupport {
    private static final String AGENT = """
            (grant gpt (model [in 1] [out 2] [ceiling 100]))
            (grant py (kernel [exec Text]))
            (define a () (ask gpt Num (list (Message [role User] [content "a?"])) 'a))
            (define b () (ask gpt Num (list (Message [role User] [content "b?"])) 'b))
            (script s
              [a (reply "1") (out 10) (latency 2s) (provider-error "503") (latency 1s)]
              [b (reply "2") (out 10) (latency 5s)]
              [py/exec (result "done") (latency 500ms) (result "done") (latency 500ms)])
            """;

    @Test void theTraceRecordsEveryAskAndCallOnTheSimulatedClock() {
        FileReport r = run(AGENT + "(under ([script s]) (check-expect (begin (a) (call py exec \"x = 1\") (catch (a) e 0) (b)) 2))");
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        List<ScriptedModels.TraceEntry> t = r.results().get(0).trace();
        assertThat(t).hasSize(4);
        // "a?" is 1 token + 4 per message: 5 in at 1, 10 out at 2
        assertThat(t.get(0)).isEqualTo(new ScriptedModels.TraceEntry("ask", "a", List.of("User: a?"), "reply 1", 17, 0, 2000,
                "reserved $0.000017 = 5 input tokens at 1 + 6 output tokens at 2 micro-dollars; the answer: Num is at most 24 bytes of JSON, 6 tokens"));
        assertThat(t.get(1)).isEqualTo(new ScriptedModels.TraceEntry("call", "py/exec", List.of("x = 1"), "result done", 0, 2000, 2500));
        assertThat(t.get(2)).isEqualTo(new ScriptedModels.TraceEntry("ask", "a", List.of("User: a?"), "provider-error 503", 0, 2500, 3500,
                t.get(0).reservation()));
        assertThat(t.get(3).start()).isEqualTo(3500);
        assertThat(t.get(3).end()).isEqualTo(8500);
    }

    @Test void anAskRefusedBeforeTheCallIsTracedWithoutCost() {
        FileReport r = run(AGENT + "(under ([script s] [cost $0.000001]) (check-fail (a) OverBudget))");
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        // What it would have reserved, from what, and what was left (issue 36: a type's reservation is visible).
        assertThat(r.results().get(0).trace()).containsExactly(new ScriptedModels.TraceEntry("ask", "a", List.of("User: a?"), "OverBudget", 0, 0, 0,
                "reserved $0.000017 = 5 input tokens at 1 + 6 output tokens at 2 micro-dollars; the answer: Num is at most 24 bytes of JSON, 6 tokens, "
                        + "but only $0.000001 was left"));
    }

    @Test void parallelStepsStartTogetherAndTheTraceShowsIt() {
        FileReport r = run(AGENT + "(under ([script s]) (check-expect (par (a) (b)) (Pair [fst 1] [snd 2])))");
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        List<ScriptedModels.TraceEntry> t = r.results().get(0).trace();
        assertThat(t).extracting(ScriptedModels.TraceEntry::start).containsExactly(0L, 0L);
        assertThat(t).extracting(ScriptedModels.TraceEntry::end).containsExactly(2000L, 5000L);
    }

    @Test void aStepWaitsForItsInputsAndTheBodyForTheLastStep() {
        FileReport r = run(AGENT + """
                (under ([script s])
                  (check-within (workflow ([y (b)] [x (a)] [z (call py exec (show x))]) (+ x y)) ([time 5s]))
                  (check-within (workflow ([x (a)] [z (call py exec (show x))]) x) ([time 2500ms]))
                  (check-within (workflow ([x (a)] [z (call py exec (show x))]) x) ([time 2499ms])))
                """);
        assertThat(r.results()).extracting(TestResult::passed).containsExactly(true, true, false);
    }

    @Test void nestedParsAreNestedPairsAndAllTheirStepsRunAtOnce() {
        FileReport r = run(AGENT + """
                (under ([script s])
                  (check-expect (par (b) (par (a) (call py exec "1"))) (Pair [fst 2] [snd (Pair [fst 1] [snd "done"])]))
                  (check-within (par (b) (par (a) (call py exec "1"))) ([time 5s])))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        // every step started at 0; the trace is in the order they ended
        assertThat(r.results().get(1).trace()).extracting(ScriptedModels.TraceEntry::site).containsExactly("py/exec", "a", "b");
        assertThat(r.results().get(1).trace()).extracting(ScriptedModels.TraceEntry::start).containsOnly(0L);
    }

    @Test void underAScriptTheScheduleIsExactlyRepeatable() {
        String file = AGENT + """
                (define both () (workflow ([x (a)] [y (b)] [z (call py exec (show x))] [w (catch (a) e 0)]) (+ x (+ y w))))
                (under ([script s]) (check-expect (both) 3))
                """;
        java.util.Set<List<ScriptedModels.TraceEntry>> traces = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            FileReport r = run(file);
            assertThat(r.failed()).as("%s", messages(r)).isZero();
            traces.add(r.results().get(0).trace());
        }
        assertThat(traces).hasSize(1);
        // x and w ask site a at once: x (started first) takes the reply, w the provider error, both at 0s
        List<ScriptedModels.TraceEntry> t = traces.iterator().next();
        assertThat(t).extracting(e -> e.site() + " " + e.reply() + " " + e.start() + "-" + e.end())
                .containsExactly("a provider-error 503 0-1000", "a reply 1 0-2000", "py/exec result done 2000-2500", "b reply 2 0-5000");
    }

    @Test void gradesCompareTheWorlds() {
        FileReport r = run(AGENT + """
                (under ([script s])
                  (check-equiv (a) 1 'value)
                  (check-equiv (a) 1 'resource)
                  (check-equiv (par (a) (b)) (par (a) (b)) 'exact)
                  (check-equiv (. (par (a) (b)) fst) (begin (b) (a)) 'value)
                  (check-equiv (. (par (a) (b)) fst) (begin (b) (a)) 'resource)
                  (check-equiv (. (par (a) (b)) fst) (. (par (b) (a)) snd) 'resource)
                  ; the trace is in the order the asks ended, so the order the branches are written in does not show
                  (check-equiv (. (par (a) (b)) fst) (. (par (b) (a)) snd) 'exact)
                  (check-equiv (call py exec "1") (call py exec "2") 'resource)
                  (check-equiv (call py exec "1") (call py exec "2") 'exact))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r))
                .containsExactly(true, false, true, true, false, true, true, true, false);
        assertThat(r.results().get(1).message()).contains("grade 'resource").contains("spent");
        assertThat(r.results().get(4).message()).contains("took");
        assertThat(r.results().get(8).message()).contains("traced");
        assertThat(r.results()).allSatisfy(t -> assertThat(t.message()).doesNotContain("issue 8"));
    }

    @Test void stepsReachingOneStatefulToolThroughValuesAreStoppedAtTheSecondStep() {
        // The capability travels in a local and a function parameter, so the check before the steps cannot see it;
        // the steps themselves can: the second concurrent step to reach the kernel stops the run before its call.
        FileReport r = run(AGENT + """
                (under ([script s])
                  (check-error (let* ([k py]) (par (call k exec "x = 1") (call k exec "x = 2"))))
                  (check-expect (let* ([k py]) (par (call (call k fork) exec "x = 1") (call k exec "x = 2"))) (Pair [fst "done"] [snd "done"]))
                  (check-expect (let* ([k py]) (workflow ([a (call k exec "x = 1")] [b (begin a (call k exec "x = 2"))]) b)) "done")
                  (check-expect (let* ([k py]) (begin (call k exec "x = 1") (. (par (call k exec "x = 2") 1) fst))) "done"))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r)).containsOnly(true);
        assertThat(r.results()).hasSize(4);
    }

    @Test void stepsSharingAStatefulToolAreRefusedBeforeAnyStepStarts() {
        FileReport r = run(AGENT + """
                (define use-py (s) (call py exec s))
                (under ([script s])
                  (check-error (workflow ([one (use-py "a")] [two (begin (a) (use-py "b"))]) one))
                  (check-expect (workflow ([one (call (call py fork) exec "a")] [two (use-py "b")]) one) "done"))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r)).containsExactly(true, true);
        // refused before any step: nothing was asked or called
        assertThat(r.results().get(0).trace()).isEmpty();
        Loaded l = harness.load(AGENT + "(define use-py (s) (call py exec s))\n(under ([script s]) (check-expect (workflow ([one (use-py \"a\")] [two (use-py \"b\")]) one) \"x\"))", "t.nm");
        assertThat(l.run(0).message()).contains("one and two").contains("`py`");
    }

    @Test void theWorkflowsDocExamplePasses() {
        FileReport r = harness.runAll(resource("docs/workflows.nm"), "workflows.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(10);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void theNegativesFailWithTheirReasons() {
        FileReport r = harness.runAll(resource("workflow-negatives.nm"), "workflow-negatives.nm");
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r))
                .containsExactly(false, false, false, true, true, true, false, true);
    }
}
