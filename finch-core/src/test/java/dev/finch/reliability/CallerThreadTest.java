package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.ir.limit.CompileLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs whose depth their own text bounds go on the calling thread (no hand-off to a big-stack worker); every other
 * run still goes to a worker, and every limit holds either way. The thread a run is on is observed through its
 * output sink, which the run calls from its own thread.
 */
class CallerThreadTest {
    private static final Finch FINCH = Finch.create();

    /** Where a run went: {@code caller} when it was handed to no worker, else {@code worker} (a fresh Finch, so nothing else counts). */
    private static String where(Finch finch, Supplier<Outcome> run) {
        long before = dev.finch.VmProbe.handOffs(finch);
        Outcome o = run.get();
        assertThat(o.diagnostics()).isEmpty();
        return dev.finch.VmProbe.handOffs(finch) == before ? "caller" : "worker";
    }

    /** Where {@code program} ran, submitted without a sink (an embedder's sink always sends a run to a worker). */
    private static String sayingThreads(String program, String sourceId) {
        Finch f = Finch.create();
        return where(f, () -> f.newSession().submit(Submission.of(program, sourceId)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"hi\" say 1 2 + drop | t.fth",
            "1 0 > if \"yes\" say else \"no\" say then | t.fth",
            "(say (string-append \"a\" (int-to-string (+ 40 2)))) | t.lisp"})
    void aProgramBoundedByItsTextRunsOnTheCallersThread(String program, String sourceId) {
        assertThat(sayingThreads(program, sourceId)).isEqualTo("caller");
    }

    /** Loops repeat instructions without deepening the stack; words that cannot recurse add a bounded chain of frames. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0 begin dup 2 < while \"x\" say 1 + repeat drop | a loop",
            ": twice ( -- ) \"x\" say \"x\" say ; twice | a definition",
            ": a ( -- ) \"x\" say ; : b ( -- ) a a ; : c ( -- ) 3 begin dup 0 > while b 1 - repeat drop ; c | a chain of words with a loop"})
    void loopsAndWordsThatCannotRecurseRunOnTheCallersThread(String program, String why) {
        assertThat(sayingThreads(program, "t.fth")).as(why).isEqualTo("caller");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            ": down ( int -- int ) \"x\" say dup 0 > if 1 - down then ; 2 down drop | recursion",
            ": down ( int -- int ) \"x\" say dup 0 > if 1 - down then ; : go ( -- ) 2 down drop ; go | a word calling a recursive one",
            ": ping ( int -- int ) dup 0 > if 1 - pong then ; : pong ( int -- int ) \"x\" say ping ; 3 ping drop | mutual recursion",
            "[1 2] [: ( int -- int ) \"x\" say ;] list-map drop | a closure literal"})
    void anythingThatCanRecurseRunsOnAWorker(String program, String why) {
        assertThat(sayingThreads(program, "t.fth")).as(why).isEqualTo("worker");
    }

    /** A chain of words deeper than the calling thread is sure to hold (64 words) goes to a worker, a shorter one not. */
    @Test void aLongChainOfWordsRunsOnAWorker() {
        for (int words : new int[] {60, 70}) {
            StringBuilder p = new StringBuilder(": w0 ( -- ) \"x\" say ; ");
            for (int i = 1; i < words; i++) p.append(": w").append(i).append(" ( -- ) w").append(i - 1).append(" ; ");
            p.append("w").append(words - 1);
            String where = sayingThreads(p.toString(), "t.fth");
            assertThat(where).as("%d words", words).isEqualTo(words <= 63 ? "caller" : "worker");
        }
    }

    /** A session word that cannot recurse runs on the caller's thread, submitted or called; one that can, on a worker. */
    @Test void sessionWordsRunWhereTheirDepthAllows() {
        Finch f = Finch.create();
        Session s = f.newSession();
        assertThat(s.submit(Submission.of(": hello ( -- ) \"x\" say ; : count ( int -- int ) \"x\" say dup 0 > if 1 - count then ;", "t.fth"))
                .diagnostics()).isEmpty();
        assertThat(where(f, () -> s.submit(Submission.of("hello", "t.fth")))).isEqualTo("caller");
        assertThat(where(f, () -> s.call("hello"))).isEqualTo("caller");
        assertThat(where(f, () -> s.submit(Submission.of("2 count drop", "t.fth")))).isEqualTo("worker");
        assertThat(where(f, () -> s.call("count", dev.finch.vm.Value.of(2)))).isEqualTo("worker");
    }

    /**
     * An embedder's code — its output sink, a word it installed — may block or spin: a run that reaches it always goes
     * to a worker, so the caller's wait stays bounded by the deadline and cancellation (HostWordsDeadlineTest).
     */
    @Test void anEmbeddersSinkOrWordSendsTheRunToAWorker() {
        List<String> threads = new ArrayList<>();
        Outcome o = FINCH.newSession().submit(Submission.of("\"x\" say", "t.fth").withSink(c -> threads.add(Thread.currentThread().getName())));
        assertThat(o.diagnostics()).isEmpty();
        assertThat(threads).singleElement().asString().startsWith("finch-run-");
    }

    /**
     * Finch's own buffered sink keeps the caller's thread for a say run (it hands events to a delivery thread and
     * returns), and delivers every event in order; an embedder's word still sends the run to a worker.
     */
    @Test void aBufferedSinkKeepsTheCallersThreadAndDeliversInOrder() throws Exception {
        Finch f = Finch.builder().words(HostCodeDeadlineTest.Stubborn.class).build();
        Session s = f.newSession();
        List<String> chunks = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        dev.finch.vm.BufferedSink sink = (dev.finch.vm.BufferedSink) dev.finch.vm.BufferedSink.of(c -> {
            chunks.add(c);
            threads.add(Thread.currentThread().getName());
        });
        String program = "0 begin dup 500 < while dup int-to-string \" \" string-append say 1 + repeat drop";
        assertThat(where(f, () -> s.submit(Submission.of(program, "t.fth").withSink(sink)))).isEqualTo("caller");
        assertThat(sink.awaitDelivered(java.time.Duration.ofSeconds(60))).isTrue();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 500; i++) expected.append(i).append(' ');
        assertThat(String.join("", chunks)).isEqualTo(expected.toString());
        assertThat(threads).allMatch(t -> t.startsWith("finch-output-"));
        // The sink does not make an embedder's word safe to run here: that run still goes to a worker.
        assertThat(where(f, () -> s.submit(Submission.of("3 flood drop", "t.fth").withSink(sink)))).isEqualTo("worker");
    }

