package dev.finch.vm.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.VmCode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 14: why a run stops is decided in one place — a missed deadline is E-LIMIT-002, never a cancellation. */
class StopReasonTest {
    private static Ctx ctx(Limits limits, CancelToken cancel) { return new Ctx(limits, OutputSink.NONE, cancel, Map.of()); }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test void aDeadlinePassedBeforeTheCancellationIsReportedAsTheDeadline() {
        CancelToken cancel = new CancelToken();
        Ctx c = ctx(Limits.DEFAULT.withTimeout(Duration.ofMillis(5)), cancel);
        sleep(30);
        cancel.cancel("too late");
        assertThat(c.stopped().code()).isEqualTo(VmCode.DEADLINE);
    }

    @Test void aCancellationBeforeTheDeadlineIsReportedAsCancelledEvenWhenNoticedLate() {
        // Cancelled before the run's clock even starts: certainly before its deadline, however slow the machine.
        CancelToken cancel = new CancelToken();
        cancel.cancel("by the host");
        Ctx c = ctx(Limits.DEFAULT.withTimeout(Duration.ofMillis(40)), cancel);
        sleep(80);
        assertThat(c.stopped().code()).isEqualTo(VmCode.CANCELLED);
    }

    @Test void aRunAWaiterGaveUpOnStopsAsLateNotCancelled() {
        Ctx c = ctx(Limits.DEFAULT, new CancelToken());
        assertThat(c.stopped()).isNull();
        c.expire();
        assertThat(c.stopped().code()).isEqualTo(VmCode.DEADLINE);
    }

    @Test void theExecutionsTotalTimeSpansItsStretches() {
        // The first stretch uses at least 0.5 s of 1.5 s and the renewal keeps it; the second, at least 1.1 s more, ends
        // the execution: neither alone is 1.5 s. (Sleeps are lower bounds, so no margin depends on the machine's load.)
        Ctx c = ctx(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(1500)), new CancelToken());
        sleep(500);
        c.endStretch();
        assertThat(c.executedNanos()).isGreaterThanOrEqualTo(500_000_000L);
        c.renew(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(1500)), OutputSink.NONE, new CancelToken());
        assertThat(c.executedNanos()).as("kept by the renewal").isGreaterThanOrEqualTo(500_000_000L);
        sleep(1100);
        assertThat(c.stopped().code()).isEqualTo(VmCode.EXECUTION_TIME);
        assertThat(c.stopped().getMessage()).contains("1500 ms");
    }

    @Test void aRenewedStretchWithTimeLeftRuns() {
        // A minute of total time, a tenth of a second of it used: the next stretch runs (the margin a generous hang guard).
        Ctx c = ctx(Limits.DEFAULT.withMaxExecutionTime(Duration.ofSeconds(60)), new CancelToken());
        sleep(100);
        c.endStretch();
        c.renew(Limits.DEFAULT.withMaxExecutionTime(Duration.ofSeconds(60)), OutputSink.NONE, new CancelToken());
        assertThat(c.stopped()).isNull();
    }

    /** A run started again from the beginning (on a worker, after the calling thread's share) keeps its first deadline. */
    @Test void aRunStartedAgainKeepsItsFirstDeadline() {
        Ctx first = ctx(Limits.DEFAULT.withTimeout(Duration.ofMillis(300)), new CancelToken());
        sleep(400);
        // Its own deadline a minute away: only the first one's, kept, can stop it.
        Ctx again = ctx(Limits.DEFAULT.withTimeout(Duration.ofSeconds(60)), new CancelToken());
        assertThat(again.stopped()).isNull();
        again.continueFrom(first);
        assertThat(again.stopped().code()).isEqualTo(VmCode.DEADLINE);
        Ctx total = ctx(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(300)), new CancelToken());
        sleep(400);
        Ctx totalAgain = ctx(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(300)), new CancelToken());
        totalAgain.continueFrom(total);
        assertThat(totalAgain.stopped().code()).isEqualTo(VmCode.EXECUTION_TIME);
    }
}
