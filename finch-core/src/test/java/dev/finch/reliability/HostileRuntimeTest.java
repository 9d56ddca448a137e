package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.StackEntry;
import dev.finch.Submission;
import dev.finch.tools.ToolSurface;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, items 2 and 3 (reliability rows 10, 11, 24 and 25): work is charged where it is done, memory accounting
 * counts what a value really holds (a shared structure by its logical size), outcomes are always renderable, and no
 * worker thread outlives its run. Each scenario asserts the code or the bounded display, the work charged where the
 * point is how much work there is (a step limit a quadratic or exponential algorithm would pass by orders of
 * magnitude), that no finch-run thread is left busy, and that the session still answers afterwards. Nothing bounds wall
 * time but hang guards.
 */
class HostileRuntimeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Outcome run(Session s, String src) { return s.submit(Submission.of(src, "hostile.fth")); }

    private static String code(Outcome o) { return o.diagnostics().get(0).code(); }

    /** {@code 1 :> x0 [ x0 x0 ] :> x1 … :> xN} then {@code tail}: a list of 2^N elements in N+1 objects. */
    private static String doubled(String name, int n, String tail) {
        StringBuilder b = new StringBuilder("1 :> " + name + "0 ");
        for (int i = 1; i <= n; i++) b.append("[ ").append(name).append(i - 1).append(' ').append(name).append(i - 1).append(" ] :> ").append(name).append(i).append(' ');
        return b.append(tail).toString();
    }

    /** The session still works: its stack and state render, and a later submission completes. */
    private static void healthy(Session s) {
        assertThat(s.stack()).isNotNull();
        assertThat(s.getVmState()).isNotNull();
        Outcome o = run(s, "1 2 + drop");
        assertThat(o.status()).as("a later submission, %s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        noBusyRunThreads();
    }

    /** The VM's worker threads (finch-run-*) that are running Finch code rather than idling in their pool. */
    static long busyRunThreads() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("finch-run-") && e.getKey() != Thread.currentThread())
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().startsWith("dev.finch.")))
                .count();
    }

    private static String busyStacks() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            if (t.getName().startsWith("finch-run-") && Arrays.stream(st).anyMatch(f -> f.getClassName().startsWith("dev.finch."))) {
                b.append('\n').append(t.getName()).append(' ').append(t.getState());
                for (int i = 0; i < Math.min(st.length, 12); i++) b.append("\n  at ").append(st[i]);
            }
        });
        return b.toString();
    }

    /** No worker is left busy: a run's thread ends with its run (allowing it a moment to unwind). */
    static void noBusyRunThreads() {
        HangGuard.await(() -> busyRunThreads() == 0);
        assertThat(busyRunThreads()).as("busy finch-run threads after the run returned: %s", busyStacks()).isZero();
    }

    // ---- shared structure (row 24) ----------------------------------------------------------------------------

    @Test void aListOfTwoToTheThirtySharedElementsIsRefusedWhenBuilt() {
        Session s = Finch.create().newSession();
        Outcome o = run(s, doubled("x", 30, "x30"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
        assertThat(o.diagnostics().get(0).message()).contains("memory limit");
        assertThat(s.stack()).isEmpty();
        healthy(s);
    }

    @Test void aSharedListUnderTheLimitCommitsAndRendersBoundedEverywhere() throws Exception {
        Session s = Finch.create().newSession();
        Outcome o = run(s, doubled("x", 20, "x20"));
        assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        String display = o.stack().get(0).display();
        assertThat(display).hasSizeLessThan(70_000).contains("…").contains("(display cut at 65536 chars: a list of 2 elements)");
        assertThat(display).startsWith("[[[[[[[[[[[[[[[[[[[[1 1]");
        assertThat(s.stack().get(0).display()).isEqualTo(display);
        assertThat(s.getVmState().stack().get(0).display()).isEqualTo(display);
        String json = FinchJson.write(o);
        assertThat(json.length()).isLessThan(200_000);
        assertThat(JSON.readTree(json).get("stack").get(0).get("display").asText()).isEqualTo(display);
        // The whole value stays available as a typed value.
        assertThat(o.values().get(0).asList()).hasSize(2);
        // Comparing, hashing, showing it: each linear in what it touches or refused, never a burning thread.
        assertThat(run(s, "dup = ").status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(s.stack().get(0).display()).isEqualTo("true");
        assertThat(run(s, "drop").status()).isEqualTo(Outcome.Status.COMPLETED);
        healthy(s);
    }

    @Test void equalityAndHashingOfSeparatelyBuiltSharedStructuresAreLinearInTheirParts() {
        // Element by element, comparing and hashing these 2^21-element lists would charge some 10^6 steps: 50,000 is
        // room for the program and the work on their 2 × 22 distinct parts only.
        Session s = Finch.builder().maxSteps(50_000).build().newSession();
        Outcome o = run(s, doubled("x", 21, doubled("y", 21, "x21 y21 = map{ x21 7 }map y21 map-get unwrap")));
        assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).extracting(StackEntry::display).containsExactly("true", "7");
        healthy(s);
    }

    // ---- work is charged where it is done (rows 8, 11, 25) -----------------------------------------------------

    private static final String TWO_LISTS = "0 100000 list-range :> a 0 100000 list-range :> b ";

    @Test void comparingLargeValuesIsChargedSteps() {
        Session s = Finch.builder().maxSteps(500_000).build().newSession();
        Outcome o = run(s, TWO_LISTS + "0 begin dup 100 < while a b = drop 1 + repeat drop");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-001");
        healthy(s);
    }

    @Test void theDeadlineStopsARunBusyComparingAndItsThreadEndsWithIt() {
        Session s = Finch.builder().timeout(Duration.ofMillis(800)).maxSteps(Long.MAX_VALUE).build().newSession();
        Outcome o = HangGuard.ran(() -> run(s, TWO_LISTS + "begin a b = while repeat"));
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-002");
        healthy(s);
    }

    @Test void cancelStopsARunBusyComparingAtOnce() throws Exception {
        // Neither a step limit nor a deadline can end the loop before the cancellation does.
        Session s = Finch.builder().maxSteps(Long.MAX_VALUE).timeout(HangGuard.LIMIT.multipliedBy(2)).build().newSession();
        CountDownLatch comparing = new CountDownLatch(1);
        CompletableFuture<Outcome> f = s.submitAsync(Submission.of(TWO_LISTS + "\"comparing\" say begin a b = while repeat", "busy.fth")
                .withSink(chunk -> comparing.countDown()));
        assertThat(HangGuard.await(comparing)).as("the loop is running").isTrue();
        assertThat(s.cancel(s.runningExecution().orElseThrow())).isTrue();
        Outcome o = f.get(HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(o.status()).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(code(o)).isEqualTo("E-RUN-001");
        healthy(s);
    }

    @Test void searchingForALongPeriodicNeedleIsLinear() {
        // A naive search would charge some 10^10 steps (a step per 64 characters compared); a linear one fits in 2·10^6.
        Session s = Finch.builder().maxSteps(2_000_000).build().newSession();
        // A naive search compares ~5·10^11 chars here.
        Outcome o = run(s, "\"a\" 1000000 string-repeat \"a\" 500000 string-repeat \"b\" string-append string-contains");
        assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack().get(0).display()).isEqualTo("false");
        healthy(s);
    }

    // ---- memory accounting (row 10) ---------------------------------------------------------------------------

    @Test void aMegabyteStringSharedTwoThousandTimesIsRefusedWhenBuilt() {
        Session s = Finch.create().newSession();
        Outcome o = run(s, "\"a\" 1048576 string-repeat :> s empty-list<string> 0 begin dup 2000 < while swap s list-append swap 1 + repeat drop show string-length");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
        assertThat(o.diagnostics().get(0).message()).contains("list-append");
        healthy(s);
    }

    @Test void showIsRefusedWhenItsTextWouldPassTheMemoryLimit() {
        // Each control character is written as six ("\u0001"): the text is twelve times the string's bytes.
        Session s = Finch.builder().maxMemoryBytes(16L << 20).build().newSession();
        Outcome o = run(s, "\"\\u0001\" 2000000 string-repeat show string-length");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
        assertThat(o.diagnostics().get(0).message()).startsWith("show");
        healthy(s);
    }

    @Test void mapGrowthIsRefusedByTheMemoryLimitBeforeTheHeapIsUnderPressure() {
        Session s = Finch.builder().maxMemoryBytes(16L << 20).build().newSession();
        Outcome o = run(s, "map{ 0 0 }map 1 begin dup 10000000 < while swap over dup map-set swap 1 + repeat drop map-size");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
        assertThat(o.diagnostics().get(0).message()).contains("map-set");
        healthy(s);
    }

    @Test void listGrowthIsRefusedByItsRealSize() {
        Session s = Finch.builder().maxMemoryBytes(16L << 20).build().newSession();
        Outcome o = run(s, "empty-list<int> 0 begin dup 10000000 < while swap over list-append swap 1 + repeat drop list-length");
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-005");
        // 32 bytes an int element (a slot and a boxed int): at most half a million elements in 16 MiB.
        assertThat(run(s, "empty-list<int> 0 begin dup 400000 < while swap over list-append swap 1 + repeat drop list-length").status())
                .isEqualTo(Outcome.Status.COMPLETED);
        healthy(s);
    }

    // ---- outcomes are always renderable (row 24) -------------------------------------------------------------

    @Test void aLongStringDisplaysCutWithANoteAndStaysWholeAsAValue() {
        Session s = Finch.create().newSession();
        Outcome o = run(s, "\"ab\" 500000 string-repeat");
        String display = o.stack().get(0).display();
        assertThat(display).hasSizeLessThan(66_000).startsWith("\"abab").contains("…\"")
                .endsWith("(display cut at 65536 chars: a string of 1000000 characters)");
        assertThat(o.values().get(0).asString()).hasSize(1_000_000);
        healthy(s);
    }

    @Test void manyLargeEntriesRenderWithinOneBudget() {
        Session s = Finch.create().newSession();
        Outcome o = run(s, "\"x\" 200000 string-repeat" + " dup".repeat(300));
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        long total = o.stack().stream().mapToLong(e -> e.display().length()).sum();
        assertThat(total).isLessThan((1 << 20) + 301L * 400);
        // The top of the stack is shown first, and in full up to the per-value limit.
        assertThat(o.stack().get(300).display()).hasSizeGreaterThan(65_000);
        assertThat(FinchJson.write(o).length()).isLessThan(3 << 20);
        assertThat(run(s, " drop".repeat(301).strip()).status()).isEqualTo(Outcome.Status.COMPLETED);
        healthy(s);
    }

    @Test void deepNestingDisplaysCutAndNothingOverflows() {
        Session s = Finch.create().newSession();
        Outcome o = run(s, "[ ".repeat(120) + "1" + " ]".repeat(120));
        assertThat(o.status()).as("%s", o.diagnostics()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack().get(0).display()).contains("…").contains("(display cut at");
        healthy(s);
    }

    @Test void theToolSurfaceAnswersEveryHostileProgramWithJson() throws Exception {
        Session s = Finch.create().newSession();
        ToolSurface tools = ToolSurface.of(s);
        String bricking = JSON.writeValueAsString(Map.of("source", doubled("x", 30, "x30"), "language", "forth"));
        var refused = JSON.readTree(tools.handle("submit_program", bricking));
        assertThat(refused.get("status").asText()).isEqualTo("failed");
        assertThat(refused.get("diagnostics").get(0).get("code").asText()).isEqualTo("E-LIMIT-005");
        String shared = JSON.writeValueAsString(Map.of("source", doubled("x", 20, "x20"), "language", "forth"));
        String answer = tools.handle("submit_program", shared);
        assertThat(answer.length()).isLessThan(200_000);
        assertThat(JSON.readTree(answer).get("status").asText()).isEqualTo("completed");
        var state = JSON.readTree(tools.handle("get_vm_state", "{}"));
        assertThat(state.get("stack").get(0).get("display").asText()).contains("(display cut at");
        String drop = JSON.writeValueAsString(Map.of("source", "drop", "language", "forth"));
        assertThat(JSON.readTree(tools.handle("submit_program", drop)).get("status").asText()).isEqualTo("completed");
        healthy(s);
    }

    // ---- resumes (the execution's total time; what a resume costs) ----------------------------------------------

    @Test void anExecutionThatKeepsYieldingEndsAtItsTotalTimeLimit() {
        Session s = Finch.builder().maxExecutionTime(Duration.ofMillis(1500)).build().newSession();
        String spin = ": spin ( -- ) 0 begin dup 3000000 < while 1 + repeat drop ; ";
        Outcome o = run(s, spin + "begin spin unit yield true while repeat");
        int resumes = 0;
        while (o instanceof Outcome.Suspended && resumes < 100_000) {
            o = s.resume(o.executionId());
            resumes++;
        }
        assertThat(o.status()).isEqualTo(Outcome.Status.FAILED);
        assertThat(code(o)).isEqualTo("E-LIMIT-007");
        assertThat(resumes).isPositive();
        healthy(s);
    }

    @Test void manyResumesKeepAllTheOutputAndEachOutcomeReportsItAll() {
        Session s = Finch.create().newSession();
        String chunk = "0123456789".repeat(10);
        Outcome o = run(s, "0 begin dup 3000 < while \"" + chunk + "\" say unit yield 1 + repeat drop");
        int resumes = 0;
        while (o instanceof Outcome.Suspended) {
            if (resumes == 1000) assertThat(o.output()).hasSize(1001 * chunk.length());
            o = s.resume(o.executionId());
            resumes++;
        }
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(resumes).isEqualTo(3000);
        assertThat(o.output()).hasSize(3000 * chunk.length()).startsWith(chunk).endsWith(chunk);
        healthy(s);
    }

    @Test void noHostileScenarioLeavesAThreadBehind() {
        Session s = Finch.builder().timeout(Duration.ofMillis(500)).build().newSession();
        for (String program : List.of(doubled("x", 30, "x30"), TWO_LISTS + "begin a b = while repeat", doubled("x", 18, "x18 show string-length drop"),
                "0 1000000 list-range dup list-reverse list-sort = drop")) {
            run(s, program);
            noBusyRunThreads();
        }
        healthy(s);
    }
}