    /**
     * A recursion that shows nothing until it ends starts on the caller's thread as deep as that thread surely holds;
     * deeper, it starts again on a worker: the answers, and the depth limit, are those of a run on a worker.
     */
    @Test void aRecursionDeeperThanTheCallersShareStartsAgainOnAWorker() {
        String down = ": down ( int -- int ) dup 0 > if 1 - down 1 + then ;";
        Session s = FINCH.newSession();
        assertThat(s.submit(Submission.of(down, "t.fth")).diagnostics()).isEmpty();
        for (long n : new long[] {10, dev.finch.vm.engine.CallerThread.REPLAYABLE_DEPTH - 2, dev.finch.vm.engine.CallerThread.REPLAYABLE_DEPTH + 2, 5_000}) {
            assertThat(s.call("down", dev.finch.vm.Value.of(n)).values()).as("depth %d", n).containsExactly(dev.finch.vm.Value.of(n));
            assertThat(display(s.submit(Submission.of(n + " down", "t.fth")))).as("depth %d", n).containsExactly(String.valueOf(n));
            s.submit(Submission.of("drop", "t.fth"));
        }
        for (int limit : new int[] {100, 3_000}) {
            Session limited = Finch.builder().maxDepth(limit).build().newSession();
            assertThat(limited.submit(Submission.of(down, "t.fth")).diagnostics()).isEmpty();
            Outcome o = limited.call("down", dev.finch.vm.Value.of(limit + 10));
            assertThat(o.diagnostics()).as("limit %d", limit).extracting(d -> d.code()).containsExactly("E-LIMIT-003");
            assertThat(o.diagnostics().get(0).message()).contains("deeper than " + limit);
            assertThat(limited.call("down", dev.finch.vm.Value.of(limit - 10)).values()).containsExactly(dev.finch.vm.Value.of(limit - 10));
        }
    }

    /** Limits are the run's own checks, wherever it runs: the output limit and a trap on the caller's thread. */
    @Test void limitsHoldOnTheCallersThread() {
        Finch small = Finch.builder().maxOutputBytes(4).build();
        Session s = small.newSession();
        Outcome o = s.submit(Submission.of("\"abc\" say \"defgh\" say", "t.fth"));
        assertThat(o.diagnostics()).extracting(d -> d.code()).containsExactly("E-LIMIT-004");
        assertThat(s.vmRevision()).isZero();
        Outcome trap = s.submit(Submission.of("1 2 9223372036854775807 1 +", "t.fth"));
        assertThat(trap.diagnostics()).extracting(d -> d.code()).containsExactly("E-ARITH-001");
        assertThat(s.stack()).isEmpty();
    }

