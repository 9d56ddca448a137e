package dev.finch.vm.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.vm.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.VmCode;
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
        CancelToken cancel = new CancelToken();
        Ctx c = ctx(Limits.DEFAULT.withTimeout(Duration.ofMillis(40)), cancel);
        cancel.cancel("by the host");
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
        // Margins wide enough for a loaded machine: the first stretch uses 0.5 s of 1.5 s, the second 1.1 s more.
        Ctx c = ctx(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(1500)), new CancelToken());
        sleep(500);
        c.endStretch();
        assertThat(c.executedNanos()).isGreaterThanOrEqualTo(500_000_000L);
        c.renew(Limits.DEFAULT.withMaxExecutionTime(Duration.ofMillis(1500)), OutputSink.NONE, new CancelToken());
        assertThat(c.stopped()).isNull();
        sleep(1100);
        assertThat(c.stopped().code()).isEqualTo(VmCode.EXECUTION_TIME);
        assertThat(c.stopped().getMessage()).contains("1500 ms");
    }

    /** A run started again from the beginning (on a worker, after the calling thread's share) keeps its first deadline. */
    @Test void aRunStartedAgainKeepsItsFirstDeadline() {
        Limits limits = Limits.DEFAULT.withTimeout(Duration.ofMillis(300));
        Ctx first = ctx(limits, new CancelToken());
        sleep(400);
        Ctx again = ctx(limits, new CancelToken());
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
