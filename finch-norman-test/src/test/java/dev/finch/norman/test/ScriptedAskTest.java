package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Scripted asks end to end: grants, scripts, under, the reservation, the simulated clock, check-within, retry. */
class ScriptedAskTest extends HarnessTestSupport {
    private static final String HEAD = """
            (grant gpt (model [in 2] [out 8] [ceiling 4000]))
            (record Answer (value Num))
            (define ask-n () (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math))
            """;

    @Test void theConformanceCasePasses() {
        FileReport r = harness.runAll(resource("dev/finch/norman/norman-scripted-ask.nm"), "norman-scripted-ask.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(2);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    /** The reference's complete example, verbatim, as README and docs/examples show it. */
    private static String agentsExample() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "examples", "agents.nm"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test void theReferencesCompleteExamplePasses() {
        FileReport r = harness.runAll(agentsExample(), "agents.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(4);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void aTestSidesCatchMayAnswerAnotherTypeThanItsExpression() {
        // The reference's example, generalized: the expression runs, and the handler only when it failed, in the same
        // world; whichever value came out is compared with its type.
        FileReport r = run(HEAD + """
                (script s [math (reply "oops") (out 1) (latency 1s) (reply "{\\"value\\":4}") (out 4) (latency 1s)])
                (under ([script s])
                  (check-expect (catch (ask-n) e (case e [(Invalid raw) raw] [_ "other"])) "oops")
                  (check-expect (catch (retry 1 ask-n) e "failed") (Answer [value 4]))
                  (check-expect (catch (retry 1 ask-n) e "failed") "failed")
                  (check-equiv (catch (ask-n) e (case e [(Invalid raw) raw] [_ "other"])) "oops" 'value)
                  (check-fail (catch (ask-n) e (fail 'gave-up)) (Raised _))
                  (check-expect (catch (ask-n) e (. (ask-n) value)) 4))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r)).containsExactly(true, true, false, true, true, true);
        // a value of the other type is simply not equal
        assertThat(r.results().get(2).message()).contains("expected \"failed\"").contains("found");
        // the last handler asked again and got the script's second entry: it ran in the expression's world
    }

    @Test void anAsksAnswerTypeIsKnownWhereTheAskIsWritten() {
        // no function declares the answer's type here: the ask itself does
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":4}") (out 4) (latency 1s)])
                (under ([script s])
                  (check-expect (. (ask gpt Answer (list (Message [role User] [content "2+2?"])) 'math) value) 4))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void anywhereElseAHandlerAnswersLikeItsExpression() {
        for (String bad : java.util.List.of(
                "(check-expect (show (catch (ask-n) e \"x\")) \"x\")",
                "(define f () (catch (ask-n) e \"x\"))",
                "(check-assert (catch (ask-n) e \"x\"))",
                "(check-expect (catch (ask-n) e (+ 1 \"x\")) 1)")) {
            FileReport r = harness.runAll(HEAD + bad, "t.nm");
            assertThat(r.diagnostics()).as(bad).isNotEmpty();
            assertThat(r.diagnostics().get(0).code()).as(bad).startsWith("E-NORMAN-");
        }
    }

    @Test void anInvalidReplyKeepsTheRawTextAndRetryRetriesIt() {
        FileReport r = run(HEAD + """
                (script s [math (reply "four") (out 1) (latency 1s) (reply "{\\"value\\":4}") (out 4) (latency 1s)])
                (under ([script s])
                  (check-expect (catch (begin (ask-n) "valid") e (case e [(Invalid raw) raw] [_ "other"])) "four")
                  (check-expect (. (retry 1 ask-n) value) 4)
                  (check-fail (retry 0 ask-n) (Invalid _))
                  (check-within (retry 1 ask-n) ([cost $0.0001] [time 2s]))
                  (check-within (retry 1 ask-n) ([cost ∞] [time 1999ms])))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r)).containsExactly(true, true, true, true, false);
        assertThat(r.results().get(4).message()).contains("took 2s");
    }

    @Test void aReservationThatDoesNotFitNeverCallsTheModelAndChargesNothing() {
        // Unbounded text reserves the ceiling (4000 out-tokens at 8 µ$ = $0.032); a 3-byte-bounded answer far less.
        FileReport r = run(HEAD + """
                (define ask-t () (ask gpt Text (list (Message [role User] [content "hi"])) 'math))
                (define ask-b () (ask gpt (Text 3) (list (Message [role User] [content "hi"])) 'math))
                (script s [math (reply "\\"ok\\"") (out 1) (latency 1s)])
                (under ([script s] [cost $0.01])
                  (check-fail (ask-t) OverBudget)
                  (check-within (catch (ask-t) e "x") ([cost $0] [time 0s]))
                  (check-expect (ask-b) "ok")
                  (check-fail (retry 3 ask-t) OverBudget))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void theSimulatedClockAndTheDeadline() {
        FileReport r = run(HEAD + """
                (script slow [math (reply "{\\"value\\":1}") (out 4) (latency 2s) (reply "{\\"value\\":2}") (out 4) (latency 2s)])
                (under ([script slow] [time 3s])
                  (check-expect (. (ask-n) value) 1)
                  (check-fail (begin (ask-n) (ask-n)) PastDeadline)
                  (check-within (catch (begin (ask-n) (ask-n)) e (Answer [value 0])) ([cost $1] [time 4s])))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void anExhaustedScriptOrNoScriptIsACheckedRunTimeError() {
        FileReport r = run(HEAD + """
                (script one [math (reply "{\\"value\\":1}") (out 4) (latency 1s)])
                (under ([script one])
                  (check-error (begin (ask-n) (ask-n)))
                  (check-error (catch (begin (ask-n) (ask-n)) e (Answer [value 0]))))
                (check-error (ask-n))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void aTypeThatIsNotAskableIsACheckedRunTimeError() {
        FileReport r = run(HEAD + """
                (record Holder (thing Any))
                (define ask-h () (ask gpt Holder (list) 'math))
                (script one [math (reply "{}") (out 4) (latency 1s)])
                (under ([script one]) (check-error (ask-h)))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void repairGrowsTheContextAndWindowKeepsSystemMessages() {
        FileReport r = run(HEAD + """
                (define ask-c (ctx) (ask gpt Answer ctx 'math))
                (script s [math (reply "four") (out 1) (latency 1s) (reply "{\\"value\\":4}") (out 4) (latency 1s)])
                (under ([script s])
                  (check-expect (. (repair 1 ask-c (list (Message [role User] [content "2+2?"]))) value) 4))
                (define sys (t) (Message [role System] [content t]))
                (define usr (t) (Message [role User] [content t]))
                (check-expect (window 1 (list (usr "a") (sys "s") (usr "b"))) (list (sys "s") (usr "b")))
                (check-expect (window 5 (list (usr "a") (sys "s"))) (list (sys "s") (usr "a")))
                (check-expect (window 0 (list (usr "a") (sys "s"))) (list (sys "s")))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void budgetsNestTakingTheSmallerAndChargeTheOutside() {
        // One ask reserves 5*2 + 9*8 = 82 µ$ and is charged 5*2 + 4*8 = 42 µ$.
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":5}") (out 4) (latency 1s) (reply "{\\"value\\":6}") (out 4) (latency 1s)])
                (under ([script s] [cost $1])
                  (check-fail (budget ([cost $0.00005]) (ask-n)) OverBudget)
                  (check-within (catch (budget ([cost $0.00005]) (. (ask-n) value)) e 0) ([cost $0] [time 0s]))
                  (check-expect (. (budget ([cost $0.01]) (ask-n)) value) 5)
                  (check-expect (. (budget ([cost $0.01]) (remaining)) cost) $0.01)
                  (check-expect (. (budget ([cost $0.5]) (budget ([cost $0.01]) (remaining))) cost) $0.01)
                  (check-expect (. (budget ([cost $0.01]) (budget ([cost $0.5]) (remaining))) cost) $0.01)
                  (check-expect (. (budget ([cost $0.01]) (begin (ask-n) (remaining))) cost) $0.009958)
                  (check-expect (begin (budget ([cost $0.01]) (ask-n)) (. (remaining) cost)) $0.999958)
                  (check-expect (. (remaining) time) ∞)
                  (check-expect (. (budget ([time 3s]) (begin (ask-n) (remaining))) time) 2s)
                  (check-fail (budget ([time 1s]) (begin (ask-n) (ask-n))) PastDeadline)
                  (check-fail (retry 5 (lambda () (budget ([time 1s]) (begin (ask-n) (ask-n))))) PastDeadline))
                (check-expect (. (budget ([cost $1]) (remaining)) cost) $1)
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        assertThat(r.results()).hasSize(13);
    }

    @Test void anUnderLimitMayBeAnExpressionEvaluatedBeforeTheTest() {
        // "2+2?" reserves 5 input tokens at 2 µ$ and 9 output tokens at 8 µ$: 82 µ$
        FileReport r = run(HEAD + """
                (script s [math (reply "{\\"value\\":4}") (out 4) (latency 1s) (reply "{\\"value\\":4}") (out 4) (latency 1s)])
                (val tight $0.00008)
                (define seconds (n) (if (> n 1) 2s 1s))
                (under ([script s] [cost tight]) (check-fail (ask-n) OverBudget))
                (under ([script s] [cost (if #t $1 $0)] [time (seconds 2)])
                  (check-expect (. (ask-n) value) 4)
                  (check-fail (begin (ask-n) (ask-n) (ask-n)) PastDeadline))
                (under ([cost (fail 'no-budget)]) (check-assert #t))
                """);
        assertThat(r.results()).extracting(TestResult::passed).as("%s", messages(r)).containsExactly(true, true, true, false);
        assertThat(r.results().get(3).message()).contains("the cost limit of under failed").contains("no-budget");
    }
}
