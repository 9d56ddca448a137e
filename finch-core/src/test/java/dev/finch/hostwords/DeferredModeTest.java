package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.READ_ALL;
import static dev.finch.hostwords.HostFixture.WRITE_ALL;
import static dev.finch.hostwords.HostFixture.assertFailed;
import static dev.finch.hostwords.HostFixture.assertRefused;
import static dev.finch.hostwords.HostFixture.deferredSession;
import static dev.finch.hostwords.HostFixture.lisp;
import static dev.finch.hostwords.HostFixture.readAndSay;
import static dev.finch.hostwords.HostFixture.session;
import static dev.finch.hostwords.HostFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Unit;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability row 19 and issue 6 item 3: deferred-host mode. Every approved awaited request suspends and is
 * answered by {@code VmResume {execution_id, sequence, response}} ({@link Session#respond}); a duplicate, stale or
 * out-of-order sequence, an answer of the wrong kind or type is {@code refused}, dispatches nothing and leaves the
 * continuation waiting; denied and cancelled paths; the journal's terminal states as observers see them.
 */
class DeferredModeTest {
    @TempDir Path ws;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(ws.resolve("a.txt"), "local-a");
        Files.writeString(ws.resolve("b.txt"), "local-b");
    }

    static Bytes bytes(String s) { return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8)); }

    static final String TWO_READS = "(say \"1\") " + readAndSay("a.txt") + " (say \"2\") " + readAndSay("b.txt") + " (say \"3\")";

    @Test
    void everyApprovedRequestSuspendsAndTheRightAnswerContinues() {
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome first = lisp(s, TWO_READS, rec);
        assertThat(first.status()).as("%s", first).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(first.output()).isEqualTo("1");
        EffectRequest r1 = s.pendingRequest(first.executionId()).orElseThrow();
        assertThat(r1.sequence()).isEqualTo(1);
        assertThat(r1.operation()).isEqualTo("file-read");
        assertThat(r1.requirement().toString()).isEqualTo("fs.read(${workspace}/a.txt)");
        assertThat(rec.requests).containsExactly(r1);

        // The host answers with its own bytes: Finch never touched the local file.
        Outcome second = s.respond(first.executionId(), new HostResponse.Result(1, bytes("host-a")));
        assertThat(second.status()).as("%s", second).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(second.executionId()).isEqualTo(first.executionId());
        assertThat(second.output()).isEqualTo("1host-a2");
        EffectRequest r2 = s.pendingRequest(first.executionId()).orElseThrow();
        assertThat(r2.sequence()).isEqualTo(2);
        assertThat(r2.requirement().toString()).isEqualTo("fs.read(${workspace}/b.txt)");

        Outcome done = s.respond(first.executionId(), new HostResponse.Result(2, bytes("host-b")));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("1host-a2host-b3");
        assertThat(done.vmRevision()).isEqualTo(1);
        assertThat(rec.requests).extracting(EffectRequest::sequence).containsExactly(1L, 2L);
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.ACKNOWLEDGED);
    }

    @Test
    void aDuplicateOrStaleSequenceIsRefusedAndTheContinuationStillWaits() {
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, TWO_READS, rec);
        String id = o.executionId();
        assertThat(s.respond(id, new HostResponse.Result(1, bytes("A"))).status()).isEqualTo(Outcome.Status.SUSPENDED);

        // Duplicate of the answered sequence 1, a future one, a zero and a negative one: each refused, nothing moves.
        for (long seq : new long[] {1, 3, 0, -1, Long.MAX_VALUE}) {
            Outcome refused = s.respond(id, new HostResponse.Result(seq, bytes("WRONG")));
            assertRefused(refused, "E-HOST-012");
            assertThat(refused.pendingRequest().orElseThrow().request().sequence()).isEqualTo(2);
            assertThat(refused.output()).doesNotContain("WRONG");
            assertThat(s.suspendedExecutions()).containsExactly(id);
            assertThat(s.pendingRequest(id).orElseThrow().sequence()).isEqualTo(2);
        }
        // A duplicate denial or cancellation of the earlier sequence is refused too, and does not kill the run.
        assertRefused(s.respond(id, new HostResponse.Denied(1, "late")), "E-HOST-012");
        assertRefused(s.respond(id, new HostResponse.Cancelled(1, "late")), "E-HOST-012");
        assertThat(rec.requests).as("no request re-dispatched or re-issued").hasSize(2);
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED);

        Outcome done = s.respond(id, new HostResponse.Result(2, bytes("B")));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("1A2B3");
        // After completion every answer is refused.
        assertFailed(s.respond(id, new HostResponse.Result(2, bytes("B"))), "host", "E-SESSION-004");
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.ACKNOWLEDGED);
    }

    @Test
    void anAnswerForAnotherExecutionIsRefused() {
        Session s = deferredSession(ws, READ_ALL);
        Outcome a = lisp(s, TWO_READS);
        assertFailed(s.respond(a.executionId() + "x", new HostResponse.Result(1, bytes("A"))), "host", "E-SESSION-004");
        assertFailed(s.respond("nope", new HostResponse.Result(1, bytes("A"))), "host", "E-SESSION-004");
        assertThat(s.respond(a.executionId(), new HostResponse.Result(1, bytes("A"))).output()).isEqualTo("1A2");
    }

    @Test
    void deniedFailsWithEHost001AndJournalsDenied() {
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, TWO_READS, rec);
        s.respond(o.executionId(), new HostResponse.Result(1, bytes("A")));
        Outcome denied = s.respond(o.executionId(), new HostResponse.Denied(2, "the user said no"));
        assertFailed(denied, "host", "E-HOST-001");
        assertThat(denied.diagnostics().get(0).message()).contains("the user said no");
        assertThat(denied.output()).isEqualTo("1A2");
        assertThat(denied.vmRevision()).isZero();
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.DENIED);
        assertThat(s.suspendedExecutions()).isEmpty();
        assertFailed(s.respond(o.executionId(), new HostResponse.Result(2, bytes("B"))), "host", "E-SESSION-004");
    }

    @Test
    void cancelledEndsCancelledAndJournalsCancelled() {
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, TWO_READS, rec);
        Outcome cancelled = s.respond(o.executionId(), new HostResponse.Cancelled(1, null));
        assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(cancelled.output()).isEqualTo("1");
        assertThat(cancelled.vmRevision()).isZero();
        assertThat(rec.states()).containsExactly(EffectJournal.State.CANCELLED);
        assertThat(s.suspendedExecutions()).isEmpty();
    }

    @Test
    void deferredWritesAndProcessesAreNeverDispatchedLocally() throws IOException {
        Session s = deferredSession(ws, WRITE_ALL, "process.run(/usr/bin/touch)");
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, write("a.txt", "overwritten") + " (say (show (process-run \"/usr/bin/touch\" (list \"" + ws.resolve("marker") + "\"))))", rec);
        EffectRequest write = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(write.operation()).isEqualTo("file-write");
        // The request carries what the host must write: the path and the bytes themselves, typed.
        assertThat(write.values()).extracting(v -> v.type().toString()).containsExactly("path", "bytes");
        assertThat(((Bytes) write.values().get(1).value()).toArray()).isEqualTo("overwritten".getBytes(StandardCharsets.UTF_8));
        Outcome next = s.respond(o.executionId(), new HostResponse.Result(1, Unit.INSTANCE));
        assertThat(s.pendingRequest(next.executionId()).orElseThrow().operation()).isEqualTo("process-run");
        assertThat(s.pendingRequest(next.executionId()).orElseThrow().arguments())
                .containsExactly("\"/usr/bin/touch\"", "[\"" + ws.resolve("marker") + "\"]");
        // record{exit,stderr,stdout} in canonical field order, produced by the host instead of a local process.
        Outcome done = s.respond(o.executionId(), new HostResponse.Result(2, new RecordValue(new Object[] {7L, "", "remote"})));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("{\"exit\":7,\"stderr\":\"\",\"stdout\":\"remote\"}");
        assertThat(Files.readString(ws.resolve("a.txt"))).isEqualTo("local-a");
        assertThat(Files.exists(ws.resolve("marker"))).isFalse();
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED, EffectJournal.State.ACKNOWLEDGED);
    }

    @Test
    void withoutAGrantApprovalComesFirstThenTheSameSequenceWaitsForItsResult() {
        Session s = deferredSession(ws);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, readAndSay("a.txt"), rec);
        assertThat(o.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(approved.status()).as("%s", approved).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(s.pendingRequest(o.executionId()).orElseThrow().sequence()).isEqualTo(1);
        assertThat(rec.requests).as("approval does not issue a second request").hasSize(1);
        Outcome done = s.respond(o.executionId(), new HostResponse.Result(1, bytes("remote")));
        assertThat(done.output()).isEqualTo("remote");
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED);
    }

    @Test
    void perRunObserversSeeEveryRequestBeforeAuthorizationAndDispatch() throws IOException {
        // Compatibility mode with a grant: the observer runs before the local write happens.
        Session s = session(ws, WRITE_ALL);
        List<String> seenOnDisk = new ArrayList<>();
        EffectObserver before = new EffectObserver() {
            @Override public void requested(EffectRequest r) {
                try {
                    seenOnDisk.add(r.sequence() + ":" + Files.readString(ws.resolve("a.txt")));
                } catch (IOException e) {
                    seenOnDisk.add("error");
                }
            }
        };
        Outcome o = lisp(s, write("a.txt", "one") + write("a.txt", "two"), before);
        assertThat(o.status()).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(seenOnDisk).containsExactly("1:local-a", "2:one");
        // Without a grant the observer still sees the request (authorization comes after it).
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome paused = lisp(session(ws), write("b.txt", "x"), rec);
        assertThat(paused.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(rec.requests).hasSize(1);
        // Observers are per run: a later run without the observer does not reach it.
        lisp(session(ws, READ_ALL), readAndSay("a.txt"));
        assertThat(rec.requests).hasSize(1);
    }

    @Test
    void anObserverThatThrowsDoesNotBreakTheBoundary() {
        Session s = session(ws, READ_ALL);
        Outcome o = lisp(s, readAndSay("a.txt"), r -> { throw new IllegalStateException("observer broke"); });
        // Whatever the outcome, it is structured and the file content did not leak into a Java exception.
        assertThat(o.status()).isIn(Outcome.Status.COMPLETED, Outcome.Status.FAILED);
        if (o.status() == Outcome.Status.FAILED) assertThat(o.diagnostics()).isNotEmpty();
    }

    @Test
    void aResultOfTheWrongTypeIsRefusedAndTheRightOneStillContinues() {
        // The embedder's answer is checked against the awaited row before the continuation is taken (E-HOST-014):
        // never an internal ClassCastException, never a value of the wrong type on the VM stack, and the run still waits.
        Session s = deferredSession(ws, READ_ALL);
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = lisp(s, "(say \"x\") " + readAndSay("a.txt"), rec);
        Outcome wrong = s.respond(o.executionId(), new HostResponse.Result(1, "not bytes"));
        assertRefused(wrong, "E-HOST-014");
        assertThat(wrong.diagnostics().get(0).expected()).isEqualTo("a bytes");
        assertThat(wrong.output()).isEqualTo("x");
        assertThat(wrong.vmRevision()).isZero();
        assertThat(wrong.pendingRequest().orElseThrow().awaiting()).isEqualTo(Outcome.Awaiting.RESULT);
        // Nothing was settled: the request still waits for its result.
        assertThat(rec.states()).isEmpty();
        assertThat(s.suspendedExecutions()).containsExactly(o.executionId());
        assertRefused(s.respond(o.executionId(), new HostResponse.Result(1, null)), "E-HOST-014");
        Outcome done = s.respond(o.executionId(), new HostResponse.Result(1, bytes("right")));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("xright");
        assertThat(rec.states()).containsExactly(EffectJournal.State.ACKNOWLEDGED);

        Session p = deferredSession(ws, "process.run(/bin/echo)");
        Outcome run = lisp(p, "(say (show (process-run \"/bin/echo\" (list \"a\"))))");
        // A record whose exit field is a string where the row says int, and an empty row's unit for a record row.
        assertRefused(p.respond(run.executionId(), new HostResponse.Result(1, new RecordValue(new Object[] {"zero", "", ""}))), "E-HOST-014");
        assertRefused(p.respond(run.executionId(), new HostResponse.Result(1, Unit.INSTANCE)), "E-HOST-014");
        assertThat(p.respond(run.executionId(), new HostResponse.Result(1, new RecordValue(new Object[] {0L, "", "a\n"}))).status())
                .isEqualTo(Outcome.Status.COMPLETED);
    }

    @Test
    void aRefusedAnswerOfTheWrongKindDoesNotConsumeTheContinuation() {
        Session s = deferredSession(ws);
        Outcome o = lisp(s, readAndSay("a.txt"));
        Outcome early = s.respond(o.executionId(), new HostResponse.Result(1, bytes("smuggled")));
        assertRefused(early, "E-HOST-012");
        assertThat(early.pendingRequest().orElseThrow().awaiting()).isEqualTo(Outcome.Awaiting.APPROVAL);
        assertThat(early.requiredCapabilities()).containsExactly("fs.read(${workspace}/a.txt)");
        assertRefused(s.resume(o.executionId()), "E-HOST-012");
        assertThat(s.suspendedExecutions()).containsExactly(o.executionId());
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(approved.status()).isEqualTo(Outcome.Status.SUSPENDED);
        // Approved already: a second approval is the wrong kind now.
        assertRefused(s.approve(o.executionId(), Scope.SESSION), "E-HOST-012");
        assertThat(s.grants().isEmpty()).as("a refused session approval adds no grant").isTrue();
        assertThat(s.respond(o.executionId(), new HostResponse.Result(1, bytes("remote"))).output()).isEqualTo("remote");
    }

    @Test
    void aResultCannotSkipApproval() {
        // A Result never authorizes: the file content the host offered is never delivered without approval.
        Session s = deferredSession(ws);
        Outcome o = lisp(s, readAndSay("a.txt"));
        Outcome r = s.respond(o.executionId(), new HostResponse.Result(1, bytes("smuggled")));
        assertRefused(r, "E-HOST-012");
        assertThat(r.output()).doesNotContain("smuggled");
    }

    @Test
    void aGrantedDeferredRequestRequiresNothing() {
        // required_capabilities is only the missing subset: a granted request waiting for its result requires nothing.
        Session s = deferredSession(ws, READ_ALL);
        Outcome o = lisp(s, readAndSay("a.txt"));
        assertThat(o.status()).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).isEmpty();
        assertThat(s.pendingRequest(o.executionId()).orElseThrow().requirement().toString()).isEqualTo("fs.read(${workspace}/a.txt)");
    }
}
