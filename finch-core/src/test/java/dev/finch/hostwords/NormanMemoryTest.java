package dev.finch.hostwords;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import org.junit.jupiter.api.Test;

/**
 * µNorman reaches Finch's memory through a memory grant and {@code call}: the calls are the memory words themselves,
 * so they need {@code memory.read(tree=T,path=P)} / {@code memory.write(tree=T,path=P)} (never {@code tool.call}), are
 * previewed with the concrete requirement when the path is a literal, pause for approval, and a failed run writes
 * nothing; what one session wrote under {@code project} another session of the project reads, typed by its grant.
 */
class NormanMemoryTest {
    private static final String NOTES = """
            (record Note (text (Text 200)) (tags (List Sym)))
            (grant notes (memory [tree project] [value Note]))
            """;

    private static Outcome norman(Session s, String src) { return s.submit(Submission.of(src, "agent.nm").withLanguage(Language.NORMAN)); }

    private static Session granted(Finch f) {
        return f.newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=project,path=**)").withGrant("memory.write(tree=project,path=**)"));
    }

    @Test void aNoteOneSessionPutsUnderProjectIsWhatTheNextSessionGets() {
        Finch f = Finch.builder().project("demo").build();
        Outcome put = norman(granted(f), NOTES + "(call notes put \"todo/milk\" (Note [text \"buy milk\"] [tags (list 'home)]))");
        assertThat(put.status()).as(put.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(put.stack()).extracting(e -> e.display()).containsExactly("true");
        assertThat(put.inferredCapabilities()).containsExactly("memory.write(tree=project,path=todo/milk)");
        Outcome got = norman(granted(f), NOTES + """
                (define tags-of (path) (case (call notes get path) [(Some n) (. n tags)] [None '()]))
                (show (call notes get "todo/milk"))
                (tags-of "todo/milk")
                (tags-of "todo/eggs")
                (call notes list "todo")
                """);
        assertThat(got.status()).as(got.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(got.stack()).extracting(e -> e.display()).containsExactly(
                "\"{\\\"tag\\\":\\\"Some\\\",\\\"value\\\":{\\\"tags\\\":[\\\"home\\\"],\\\"text\\\":\\\"buy milk\\\"}}\"",
                "['home]", "[]", "[\"todo/milk\"]");
    }

    @Test void withoutTheGrantARunPausesAtTheConcreteRequirementAndWritesOnlyWhenApproved() {
        Finch f = Finch.builder().project("demo").build();
        Session s = f.newSession();
        Outcome paused = norman(s, NOTES + "(call notes put \"todo/milk\" (Note [text \"buy milk\"] [tags '()]))");
        assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(paused.requiredCapabilities()).containsExactly("memory.write(tree=project,path=todo/milk)");
        assertThat(paused.requiredCapabilities()).noneMatch(c -> c.startsWith("tool.call"));
        Outcome approved = s.approve(paused.executionId(), Scope.ONCE);
        assertThat(approved.status()).as(approved.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(norman(granted(f), NOTES + "(call notes list \"\")").stack()).extracting(e -> e.display()).containsExactly("[\"todo/milk\"]");
    }

    @Test void aDeniedWriteAndAFailedRunWriteNothing() {
        Finch f = Finch.builder().project("demo").build();
        Session s = f.newSession();
        Outcome paused = norman(s, NOTES + "(call notes put \"a\" (Note [text \"x\"] [tags '()]))");
        assertThat(s.deny(paused.executionId(), "no").status()).isEqualTo(Outcome.Status.FAILED);
        // Granted, the put is staged; the run then fails (an uncaught failure), so nothing is written.
        Outcome failed = norman(granted(f), NOTES + "(call notes put \"b\" (Note [text \"x\"] [tags '()])) (fail 'boom)");
        assertThat(failed.status()).as(failed.toString()).isEqualTo(Outcome.Status.FAILED);
        assertThat(norman(granted(f), NOTES + "(call notes list \"\")").stack()).extracting(e -> e.display()).containsExactly("[]");
    }

    @Test void aRunReadsItsOwnStagedWritesAndDeletes() {
        Finch f = Finch.builder().project("demo").build();
        Outcome o = norman(granted(f), NOTES + """
                (val n (Note [text "t"] [tags (list 'a 'b)]))
                (call notes put "x" n)
                (= (call notes get "x") (Some n))
                (call notes delete "x")
                (call notes get "x")
                """);
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(e -> e.display()).containsExactly("true", "true", "true", "(None)");
    }

    @Test void anEntryThatIsNotTheGrantsTypeIsInvalidWithItsText() {
        Finch f = Finch.builder().project("demo").build();
        Session lisp = granted(f);
        Outcome wrote = lisp.submit(Submission.of("(memory-put \"project\" \"odd\" (json-of-int 7))", "w.lisp"));
        assertThat(wrote.status()).as(wrote.toString()).isEqualTo(Outcome.Status.COMPLETED);
        Outcome o = norman(granted(f), NOTES + "(catch (show (call notes get \"odd\")) e (show e))");
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(e -> e.display()).containsExactly("\"{\\\"raw\\\":\\\"7\\\",\\\"tag\\\":\\\"Invalid\\\"}\"");
    }

    @Test void thePreviewIsConcreteForALiteralPathAlsoThroughAFunctionsParameterAndTheBoundOtherwise() {
        Finch f = Finch.builder().project("demo").build();
        Outcome o = norman(granted(f), NOTES + """
                (define note () (Note [text "t"] [tags '()]))
                (define a () (call notes put "todo/a" (note)))
                (define e (k) (call notes get k))
                (a) (call notes get "todo/b") (call notes list "todo") (call notes delete "todo/d") (e "todo/e")
                """);
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.inferredCapabilities()).containsExactly("memory.read(tree=project,path=todo/**)", "memory.read(tree=project,path=todo/b)",
                "memory.read(tree=project,path=todo/e)", "memory.write(tree=project,path=todo/a)", "memory.write(tree=project,path=todo/d)");
        Outcome computed = norman(granted(f), NOTES + "(define e (k) (call notes get (text-append \"todo/\" k))) (e \"x\")");
        assertThat(computed.status()).as(computed.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(computed.inferredCapabilities()).containsExactly("memory.read(tree=*,path=**)");
    }

    @Test void memoryCallsWorkInsideLambdasCatchesBudgetsAndWorkflowSteps() {
        Finch f = Finch.builder().project("demo").build();
        Outcome o = norman(granted(f), NOTES + """
                (define note (t) (Note [text t] [tags '()]))
                (define put-all (ks) (case ks ['() #t] [(cons k rest) (begin (call notes put k (note k)) (put-all rest))]))
                (put-all (list "a" "b"))
                ((lambda (k) (call notes get k)) "a")
                (catch (call notes get "b") e None)
                (budget ([cost $1]) (call notes list ""))
                (workflow ([x (call notes get "a")] [y (call notes get "b")]) (Pair [fst x] [snd y]))
                """);
        assertThat(o.status()).as(o.toString()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).hasSize(5);
        assertThat(o.stack().get(3).display()).isEqualTo("[\"a\" \"b\"]");
    }

    @Test void aProjectApprovalOfAReadHoldsForTheProjectsNextSession() {
        Finch f = Finch.builder().project("demo").build();
        Session first = f.newSession();
        Outcome asked = norman(first, NOTES + "(call notes get \"todo/a\")");
        assertThat(asked.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(asked.requiredCapabilities()).containsExactly("memory.read(tree=project,path=todo/a)");
        assertThat(first.approve(asked.executionId(), Scope.PROJECT).status()).isEqualTo(Outcome.Status.COMPLETED);
        // A project approval holds for the project's next session, exactly as for Lisp's memory words.
        Outcome again = norman(f.newSession(), NOTES + "(call notes get \"todo/a\")");
        assertThat(again.status()).as(again.toString()).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test void theMemoryWordsLimitsHoldAndEachStopsTheRunWithNothingWritten() {
        Finch f = Finch.builder().project("demo").build();
        String raw = "(grant raw (memory [tree project]))\n";
        Outcome path = norman(granted(f), raw + "(call raw put \"a/../b\" \"x\")");
        assertThat(path.diagnostics().get(0).code()).isEqualTo("E-MEMORY-002");
        Outcome big = norman(granted(f), raw + """
                (define grow (s n) (if (< n 1) s (grow (text-append s s) (- n 1))))
                (call raw put "big" (grow "x" 17))
                """);
        assertThat(big.diagnostics().get(0).code()).isEqualTo("E-MEMORY-003");
        Outcome deep = norman(granted(f), """
                (datatype Chain [End] [Link (next Chain)])
                (grant chains (memory [tree project] [value Chain]))
                (define chain (n) (if (< n 1) End (Link (chain (- n 1)))))
                (call chains put "c" (chain 600))
                """);
        assertThat(deep.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(deep.diagnostics().get(0).message()).contains("cannot be stored in memory").doesNotContain("Exception");
        Outcome noProject = norman(Finch.create().newSession(SessionOptions.DEFAULT.withGrant("memory.read(tree=project,path=**)")),
                raw + "(call raw get \"a\")");
        assertThat(noProject.diagnostics().get(0).code()).isEqualTo("E-MEMORY-004");
        assertThat(norman(granted(f), raw + "(call raw list \"\")").stack()).extracting(e -> e.display()).containsExactly("[]");
    }
}
