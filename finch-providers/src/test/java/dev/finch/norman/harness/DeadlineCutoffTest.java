package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.vm.engine.RunResult;
import java.math.BigDecimal;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 16, item 2, over a real (not simulated) provider: a request still running at the budget's deadline is
 * cancelled there — its thread interrupted — the ask fails with PastDeadline, and it is charged only its input.
 */
class DeadlineCutoffTest {
    @Test void aRealRequestRunningAtTheDeadlineIsCancelledAndChargedItsInput() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        ModelProvider slow = request -> {
            started.countDown();
            try {
                Thread.sleep(300_000);
                return new ModelProvider.Reply("\"late\"", 3, "end_turn", 300_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                return new ModelProvider.ProviderError("interrupted", 0);
            } finally {
                stopped.countDown();
            }
        };
        ScriptedModels world = ModelWorld.over(slow)
                .model("big", HostModel.perMillionTokens(new BigDecimal("3"), new BigDecimal("15"), 100)).unlimitedBudget().build().get();
        String file = """
                (grant big (model [ceiling 100]))
                (define ask-big () (ask big Text (list (Message [role User] [content "hi"])) 'big))
                (catch (budget ([time 300ms]) (ask-big)) e (case e [PastDeadline "gave up"] [_ "other"]))
                """;
        RunResult r = WorldRuns.run(file, "big", world);
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo("gave up");
        assertThat(started.await(0, TimeUnit.SECONDS)).isTrue();
        // Abandoned at the deadline, not after the reply's 300 s: the request was interrupted (a hang guard of a minute).
        assertThat(stopped.await(60, TimeUnit.SECONDS)).as("the abandoned request's thread stops").isTrue();
        assertThat(interrupted).as("the request was cancelled, not left to run").isTrue();
        // Only the input it sent: 5 tokens at 3 µ$.
        assertThat(world.spent()).isEqualTo(5 * 3);
    }
}
