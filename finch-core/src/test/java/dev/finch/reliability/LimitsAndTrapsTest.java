package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Reliability rows 5, 8, 9, 11 and 12 (../shared/guide/reliability.md), through the public API. */
class LimitsAndTrapsTest {

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "t")); }

    private static String code(Outcome o) { return o.fields().diagnostics().get(0).code(); }

    /** Row 5: each trap has its stable code; the VM state is unchanged; streamed output is kept. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"a\" say [3] 9 list-get unwrap | E-OPTION-001",
            "\"a\" say 1 0 /                 | E-ARITH-002",
            "\"a\" say 1 0 mod               | E-ARITH-002",
            "\"a\" say 9223372036854775807 1 + | E-ARITH-001",
            "\"a\" say -9223372036854775808 negate | E-ARITH-001",
            "\"a\" say 4611686018427387904 2 * | E-ARITH-001",
            "\"a\" say \"x\" err result-unwrap drop | E-RESULT-001",
            "\"a\" say 1 ok result-error drop | E-RESULT-002"})
    void trapsKeepStateAndOutput(String program, String expected) {
        Session s = Finch.create().newSession();
        assertThat(run(s, "1 2 : keep ( int -- int ) 1 + ;")).isInstanceOf(Outcome.Completed.class);
        long revision = s.vmRevision();
        var stack = s.stack();
        var defs = s.definitions();
        Outcome o = run(s, "99 constant c 7 " + program);
        assertThat(o).isInstanceOf(Outcome.Failed.class);
        assertThat(code(o)).isEqualTo(expected);
        assertThat(o.fields().diagnostics().get(0).phase().spelling()).isEqualTo("execute");
        assertThat(o.fields().output()).isEqualTo("a");
        assertThat(s.vmRevision()).isEqualTo(revision);
        assertThat(s.stack()).isEqualTo(stack);
        assertThat(s.definitions()).isEqualTo(defs);
    }

    /** Row 8: the step budget stops loops and mutual recursion deterministically. */
    @Test void stepBudgetIsDeterministic() {
        Finch finch = Finch.builder().maxSteps(100_000).build();
        String loop = "0 begin dup 1000000000 < while 1 + dup 1000 mod 0 = if \".\" say then repeat drop";
        String recursion = ": ping ( int -- int ) dup 0 = if else 1 - pong then ; : pong ( int -- int ) dup 0 = if else 1 - ping then ; 2000000 ping";
        Outcome a = run(finch.newSession(), loop);
        Outcome b = run(finch.newSession(), loop);
        assertThat(code(a)).isEqualTo("E-LIMIT-001");
        assertThat(a.fields().output()).isNotEmpty().isEqualTo(b.fields().output());
        // Deep mutual recursion meets the depth limit first by default; with room to recurse, the step budget.
        assertThat(code(run(finch.newSession(), recursion))).isEqualTo("E-LIMIT-003");
        Finch deep = Finch.builder().maxSteps(100_000).maxDepth(1_000_000).build();
        assertThat(code(run(deep.newSession(), recursion))).isEqualTo("E-LIMIT-001");
    }

    /** Row 9: runaway recursion from a thread with a small Java stack ends with Finch's depth limit. */
    @Test void runawayRecursionFromASmallStack() throws Exception {
        AtomicReference<Outcome> out = new AtomicReference<>();
        AtomicReference<Throwable> err = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                out.set(run(Finch.create().newSession(), ": down ( int -- int ) 1 + down ; 0 down"));
            } catch (Throwable e) {
                err.set(e);
            }
        }, "small-stack", 128 * 1024);
        t.start();
        t.join(60_000);
        assertThat(err.get()).isNull();
        assertThat(code(out.get())).isEqualTo("E-LIMIT-003");
    }

    /** Row 11: a busy loop stops at the deadline; the host thread is never stuck; nothing keeps running. */
    @Test void deadlineStopsBusyLoops() throws Exception {
        Finch finch = Finch.builder().timeout(Duration.ofMillis(300)).maxSteps(Long.MAX_VALUE).build();
        Session s = finch.newSession();
        Outcome o = HangGuard.ran(() -> run(s, "begin true while repeat"));
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
        assertThat(HangGuard.await(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(th -> th.getName().startsWith("finch-run") && th.getState() == Thread.State.RUNNABLE)))
                .as("a finch-run thread still runnable").isTrue();
    }

    /** Row 12: one run exhausting its limits while 20 others run leaves their results identical. */
    @Test void oneRunawayDoesNotDisturbOthers() throws Exception {
        Finch finch = Finch.builder().maxSteps(5_000_000).build();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<Outcome> runaway = pool.submit(() -> run(finch.newSession(), "begin true while repeat"));
            List<Future<Outcome>> others = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int k = i;
                others.add(pool.submit(() -> run(finch.newSession(),
                        ": sum ( int -- int ) :> n 0 0 begin dup n < while tuck + swap 1 + repeat drop ; " + (1000 + k) + " sum int-to-string say")));
            }
            for (int i = 0; i < 20; i++) {
                long n = 1000 + i;
                assertThat(others.get(i).get().fields().output()).isEqualTo(Long.toString(n * (n - 1) / 2));
            }
            assertThat(code(runaway.get())).isEqualTo("E-LIMIT-001");
        } finally {
            pool.shutdownNow();
        }
    }
}
