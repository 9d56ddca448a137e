package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * CPU tasks leave no busy thread behind: a task the run never joined, one past the deadline and one past the step
 * limit all stop with their run (the same check {@link HostileRuntimeTest} makes after each hostile run).
 */
class CpuTasksThreadsTest {
    private static final String FOREVER = "[: ( -- int ) begin true while repeat 0 ;]";

    private static Outcome settle(Session s, String src) { return s.awaitTasks(s.submit(Submission.of(src, "t.fth"))); }

    @Test void tasksStopWithTheirRun() {
        // Tasks that never end, left behind by a run that completes (no deadline near: only the run's end can stop them).
        Session s = Finch.builder().timeout(HangGuard.LIMIT).maxSteps(Long.MAX_VALUE).cpuWorkers(2).build().newSession();
        assertThat(settle(s, FOREVER + " defer-cpu " + FOREVER + " defer-cpu drop drop 1").status()).isEqualTo(Outcome.Status.COMPLETED);
        HostileRuntimeTest.noBusyRunThreads();
        // A task the run waits for, past the run's deadline.
        Session quick = Finch.builder().timeout(Duration.ofMillis(300)).maxSteps(Long.MAX_VALUE).cpuWorkers(2).build().newSession();
        Outcome late = HangGuard.ran(() -> settle(quick, FOREVER + " defer-cpu task-join"));
        assertThat(late.diagnostics().get(0).code()).isEqualTo("E-LIMIT-002");
        HostileRuntimeTest.noBusyRunThreads();
        Session bounded = Finch.builder().maxSteps(5_000_000).build().newSession();
        Outcome steps = settle(bounded, FOREVER + " defer-cpu " + FOREVER + " defer-cpu task-join swap task-join +");
        assertThat(steps.diagnostics().get(0).code()).isEqualTo("E-LIMIT-001");
        HostileRuntimeTest.noBusyRunThreads();
    }
}
