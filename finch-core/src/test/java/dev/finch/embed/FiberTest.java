package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.capabilities.Scope;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 15, item 3: fibers — {@code fiber-new}, {@code fiber-next}, {@code fiber-join}, {@code fiber-cancel} — in both
 * frontends and both tiers; a failed run consumes no yield; a fiber lives on the session stack across turns, through a
 * pause inside its body, and through save and restore of a paused run.
 */
class FiberTest {
    @TempDir Path ws;

    private static final byte[] KEY = "finch tests: a 32-byte-or-longer image key".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private static Session session(Finch.Tier tier) { return Finch.builder().tier(tier).build().newSession(); }

    private static List<String> displays(Outcome o) { return o.stack().stream().map(e -> e.display()).toList(); }

    private static Outcome completed(Session s, String text, String sourceId) {
        Outcome o = s.submit(Submission.of(text, sourceId));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        return o;
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void coForthFiberYieldsThenEndsAndKeepsAnsweringItsEnd(Finch.Tier tier) {
        Session s = session(tier);
        Outcome o = completed(s, "[: ( -- int yields<int,unit> ) 1 yield 2 yield 3 ;] fiber-new\n"
                + "dup fiber-next swap dup fiber-next swap dup fiber-next swap fiber-next", "f.fth");
        assertThat(displays(o)).containsExactly("(ok 1)", "(ok 2)", "(err (end 3))", "(err (end 3))");
        assertThat(o.stack().get(0).type()).isEqualTo("result<int,variant{end(int)}>");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void lispFiberOverALoopWithLocalsAndJoin(Finch.Tier tier) {
        Session s = session(tier);
        Outcome o = completed(s, "(define (counter n) (fiber-new (lambda () (let loop ((i 0)) (when (< i n) (yield (* i 10)) (loop (+ i 1)))) \"done\")))\n"
                + "(define c (counter 3))\n(list (fiber-next c) (fiber-next c))\n(fiber-join c)\n(fiber-next c)", "c.lisp");
        assertThat(displays(o)).containsExactly("[(ok 0) (ok 10)]", "\"done\"", "(err (end \"done\"))");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aFiberWithoutAResultEndsWithUnitAndFibersNest(Finch.Tier tier) {
        Session s = session(tier);
        Outcome o = completed(s, "(define inner (fiber-new (lambda () (yield \"a\") (yield \"b\"))))\n"
                + "(define outer (fiber-new (lambda () (yield (fiber-next inner)) (yield (fiber-next inner)) (fiber-next inner))))\n"
                + "(list (fiber-next outer) (fiber-next outer))\n(fiber-join outer)", "n.lisp");
        assertThat(displays(o)).containsExactly("[(ok (ok \"a\")) (ok (ok \"b\"))]", "(err (end ()))");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aCancelledFiberIsACheckedErrorAndCannotResumeItself(Finch.Tier tier) {
        Session s = session(tier);
        Outcome o = s.submit(Submission.of("[: ( -- yields<int,unit> ) 1 yield ;] fiber-new dup fiber-cancel fiber-next", "x.fth"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-RUN-008");
        assertThat(o.diagnostics().get(0).phase()).hasToString("execute");
        Outcome self = s.submit(Submission.of("(define f 0)\n(define g (fiber-new (lambda () (yield 1))))\n(fiber-join g)", "ok.lisp"));
        assertThat(self.status()).as("%s", self).isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test
    void fiberNewRefusesAClosureThatDoesNotYield() {
        Session s = session(Finch.Tier.AUTO);
        Outcome o = s.submit(Submission.of("[: ( -- int ) 1 ;] fiber-new", "n.fth"));
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-VERIFY-002");
        assertThat(o.diagnostics().get(0).expected()).contains("yields<y,unit>");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aFiberLivesOnTheStackAcrossTurnsAndAFailedTurnConsumesNoYield(Finch.Tier tier) {
        Session s = session(tier);
        completed(s, "[: ( -- int yields<int,unit> ) 1 yield 2 yield 3 ;] fiber-new dup fiber-next drop", "make.fth");
        Outcome failed = s.submit(Submission.of("dup fiber-next drop dup fiber-next drop \"boom\" program-error", "fail.fth"));
        assertThat(failed.status()).isEqualTo(Outcome.Status.FAILED);
        Outcome next = completed(s, "dup fiber-next", "next.fth");
        assertThat(displays(next)).as("the failed turn consumed nothing").endsWith("(ok 2)");
        Outcome end = completed(s, "drop dup fiber-next swap fiber-next", "end.fth");
        assertThat(displays(end)).endsWith("(err (end 3))", "(err (end 3))");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aRunPausesForApprovalInsideAFiberBodyAndResumesThere(Finch.Tier tier) throws Exception {
        Files.writeString(ws.resolve("a.txt"), "hello");
        Session s = Finch.builder().tier(tier).build().newSession(SessionOptions.builder().workspace(ws).build());
        String program = "(define f (fiber-new (lambda () (yield 1) (match-result (bytes-to-string (file-read (path \"a.txt\")))"
                + " (ok t (say t)) (err e (say \"bad\"))) (yield 2) 3)))\n"
                + "(say \"[\") (define a (fiber-next f)) (define b (fiber-next f)) (say \"]\") (list a b (fiber-next f) (fiber-next f))";
        Outcome o = s.submit(Submission.of(program, "p.lisp"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        assertThat(o.output()).isEqualTo("[");
        Outcome done = s.approve(o.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("[hello]");
        assertThat(displays(done)).containsExactly("[(ok 1) (ok 2) (err (end 3)) (err (end 3))]");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aPauseInsideAFunctionValueThatListMapRunsIsRefused(Finch.Tier tier) throws Exception {
        Files.writeString(ws.resolve("a.txt"), "hello");
        Session s = Finch.builder().tier(tier).build().newSession(SessionOptions.builder().workspace(ws).build());
        Outcome o = s.submit(Submission.of("(define f (fiber-new (lambda () (yield (file-size (path \"a.txt\"))))))\n"
                + "(list-map (list f) (lambda (x) (fiber-next x)))", "m.lisp"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-RUN-007");
    }

    @Test
    void aLiveFiberSurvivesSaveAndRestoreOfAPausedRun() throws Exception {
        Files.writeString(ws.resolve("a.txt"), "hello");
        Finch finch = Finch.builder().imageKey(KEY).build();
        SessionOptions options = SessionOptions.builder().workspace(ws).build();
        Session s = finch.newSession(options);
        // The fiber has yielded once and sits in a local; the run pauses at a yield; a copy of the fiber is on the stack.
        String program = "[: ( -- string ! {fs.read(${workspace}/**)} yields<int,unit> ) 1 yield 2 yield \"a.txt\" path file-size drop 3 yield \"end\" ;] fiber-new\n"
                + "dup fiber-next drop \"paused\" yield dup fiber-next swap dup fiber-next swap dup fiber-next swap fiber-next";
        Outcome o = s.submit(Submission.of(program, "live.fth"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        String image = s.save(o.executionId());

        Session restored = Finch.builder().imageKey(KEY).build().restore(image, options);
        Outcome atRead = restored.resume(o.executionId());
        assertThat(atRead.status()).as("a pause inside the restored fiber's body: %s", atRead).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(atRead.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        // Saved again, this time paused inside the fiber's body, and restored once more.
        String second = restored.save(atRead.executionId());
        Session again = Finch.builder().imageKey(KEY).build().restore(second, options);
        Outcome done = again.approve(atRead.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(displays(done)).containsExactly("(ok 2)", "(ok 3)", "(err (end \"end\"))", "(err (end \"end\"))");
        assertThat(done.values().get(0)).isInstanceOf(Value.Result.class);
        assertThat(((Value.Result) done.values().get(0)).payload()).isEqualTo(Value.of(2));
    }

    @Test
    void aFiberOnTheSessionStackSurvivesSaveAndRestore() {
        Finch finch = Finch.builder().imageKey(KEY).build();
        Session s = finch.newSession();
        completed(s, "(fiber-new (lambda () (yield \"one\") (yield \"two\") (yield \"three\") 4))", "make.lisp");
        completed(s, "dup fiber-next drop", "first.fth");
        // A later turn takes the fiber from the stack, runs it once more, and pauses at a yield of its own.
        Outcome paused = s.submit(Submission.of("dup fiber-next \"checkpoint\" yield", "pause.fth"));
        assertThat(paused.status()).as("%s", paused).isEqualTo(Outcome.Status.SUSPENDED);
        String image = s.save(paused.executionId());

        Session restored = Finch.builder().imageKey(KEY).build().restore(image);
        Outcome resumed = restored.resume(paused.executionId());
        assertThat(resumed.status()).as("%s", resumed).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(displays(resumed)).containsExactly("#fiber<string,int><fiber:suspended>", "(ok \"two\")");
        Outcome rest = completed(restored, "drop dup fiber-next swap fiber-join", "rest.fth");
        assertThat(displays(rest)).endsWith("(ok \"three\")", "4");
    }

    @Test
    void copiesOfAFiberStayOneAndACancelledRestoredRunConsumesNothing() {
        Session s = Finch.builder().imageKey(KEY).build().newSession();
        completed(s, "(fiber-new (lambda () (yield 1) (yield 2) (yield 3) 4))", "make.lisp");
        // The paused run has advanced the fiber once; the committed stack still holds it unadvanced.
        Outcome copies = s.submit(Submission.of("dup fiber-next drop dup \"c\" yield fiber-next swap fiber-next", "copies.fth"));
        String image = s.save(copies.executionId());
        Session again = Finch.builder().imageKey(KEY).build().restore(image);
        assertThat(displays(again.resume(copies.executionId()))).containsExactly("(ok 2)", "(ok 3)");
        Session failing = Finch.builder().imageKey(KEY).build().restore(image);
        assertThat(failing.cancel(copies.executionId())).isTrue();
        assertThat(displays(completed(failing, "fiber-next", "after.fth"))).as("the cancelled run consumed no yield").containsExactly("(ok 1)");
        // In memory too: dropping a paused run that advanced a fiber of the session's stack undoes that.
        assertThat(s.cancel(copies.executionId())).isTrue();
        assertThat(displays(completed(s, "dup fiber-next", "peek.fth"))).endsWith("(ok 1)");
        Outcome pausedAgain = s.submit(Submission.of("drop dup fiber-next drop \"c\" yield", "drop.fth"));
        assertThat(pausedAgain.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(s.cancel(pausedAgain.executionId())).isTrue();
        assertThat(displays(completed(s, "drop fiber-next", "after.fth"))).containsExactly("(ok 2)");
    }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aTaskJoinInsideAFiberBodyPausesTheRunThereAndTheFiberGoesOn(Finch.Tier tier) {
        Session s = session(tier);
        Outcome o = s.submit(Submission.of("[: ( -- int yields<int,unit> ) [: ( -- int ) 0 begin dup 2000000 < while 1 + repeat drop 7 ;] "
                + "defer-cpu task-join yield 8 ;] fiber-new dup fiber-next swap fiber-next", "t.fth"));
        Outcome done = s.awaitTasks(o);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(displays(done)).containsExactly("(ok 7)", "(err (end 8))");
    }

    @Test
    void aStepMayDriveAFiber() {
        Session s = session(Finch.Tier.AUTO);
        Outcome o = completed(s, "[: ( -- int yields<int,unit> ) 1 yield 2 ;] fiber-new :> f "
                + "[: ( -- int ) f fiber-next drop f fiber-join ;] step-spawn step-join", "s.fth");
        assertThat(displays(o)).containsExactly("2");
    }
}
