package dev.finch.norman.test;

import dev.finch.norman.harness.ScriptedModels;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.diag.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Script mistakes are diagnostics of the file, at the entry, before any test runs (issue 16, item 6) — never a later
 * "exhausted (0 scripted entries)" — and default site keys do not depend on the path the file is run by.
 */
class ScriptChecksTest extends HarnessTestSupport {
    private static final String HEAD = """
            (grant gpt (model [in 2] [out 8] [ceiling 400]))
            (grant py (kernel [count Num]))
            (define a () (ask gpt Text (list (Message [role User] [content "hi"])) 'analyst))
            """;

    /** The file's diagnostics as {@code code line:col}; the file must not run any test. */
    private static List<String> diagnostics(String body) {
        FileReport r = harness.runAll(HEAD + body, "t.nm");
        assertThat(r.results()).as("no test runs when the scripts are wrong").isEmpty();
        return r.diagnostics().stream().map(ScriptChecksTest::shown).toList();
    }

    private static String shown(Diagnostic d) { return d.code() + " " + d.origin().line() + ":" + d.origin().column(); }

    private static String firstMessage(String body) { return harness.runAll(HEAD + body, "t.nm").diagnostics().get(0).message(); }

    private static final String TEST = "\n(under ([script s]) (check-expect (a) \"x\"))";

    @Test void aMisspelledEntryKindIsReportedAtTheEntry() {
        assertThat(diagnostics("(script s\n  [analyst (reponse \"\\\"x\\\"\") (latency 1s)])" + TEST)).containsExactly("E-NORMAN-018 5:12");
        assertThat(firstMessage("(script s [analyst (reponse \"x\")])")).contains("`reponse` is not a script entry");
    }

    @Test void aQualifierBeforeAnyAnswerIsReported() {
        assertThat(diagnostics("(script s [analyst (latency 1s) (reply \"\\\"x\\\"\")])" + TEST)).containsExactly("E-NORMAN-018 4:20");
    }

    @Test void aMalformedLatencyIsReported() {
        assertThat(diagnostics("(script s [analyst (reply \"\\\"x\\\"\") (latency soon)])" + TEST)).containsExactly("E-NORMAN-019 4:45");
        assertThat(diagnostics("(script s [analyst (reply \"\\\"x\\\"\") (latency \"1s\")])" + TEST)).containsExactly("E-NORMAN-019 4:45");
        assertThat(diagnostics("(script s [analyst (reply \"\\\"x\\\"\") (latency 1.5ms)])" + TEST)).containsExactly("E-NORMAN-019 4:45");
        assertThat(diagnostics("(script s [analyst (reply \"\\\"x\\\"\") (latency 5)])" + TEST)).containsExactly("E-NORMAN-019 4:45");
    }

    @Test void aRefusalQuotesItsCategory() {
        assertThat(diagnostics("(script s [analyst (refused \"safety\")])" + TEST)).containsExactly("E-NORMAN-018 4:29");
        assertThat(diagnostics("(script s [analyst (refused safety)])" + TEST)).containsExactly("E-NORMAN-018 4:29");
    }

    @Test void duplicateScriptNamesAndSitesAreReported() {
        assertThat(diagnostics("(script s [analyst (reply \"\\\"x\\\"\")])\n(script s [analyst (reply \"\\\"y\\\"\")])" + TEST))
                .containsExactly("E-NORMAN-022 5:1");
        assertThat(firstMessage("(script s [analyst (reply \"x\")])\n(script s [analyst (reply \"y\")])")).contains("already declared at t.nm:4:1");
        assertThat(diagnostics("(script s\n  [analyst (reply \"\\\"x\\\"\")]\n  [analyst (reply \"\\\"y\\\"\")])" + TEST))
                .containsExactly("E-NORMAN-022 6:4");
    }

    @Test void aCapOpThatMatchesNoGrantIsReported() {
        assertThat(diagnostics("(script s [pyy/count (result \"1\")])" + TEST)).containsExactly("E-NORMAN-106 4:11");
        assertThat(firstMessage("(script s [pyy/count (result \"1\")])")).contains("no grant is named `pyy`").contains("py");
        assertThat(diagnostics("(script s [py/cont (result \"1\")])" + TEST)).containsExactly("E-NORMAN-106 4:11");
        assertThat(firstMessage("(script s [py/cont (result \"1\")])")).contains("declares no operation `cont` (it declares count, fork)");
        assertThat(diagnostics("(script s [gpt/ask (result \"1\")])" + TEST)).containsExactly("E-NORMAN-106 4:11");
        // two mistakes in separate scripts are both reported
        assertThat(diagnostics("(script s [pyy/count (result \"1\")])\n(script t [py/x (result \"1\")])" + TEST))
                .containsExactly("E-NORMAN-106 4:11", "E-NORMAN-106 5:11");
    }

    @Test void soundScriptsLoad() {
        FileReport r = run(HEAD + """
                (grant sh (kernel))
                (script s [analyst (reply "\\"x\\"") (out 1) (latency 1.5s) (provider-error "503")]
                          [py/count (result "1")] [py/fork (result "")] [sh/anything (result "t")])
                (under ([script s]) (check-expect (a) "x") (check-expect (call py count "n") 1))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void aRefusalIsRefusedWithItsCategory() {
        FileReport r = run(HEAD + """
                (script s [analyst (refused 'safety) (latency 1s) (reply "\\"x\\"")])
                (under ([script s] [time 1min])
                  (check-fail (a) (Refused _))
                  (check-expect (catch (a) e (case e [(Refused c) c] [_ 'other])) 'safety)
                  (check-within (a) ([cost $0] [time 1s]))
                  (check-expect (begin (catch (a) e "") (a)) "x"))
                """);
        assertThat(r.results()).hasSize(4);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        assertThat(r.results().get(0).trace()).extracting(ScriptedModels.TraceEntry::reply).containsExactly("refused 'safety");
    }

    /** The same file, run by two different paths, is keyed alike: the default site is the file's own name:line:col. */
    @Test void theDefaultSiteKeyDoesNotDependOnThePath() {
        String text = """
                (grant gpt (model [in 2] [out 8] [ceiling 400]))
                (define b () (ask gpt Text (list (Message [role User] [content "hi"]))))
                (script s [agents.nm:2:14 (reply "\\"hello\\"")])
                (under ([script s]) (check-expect (b) "hello"))
                """;
        for (String path : List.of("agents.nm", "docs/examples/agents.nm", "../x/./agents.nm", "C:\\\\work\\\\agents.nm")) {
            FileReport r = harness.runAll(text, path);
            assertThat(r.diagnostics()).as(path).isEmpty();
            assertThat(r.failed()).as(path + ": %s", messages(r)).isZero();
            assertThat(r.results().get(0).trace()).extracting(ScriptedModels.TraceEntry::site).as(path).containsExactly("agents.nm:2:14");
        }
    }
}
