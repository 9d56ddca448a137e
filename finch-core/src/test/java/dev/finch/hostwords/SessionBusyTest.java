package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability row 21: two threads entering one session at once. The first run is held inside the host boundary (its
 * observer blocks), so the overlap is certain rather than timed; every entry of the second thread gets
 * E-SESSION-003, and the first run then finishes untouched.
 */
class SessionBusyTest {
    @TempDir Path ws;

    /** An observer that announces it was reached and then waits to be released. */
    static final class Gate implements EffectObserver {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override public void requested(EffectRequest request) {
            entered.countDown();
            try {
                release.await(dev.finch.HangGuard.SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aSecondThreadGetsABusyDiagnosticEveryTime() throws Exception {
        Files.writeString(ws.resolve("a.txt"), "A");
        for (int round = 0; round < 20; round++) {
            Session s = session(ws, HostFixture.READ_ALL);
            Outcome paused = lisp(s, "(file-write (path \"b.txt\") (string-to-bytes \"x\"))");
            assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
            Gate gate = new Gate();
            CompletableFuture<Outcome> first = CompletableFuture.supplyAsync(() -> lisp(s, "(say \"x\") " + readAndSay("a.txt") + " 42", gate));
            assertThat(dev.finch.HangGuard.await(gate.entered)).isTrue();

            // Every way into the session from another thread is refused while the first run is inside it.
            assertFailed(lisp(s, "(say \"second\")"), "host", "E-SESSION-003");
            assertFailed(HostFixture.forth(s, "1 2 +"), "host", "E-SESSION-003");
            // Answering a run that is paused elsewhere in this session is refused as busy too, and leaves it paused.
            assertFailed(s.resume(paused.executionId()), "host", "E-SESSION-003");
            assertFailed(s.approve(paused.executionId(), Scope.ONCE), "host", "E-SESSION-003");
            assertFailed(s.deny(paused.executionId(), "no"), "host", "E-SESSION-003");
            assertFailed(s.respond(paused.executionId(), new HostResponse.Result(1, "x")), "host", "E-SESSION-003");
            assertThat(s.suspendedExecutions()).containsExactly(paused.executionId());
            // The running execution itself is not waiting for a decision.
            String running = s.runningExecution().orElseThrow();
            assertFailed(s.approve(running, Scope.ONCE), "host", "E-SESSION-004");
            assertThat(s.vmRevision()).isZero();

            gate.release.countDown();
            Outcome o = first.get(dev.finch.HangGuard.SECONDS, TimeUnit.SECONDS);
            assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(o.output()).isEqualTo("xA");
            assertThat(o.stack()).extracting(e -> e.display()).containsExactly("42");
            assertThat(s.vmRevision()).isEqualTo(1);
            // And the session is usable again.
            assertThat(lisp(s, "(say \"again\")").output()).isEqualTo("again");
            assertThat(Files.exists(ws.resolve("b.txt"))).isFalse();
        }
    }

    @Test
    void twoThreadsRacingWithoutAGateNeverCorruptTheSession() throws Exception {
        // Unsynchronized: each submission either runs or is refused as busy; revisions count exactly the completed ones.
        Session s = session(ws);
        int perThread = 200;
        CompletableFuture<int[]> a = CompletableFuture.supplyAsync(() -> submitMany(s, perThread));
        CompletableFuture<int[]> b = CompletableFuture.supplyAsync(() -> submitMany(s, perThread));
        int[] ra = a.get(dev.finch.HangGuard.SECONDS, TimeUnit.SECONDS);
        int[] rb = b.get(dev.finch.HangGuard.SECONDS, TimeUnit.SECONDS);
        assertThat(ra[0] + ra[1] + rb[0] + rb[1]).isEqualTo(2 * perThread);
        assertThat(ra[2] + rb[2]).as("no other kind of failure").isZero();
        assertThat(s.vmRevision()).isEqualTo(ra[0] + rb[0]);
        assertThat(s.stack()).hasSize(ra[0] + rb[0]);
    }

    /** completed, busy, other. */
    private static int[] submitMany(Session s, int n) {
        int[] r = new int[3];
        for (int i = 0; i < n; i++) {
            Outcome o = lisp(s, "1");
            if (o.status() == Outcome.Status.COMPLETED) r[0]++;
            else if (o.diagnostics().size() == 1 && o.diagnostics().get(0).code().equals("E-SESSION-003")) r[1]++;
            else r[2]++;
        }
        return r;
    }
}
