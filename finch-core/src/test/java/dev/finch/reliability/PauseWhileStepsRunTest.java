package dev.finch.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.Finch;
import dev.finch.HangGuard;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectObserver;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run pauses while concurrent steps are live (issue 15, item 4): a step's request waiting for approval with a second
 * step's request behind it, a step joining a paused step, the root's yield, a root that drains, deferred answers,
 * denial and cancellation; each pause is answered and the run resumes exactly, each effect once, with the same
 * sequence numbers every time. Every program runs under both forced tiers.
 */
class PauseWhileStepsRunTest {
    private static final Map<Finch.Tier, Finch> FINCHES = Map.of(
            Finch.Tier.INTERPRETED, Finch.builder().tier(Finch.Tier.INTERPRETED).build(),
            Finch.Tier.COMPILED, Finch.builder().tier(Finch.Tier.COMPILED).build());

    @TempDir Path ws;

    @BeforeEach
    void files() throws java.io.IOException {
        Files.writeString(ws.resolve("a.txt"), "A");
        Files.writeString(ws.resolve("b.txt"), "B");
    }

    private Session session(Finch.Tier tier) { return FINCHES.get(tier).newSession(SessionOptions.DEFAULT.withWorkspace(ws)); }

    /** Every request the run made and every settlement, as the host's observer saw them. */
    static final class Recorder implements EffectObserver {
        final List<EffectRequest> requests = Collections.synchronizedList(new ArrayList<>());
        final List<EffectJournal.Entry> settled = Collections.synchronizedList(new ArrayList<>());

        @Override public void requested(EffectRequest request) { requests.add(request); }

        @Override public void settled(EffectJournal.Entry entry) { settled.add(entry); }

        List<String> log() {
            List<String> out = new ArrayList<>();
            synchronized (requests) { for (EffectRequest r : requests) out.add(r.sequence() + " " + r.requirement()); }
            return out;
        }

        List<String> settlements() {
            List<String> out = new ArrayList<>();
            synchronized (settled) { for (EffectJournal.Entry e : settled) out.add(e.request().sequence() + " " + e.state()); }
            return out;
        }
    }

    private static Outcome run(Session s, String src, Recorder rec) {
        return s.submit(Submission.of(src, "t").withObserver(rec));
    }

    /** A step that reads {@code file} and answers its text. */
    private static String read(String file) {
        return "[: ( -- string ! {fs.read(${workspace}/**)} ) \"" + file + "\" path file-read bytes-to-string if-ok else drop \"?\" then ;] step-spawn";
    }

    private static final String TWO_READS = read("a.txt") + " :> a " + read("b.txt") + " :> b "
            + "\"root \" say a step-join b step-join string-append";

    private static void assertSuspendedAt(Session s, Outcome o, long sequence, String requirement) {
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        EffectRequest r = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(r.sequence()).isEqualTo(sequence);
        assertThat(r.requirement().toString()).isEqualTo(requirement);
    }