    /** Recursion from a small stack still meets Finch's depth limit: it is never run on the caller's thread. */
    @Test void recursionFromASmallStackMeetsTheDepthLimit() throws Exception {
        Outcome o = onSmallStack(() -> FINCH.newSession().submit(Submission.of(": down ( int -- int ) 1 + down ; 0 down", "t.fth")));
        assertThat(o.diagnostics()).extracting(d -> d.code()).containsExactly("E-LIMIT-003");
    }

    /** A thread of the JVM's default stack has room to compile and run on; a 128 KiB one does not, and hands off. */
    @Test void onlyAThreadWithRoomRunsWork() throws Exception {
        AtomicReference<Boolean> roomy = new AtomicReference<>();
        Thread small = new Thread(null, () -> roomy.set(dev.finch.vm.engine.CallerThread.roomy()), "small", 128 * 1024);
        small.start();
        small.join();
        assertThat(roomy.get()).isFalse();
        Thread normal = new Thread(() -> roomy.set(dev.finch.vm.engine.CallerThread.roomy()), "normal");
        normal.start();
        normal.join();
        assertThat(roomy.get()).isTrue();
        Finch f = Finch.create();
        AtomicReference<String> where = new AtomicReference<>();
        Thread tiny = new Thread(null, () -> where.set(where(f, () -> f.newSession().submit(Submission.of("\"x\" say", "t.fth")))), "tiny", 128 * 1024);
        tiny.start();
        tiny.join();
        assertThat(where.get()).isEqualTo("worker");
    }

    /**
     * The deepest nesting the default compile limits allow compiles and runs in Lisp, Co-Forth and µNorman, from this
     * (default-stack) thread and from a 256 KiB one (which may or may not count as roomy: either way the answer is the
     * same, as a preparation that ran out of stack is made again on a worker).
     */
    @Test void theDeepestAllowedNestingCompilesOnASmallStack() throws Exception {
        int n = CompileLimits.DEFAULT.maxNesting();
        String lisp = "(+ 1 ".repeat(n - 1) + "(+ 1 1)" + ")".repeat(n - 1);
        String lispIf = "(if true ".repeat(n - 1) + "1" + " 0)".repeat(n - 1);
        String forth = "true if ".repeat(n - 1) + "1" + " else 0 then".repeat(n - 1);
        String norman = "(+ 1 ".repeat(n - 1) + "(+ 1 1)" + ")".repeat(n - 1);
        assertThat(display(FINCH.newSession().submit(Submission.of(lisp, "deep.lisp")))).containsExactly(String.valueOf(n + 1));
        assertThat(display(FINCH.newSession().submit(Submission.of(lispIf, "deep.lisp")))).containsExactly("1");
        assertThat(display(FINCH.newSession().submit(Submission.of(forth, "deep.fth")))).containsExactly("1");
        assertThat(display(FINCH.newSession().submit(Submission.of(norman, "deep.nm")))).containsExactly(String.valueOf(n + 1.0));
        assertThat(display(onSmallStack(() -> FINCH.newSession().submit(Submission.of(lisp, "deep.lisp"))))).containsExactly(String.valueOf(n + 1));
        assertThat(display(onSmallStack(() -> FINCH.newSession().submit(Submission.of(lispIf, "deep.lisp"))))).containsExactly("1");
        assertThat(display(onSmallStack(() -> FINCH.newSession().submit(Submission.of(forth, "deep.fth"))))).containsExactly("1");
        assertThat(display(onSmallStack(() -> FINCH.newSession().submit(Submission.of(norman, "deep.nm"))))).containsExactly(String.valueOf(n + 1.0));
    }

    /** A Finch that allows deeper nesting than a caller's stack is sure to hold compiles on a worker. */
    @Test void deeperNestingLimitsCompileOnAWorker() throws Exception {
        Finch deep = Finch.builder().compileLimits(CompileLimits.DEFAULT.withMaxNesting(20_000)).build();
        String lisp = "(+ 1 ".repeat(9_999) + "(+ 1 1)" + ")".repeat(9_999);
        Outcome o = onSmallStack(() -> deep.newSession().submit(Submission.of(lisp, "deep.lisp")));
        assertThat(o.diagnostics()).isEmpty();
        assertThat(display(o)).containsExactly("10001");
    }

    private static List<String> display(Outcome o) {
        assertThat(o.diagnostics()).isEmpty();
        return o.stack().stream().map(StackEntry::display).toList();
    }

    private static Outcome onSmallStack(Supplier<Outcome> work) throws InterruptedException {
        AtomicReference<Outcome> out = new AtomicReference<>();
        AtomicReference<Throwable> err = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                out.set(work.get());
            } catch (Throwable e) {
                err.set(e);
            }
        }, "small-stack", 256 * 1024);
        t.start();
        t.join(60_000);
        assertThat(err.get()).isNull();
        return out.get();
    }
}
