package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A call made again — the same word, arguments of the same types, the session unchanged — runs the call prepared the
 * first time (verified and compiled once): it answers exactly as a first call would, every run gets its own limits,
 * and anything that changes the session's state (a definition, a constant, a commit) is seen by the next call.
 */
class RepeatedCallTest {
    private final Finch finch = Finch.create();

    private Session with(Finch f, String program) {
        Session s = f.newSession();
        assertThat(s.submit(Submission.of(program, "defs.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        return s;
    }

    @Test void aRepeatedCallAnswersAsTheFirst() {
        Session s = with(finch, ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;");
        for (int n = 0; n < 20; n++) {
            Outcome o = s.call("fib", Value.of(n % 10 + 10));
            assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(o.values()).containsExactly(Value.of(fib(n % 10 + 10)));
            assertThat(o.executionId()).endsWith("-e" + (n + 2));
        }
        assertThat(s.vmRevision()).isEqualTo(1);
        assertThat(s.stack()).isEmpty();
    }

    @Test void aNewDefinitionIsCalledAtOnce() {
        Session s = with(finch, ": bump ( int -- int ) 1 + ;");
        assertThat(s.call("bump", Value.of(1)).values()).containsExactly(Value.of(2));
        assertThat(s.call("bump", Value.of(1)).values()).containsExactly(Value.of(2));
        assertThat(s.submit(Submission.of(": bump ( int -- int ) 10 + ;", "again.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.call("bump", Value.of(1)).values()).containsExactly(Value.of(11));
    }

    @Test void aConstantGivenANewValueIsReadByTheNextCall() {
        Session s = finch.newSession();
        s.define("base", Value.of(100));
        assertThat(s.submit(Submission.of(": plus-base ( int -- int ) base + ;", "defs.fth")).status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.call("plus-base", Value.of(1)).values()).containsExactly(Value.of(101));
        s.define("base", Value.of(200));
        assertThat(s.call("plus-base", Value.of(1)).values()).containsExactly(Value.of(201));
        assertThat(s.call("base").values()).containsExactly(Value.of(200));
    }

    @Test void eachArgumentTypeHasItsOwnCall() {
        Session s = finch.newSession();
        assertThat(s.submit(Submission.of("(define (pair-up x) (list x x))", "defs.lisp")).status()).isEqualTo(Outcome.Status.COMPLETED);
        for (int round = 0; round < 2; round++) {
            assertThat(s.call("pair-up", Value.of("q")).values().get(0).type().toString()).isEqualTo("list<string>");
            assertThat(s.call("pair-up", Value.of(2.5)).values().get(0).asList()).containsExactly(Value.of(2.5), Value.of(2.5));
            assertThat(s.call("pair-up", Value.of(3)).values().get(0).type().toString()).isEqualTo("list<int>");
        }
        // More argument types than the session keeps calls for: each still answers for its own type.
        Value v = Value.of(1);
        String type = "int";
        for (int depth = 0; depth < 70; depth++) {
            Outcome o = s.call("pair-up", v);
            assertThat(o.values().get(0).type().toString()).isEqualTo("list<" + type + ">");
            v = Value.list(type, List.of(v));
            type = "list<" + type + ">";
        }
        assertThat(s.call("pair-up", Value.of("q")).values()).containsExactly(Value.list("string", List.of(Value.of("q"), Value.of("q"))));
        Outcome wrong = s.call("pair-up", Value.of(1), Value.of(2));
        assertThat(wrong.diagnostics().get(0).code()).isEqualTo("E-SESSION-007");
    }

    @Test void aRefusedCallIsRefusedAgainAndTheRightOneRuns() {
        Session s = with(finch, ": square ( int -- int ) dup * ;");
        for (int i = 0; i < 2; i++) {
            assertThat(s.call("square", Value.of("two")).diagnostics().get(0).code()).startsWith("E-VERIFY-");
            assertThat(s.call("square", Value.of(3)).values()).containsExactly(Value.of(9));
        }
    }

    /** Every run of the prepared call starts with the whole step budget, whatever the run before it did. */
    @Test void eachRunHasItsOwnStepBudget() {
        Finch small = Finch.builder().maxSteps(1_000_000).build();
        Session s = with(small, ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;");
        for (int i = 0; i < 3; i++) {
            assertThat(s.call("fib", Value.of(40)).diagnostics()).extracting(d -> d.code()).containsExactly("E-LIMIT-001");
            assertThat(s.call("fib", Value.of(20)).values()).containsExactly(Value.of(fib(20)));
        }
    }

    /** A loop on the caller's thread stops at its deadline, and the next call runs again. */
    @Test void aLongLoopStopsAtItsDeadline() {
        Finch timed = Finch.builder().maxSteps(Long.MAX_VALUE / 2).timeout(Duration.ofMillis(200)).build();
        Session s = timed.newSession();
        // (Compiling the definition and the call's plan are under the deadline too: made again if a loaded machine was slower.)
        assertThat(HangGuard.ran(() -> s.submit(Submission.of(": spin ( int -- int ) begin dup 0 > while 1 - repeat ;", "defs.fth"))).status())
                .isEqualTo(Outcome.Status.COMPLETED);
        // Long.MAX_VALUE turns of the loop never end by themselves, and no step limit holds them: the deadline did.
        Outcome late = HangGuard.ran(() -> s.call("spin", Value.of(Long.MAX_VALUE)));
        assertThat(late.diagnostics()).extracting(d -> d.code()).containsExactly("E-LIMIT-002");
        assertThat(s.call("spin", Value.of(10)).values()).containsExactly(Value.of(0));
    }

    /** Cancelling a call from another thread stops it; so does interrupting the thread that waits for it. */
    @Test void aCallIsCancelledByCancelAndByAnInterrupt() throws Exception {
        Finch endless = Finch.builder().maxSteps(Long.MAX_VALUE / 2).timeout(Duration.ofMinutes(5)).build();
        Session s = with(endless, ": spin ( int -- int ) begin dup 0 > while 1 - repeat ; "
                + ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;");
        for (String word : List.of("spin", "fib")) {
            long n = word.equals("spin") ? Long.MAX_VALUE : 90;
            Thread canceller = new Thread(() -> {
                while (s.runningExecution().isEmpty()) Thread.onSpinWait();
                s.cancel(s.runningExecution().get());
            });
            canceller.start();
            assertThat(s.call(word, Value.of(n)).diagnostics()).as(word).extracting(d -> d.code()).containsExactly("E-RUN-001");
            canceller.join();
            AtomicReference<Outcome> interrupted = new AtomicReference<>();
            Thread caller = new Thread(() -> interrupted.set(s.call(word, Value.of(n))));
            caller.start();
            while (s.runningExecution().isEmpty()) Thread.onSpinWait();
            caller.interrupt();
            caller.join(10_000);
            assertThat(interrupted.get()).as(word).isNotNull();
            assertThat(interrupted.get().status()).as(word).isEqualTo(Outcome.Status.CANCELLED);
            assertThat(s.call(word, Value.of(5)).values()).as(word).containsExactly(Value.of(word.equals("spin") ? 0 : 5));
        }
    }

    private static long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
}