    private static List<String> stack(Outcome o) { return o.fields().stack().stream().map(v -> v.display()).toList(); }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void twoStepsThatEachNeedAGrantPauseInTurnAndEachEffectHappensOnce(Finch.Tier tier) {
        Session s = session(tier);
        Recorder rec = new Recorder();
        Outcome first = run(s, TWO_READS, rec);
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        // The second step reached its read while the first's was pending: it made no request yet.
        assertThat(rec.log()).containsExactly("1 fs.read(${workspace}/a.txt)");
        assertThat(first.output()).isEqualTo("root ");
        assertNoStepThreadRuns();

        Outcome second = s.approve(first.executionId(), Scope.ONCE);
        assertSuspendedAt(s, second, 2, "fs.read(${workspace}/b.txt)");
        Outcome done = s.approve(first.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("\"AB\"");
        assertThat(done.output()).isEqualTo("root ");
        assertThat(rec.log()).containsExactly("1 fs.read(${workspace}/a.txt)", "2 fs.read(${workspace}/b.txt)");
        assertThat(rec.settlements()).containsExactly("1 ACKNOWLEDGED", "2 ACKNOWLEDGED");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void theSameProgramPausesAtTheSameSequencesEveryTime(Finch.Tier tier) {
        String src = "[: ( -- int ) \"a1 \" say 1 ;] step-spawn :> x " + read("a.txt") + " :> a "
                + "[: ( -- string ! {fs.read(${workspace}/**)} ) \"b1 \" say x step-join drop a step-join \"b2 \" say ;] step-spawn :> b "
                + read("b.txt") + " :> c \"root \" say b step-join c step-join string-append";
        List<List<String>> runs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Session s = session(tier);
            Recorder rec = new Recorder();
            List<String> trace = new ArrayList<>();
            Outcome o = run(s, src, rec);
            while (o.status() == Outcome.Status.SUSPENDED) {
                trace.add(o.output() + "|" + s.pendingRequest(o.executionId()).orElseThrow().sequence());
                o = s.approve(o.executionId(), Scope.ONCE);
            }
            assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
            assertThat(stack(o)).containsExactly("\"AB\"");
            trace.add(o.output());
            trace.addAll(rec.log());
            runs.add(trace);
        }
        assertThat(runs).allSatisfy(r -> assertThat(r).isEqualTo(runs.get(0)));
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aStepJoiningAPausedStepWaitsAgainAfterTheResume(Finch.Tier tier) {
        Session s = session(tier);
        Recorder rec = new Recorder();
        Outcome first = run(s, read("a.txt") + " :> a [: ( -- string ) a step-join \"!\" string-append ;] step-spawn step-join", rec);
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        Outcome done = s.approve(first.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("\"A!\"");
        assertThat(rec.log()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void theRootYieldsWhileAStepRunsAndTheStepGoesOnMeanwhile(Finch.Tier tier) {
        Session s = session(tier);
        Outcome first = s.submit(Submission.of("[: ( -- int ) \"step \" say 1 ;] step-spawn :> a \"yield \" say 2 yield a step-join", "t"));
        assertThat(first.status()).as("%s", first).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(((Outcome.Suspended) first).yielded().orElseThrow().display()).isEqualTo("2");
        assertThat(first.output()).isEqualTo("yield step ");
        Outcome done = s.resume(first.executionId());
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("1");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aStepThatNeedsAGrantPausesARootThatYieldedRetriesItsYield(Finch.Tier tier) {
        // The step's request comes first (the root spawned and then waits on a join); the root's yield comes after
        // the approval.
        Session s = session(tier);
        Outcome first = s.submit(Submission.of(read("a.txt") + " :> a a step-join yield \"after \" say", "t"));
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        Outcome yielded = s.approve(first.executionId(), Scope.ONCE);
        assertThat(yielded.status()).as("%s", yielded).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(((Outcome.Suspended) yielded).yielded().orElseThrow().display()).isEqualTo("\"A\"");
        Outcome done = s.resume(first.executionId());
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("after ");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aYieldReachedWhileAStepsRequestIsPendingIsMadeAfterTheApproval(Finch.Tier tier) {
        // a's read pauses the run while the root waits for b; the root's yield then comes second: it is made afresh
        // after the approval, and publishes then.
        Session s = session(tier);
        Outcome first = s.submit(Submission.of(read("a.txt") + " :> a [: ( -- int ) 5 ;] step-spawn :> b b step-join yield a step-join", "t"));
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        assertThat(((Outcome.Suspended) first).yielded()).isEmpty();
        Outcome yielded = s.approve(first.executionId(), Scope.ONCE);
        assertThat(yielded.status()).as("%s", yielded).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(((Outcome.Suspended) yielded).yielded().orElseThrow().display()).isEqualTo("5");
        assertThat(s.pendingRequest(first.executionId())).isEmpty();
        Outcome done = s.resume(first.executionId());
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("\"A\"");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aRootThatHadFinishedMainPausesWhileItDrainsAndKeepsItsStack(Finch.Tier tier) {
        Session s = session(tier);
        Recorder rec = new Recorder();
        Outcome first = run(s, read("a.txt") + " drop \"main \" say 7", rec);
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        assertThat(first.output()).isEqualTo("main ");
        Outcome done = s.approve(first.executionId(), Scope.ONCE);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("7");
        assertThat(rec.settlements()).containsExactly("1 ACKNOWLEDGED");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aDeniedStepRequestFailsTheRunAndNothingCommits(Finch.Tier tier) {
        Session s = session(tier);
        assertThat(s.submit(Submission.of("1 : keep ( int -- int ) 1 + ;", "t")).status()).isEqualTo(Outcome.Status.COMPLETED);
        long revision = s.vmRevision();
        var before = s.stack();
        Recorder rec = new Recorder();
        Outcome first = run(s, TWO_READS + " : later ( -- int ) 2 ;", rec);
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        Outcome denied = s.deny(first.executionId(), "no");
        assertThat(denied.status()).as("%s", denied).isEqualTo(Outcome.Status.FAILED);
        assertThat(denied.diagnostics().get(0).code()).isEqualTo("E-HOST-001");
        assertThat(s.vmRevision()).isEqualTo(revision);
        assertThat(s.stack()).isEqualTo(before);
        assertThat(s.definitions()).doesNotContainKey("later");
        // The other step never made its request.
        assertThat(rec.log()).containsExactly("1 fs.read(${workspace}/a.txt)");
        assertThat(rec.settlements()).containsExactly("1 DENIED");
        assertThat(s.suspendedExecutions()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aPausedRunWithStepsCanBeCancelledEitherWay(Finch.Tier tier) {
        Session s = session(tier);
        Outcome first = run(s, TWO_READS, new Recorder());
        assertSuspendedAt(s, first, 1, "fs.read(${workspace}/a.txt)");
        Outcome cancelled = s.respond(first.executionId(), new HostResponse.Cancelled(1, "stop"));
        assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(Outcome.Status.CANCELLED);
        assertThat(s.suspendedExecutions()).isEmpty();

        Outcome again = run(s, TWO_READS, new Recorder());
        assertSuspendedAt(s, again, 1, "fs.read(${workspace}/a.txt)");
        assertThat(s.cancel(again.executionId())).isTrue();
        assertThat(s.suspendedExecutions()).isEmpty();
        assertThat(s.vmRevision()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void deferredAnswersReachTheStepsThatAskedInTurn(Finch.Tier tier) {
        Session s = FINCHES.get(tier).newSession(SessionOptions.builder().workspace(ws).grants(List.of("fs.read(${workspace}/**)")).build().withDeferredHost(true));
        Recorder rec = new Recorder();
        Outcome o = run(s, TWO_READS, rec);
        assertSuspendedAt(s, o, 1, "fs.read(${workspace}/a.txt)");
        o = s.respond(o.executionId(), new HostResponse.Result(1, bytes("x")));
        assertSuspendedAt(s, o, 2, "fs.read(${workspace}/b.txt)");
        o = s.respond(o.executionId(), new HostResponse.Result(2, bytes("y")));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(o)).containsExactly("\"xy\"");
        assertThat(rec.settlements()).containsExactly("1 ACKNOWLEDGED", "2 ACKNOWLEDGED");
    }

    private static dev.finch.vm.value.Bytes bytes(String s) { return dev.finch.vm.value.Bytes.wrap(s.getBytes(StandardCharsets.UTF_8)); }

    /** Runs {@code src}, saving the session at every pause and going on in a session restored from the image. */
    private Outcome throughImages(Finch.Tier tier, String src, List<String> pauses) {
        Finch finch = Finch.builder().tier(tier).imageKey(dev.finch.persist.Images.KEY).build();
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(ws);
        Session s = finch.newSession(options);
        Outcome o = s.submit(Submission.of(src, "t"));
        while (o.status() == Outcome.Status.SUSPENDED) {
            String id = o.executionId();
            Session restored = Finch.builder().tier(tier).imageKey(dev.finch.persist.Images.KEY).build().restore(s.save(id), options);
            var pending = restored.pendingRequest(id);
            pauses.add(o.output() + "|" + pending.map(r -> r.sequence() + " " + r.requirement()).orElse("yield"));
            o = pending.isPresent() ? restored.approve(id, Scope.ONCE) : restored.resume(id);
            s = restored;
        }
        return o;
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aRunPausedWithLiveStepsIsSavedAndRestoredElsewhereAtEveryPause(Finch.Tier tier) {
        // x has ended (its handle is still held), a waits for approval, b waits on a, c's read is retried.
        String src = "[: ( -- int ) \"a1 \" say 1 ;] step-spawn :> x " + read("a.txt") + " :> a "
                + "[: ( -- string ! {fs.read(${workspace}/**)} ) \"b1 \" say x step-join drop a step-join \"b2 \" say ;] step-spawn :> b "
                + read("b.txt") + " :> c x step-join drop \"root \" say b step-join c step-join string-append x step-join";
        List<String> pauses = new ArrayList<>();
        Outcome done = throughImages(tier, src, pauses);
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(done)).containsExactly("\"AB\"", "1");
        assertThat(pauses).containsExactly("a1 root b1 |1 fs.read(${workspace}/a.txt)", "a1 root b1 b2 |2 fs.read(${workspace}/b.txt)");
        assertThat(done.output()).isEqualTo("a1 root b1 b2 ");
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aDrainingRootAndAYieldingRootAreSavedAndRestoredToo(Finch.Tier tier) {
        List<String> pauses = new ArrayList<>();
        Outcome drained = throughImages(tier, read("a.txt") + " drop \"main \" say 7", pauses);
        assertThat(drained.status()).as("%s", drained).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(drained)).containsExactly("7");
        assertThat(pauses).containsExactly("main |1 fs.read(${workspace}/a.txt)");

        pauses.clear();
        Outcome yielded = throughImages(tier, read("a.txt") + " :> a \"y \" say unit yield a step-join", pauses);
        assertThat(yielded.status()).as("%s", yielded).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(stack(yielded)).containsExactly("\"A\"");
        assertThat(pauses).containsExactly("y |yield", "y |1 fs.read(${workspace}/a.txt)");
    }

    /** While a run is suspended none of its steps has a thread (a step's thread ends as it unwinds). */
    private static void assertNoStepThreadRuns() {
        assertThat(HangGuard.await(() -> dev.finch.vm.runtime.Strands.alive() == 0)).as("step threads alive").isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = Finch.Tier.class, names = {"INTERPRETED", "COMPILED"})
    void aJoinThatMustWaitAcrossAPauseWhereItCannotResumeStopsTheRun(Finch.Tier tier) {
        // list-map runs its function without a resume point: the join inside cannot unwind, so the run stops.
        Session s = session(tier);
        Outcome o = run(s, read("a.txt") + " :> a [ a ] [: ( task<string> -- string ) step-join ;] list-map", new Recorder());
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.FAILED);
        assertThat(o.diagnostics().get(0).code()).isEqualTo("E-RUN-007");
        assertThat(s.suspendedExecutions()).isEmpty();
    }

    @AfterAll static void noStepOutlivesItsRun() {
        assertThat(HangGuard.await(() -> dev.finch.vm.runtime.Strands.alive() == 0)).as("step threads alive").isTrue();
    }
}
