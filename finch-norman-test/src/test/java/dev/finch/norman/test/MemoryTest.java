package dev.finch.norman.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.NormanTests;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Memory grants under the harness: a test's memory calls go to Finch's memory words against an empty memory of the
 * test's own world (never to the script), the harness grants each memory grant's tree, a failed run writes nothing,
 * and the memory a test's runs leave is part of the host state {@code check-equiv 'resource} compares.
 */
class MemoryTest extends HarnessTestSupport {
    @Test void theDocsExamplePasses() {
        FileReport r = harness.runAll(resource("docs/memory.nm"), "memory.nm");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.results()).hasSize(7);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void anAgentThatRemembersIsTestableAndEachTestStartsEmpty() {
        FileReport r = run("""
                (grant mem (memory [tree session] [value Num]))
                (define bump (k) (let* ([n (case (call mem get k) [(Some v) v] [None 0])]) (begin (call mem put k (+ n 1)) (+ n 1))))
                (check-expect (begin (bump "c") (bump "c") (bump "c")) 3)
                (check-expect (bump "c") 1)
                (check-expect (begin (bump "a/x") (bump "b") (bump "a/y") (call mem list "a")) (list "a/x" "a/y"))
                (check-expect (begin (bump "a/x") (call mem list "")) (list "a/x"))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        assertThat(r.results()).hasSize(4);
    }

    @Test void aCaughtFailureKeepsWhatWasPutAsInOneRun() {
        // A failure is a value: a put before it is kept when the failure is caught, whether the catch runs in one run
        // (same types) or, its handler answering another type, as the expression's run and then the handler's in the
        // same world (the expression's run completed, with its failure, so what it put is there for the handler).
        FileReport r = run("""
                (grant mem (memory [tree global]))
                (check-expect (catch (begin (call mem put "k" "v") (fail 'boom)) e (call mem get "k")) (Some "v"))
                (check-expect (catch (begin (call mem put "k" "v") (fail 'boom) 1) e (call mem get "k")) (Some "v"))
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
    }

    @Test void resourceEquivalenceComparesTheMemoryLeft() {
        FileReport r = run("""
                (grant mem (memory [tree project]))
                (check-equiv (call mem put "a" "1") (call mem put "a" "1") 'resource)
                (check-equiv (call mem put "a" "1") (call mem put "a" "2") 'resource)
                (check-equiv (call mem put "a" "1") (call mem put "a" "2") 'value)
                """);
        assertThat(messages(r).get(0)).contains("true");
        assertThat(messages(r).get(1)).contains("false").contains("memory").contains("project {a=\"1\"}").contains("project {a=\"2\"}");
        assertThat(messages(r).get(2)).contains("true");
    }

    @Test void theHarnessGrantsEachMemoryGrantItsTreeOnly() {
        var n = new dev.finch.norman.Norman(dev.finch.norman.SourceLoader.inMemory(java.util.Map.of()));
        NormanTests t = n.lowerTests(n.check("""
                (grant a (memory [tree project]))
                (grant b (memory [tree project] [value Num]))
                (grant c (memory [tree session]))
                (grant m (model))
                """, "g.nm"), dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(TestHarness.grantsOf(t.agents())).containsExactly("memory.read(tree=project,path=**)", "memory.write(tree=project,path=**)",
                "memory.read(tree=session,path=**)", "memory.write(tree=session,path=**)", "model.ask(m)");
    }

    @Test void memoryCallsAreNeverScripted() {
        FileReport r = harness.runAll("""
                (grant notes (memory [tree project]))
                (script s [notes/get (result "x")])
                """, "s.nm");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("E-NORMAN-106");
            assertThat(d.message()).contains("memory grant").contains("never scripted");
        });
    }

    @Test void aTopLevelPutIsNotWhatTheTestsSee() {
        FileReport r = run("""
                (grant mem (memory [tree global]))
                (call mem put "seen" "by the top level")
                (check-expect (call mem get "seen") None)
                """);
        assertThat(r.failed()).as("%s", messages(r)).isZero();
        assertThat(r.results()).extracting(TestResult::passed).isEqualTo(List.of(true));
    }
}
