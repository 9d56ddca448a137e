package dev.finch.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.host.ScheduleCode;
import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
import dev.finch.schedule.MissedRuns;
import dev.finch.schedule.ScheduledRun;
import dev.finch.schedule.SchedulePolicy;
import dev.finch.vm.boundary.HostFailure;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.api.schedule.v1.Schedule;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: Finch's schedules on many nodes as Temporal Schedules ({@link TemporalSchedules}). Programs schedule through
 * the schedule words of a Finch whose schedule host it is; a worker takes each run the schedule's action starts and runs
 * the program as a new submission with source {@code schedule:<id>} and the policy's grants, handing the outcome to the
 * policy's callback. The SDK's test server has no schedules ({@link #theSdksTestServerHasNoSchedules}), so the schedules
 * live in {@link ScheduleStandIn}, which passes everything else to the test server and takes a schedule's action when
 * the test says, where a Temporal server would at its time.
 */
@SuppressWarnings("try")   // a running worker is a resource the body needs only to exist
class TemporalSchedulesTest {
    static ScheduleStandIn temporal;
    final List<ScheduledRun> runs = new CopyOnWriteArrayList<>();
    final String queue = "finch-" + UUID.randomUUID();
    @TempDir Path dir;

    @BeforeAll static void server() { temporal = new ScheduleStandIn(); }

    @AfterAll static void stop() { temporal.close(); }

    static ScheduleClient scheduleClient() {
        return ScheduleClient.newInstance(temporal.stubs, ScheduleClientOptions.newBuilder().setNamespace(temporal.namespace()).build());
    }

    static WorkflowClient client() {
        return WorkflowClient.newInstance(temporal.stubs, WorkflowClientOptions.newBuilder().setNamespace(temporal.namespace()).build());
    }

    /** Runs that may read the workspace. */
    SchedulePolicy report() {
        return SchedulePolicy.named("report").withSession(SessionOptions.DEFAULT.withWorkspace(dir).withGrant("fs.read(${workspace}/**)"))
                .onOutcome(runs::add);
    }

    /** Runs with no grant. */
    SchedulePolicy bare() { return SchedulePolicy.named("bare").withSession(SessionOptions.DEFAULT.withWorkspace(dir)).onOutcome(runs::add); }

    TemporalSchedules schedules(SchedulePolicy... policies) { return TemporalSchedules.of(scheduleClient(), queue, List.of(policies)); }

    /** A worker of this test's task queue taking the runs of {@code schedules}; closing it stops it. */
    final class Node implements AutoCloseable {
        final FinchWorker finch;
        final WorkerFactory factory;

        Node(TemporalSchedules schedules) {
            finch = FinchWorker.of(Finch.builder().imageKey(TemporalFixture.KEY).scheduleHost(schedules), SessionOptions.DEFAULT.withWorkspace(dir))
                    .withSchedules(schedules);
            factory = WorkerFactory.newInstance(client(), WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build());
            finch.register(factory.newWorker(queue, FinchWorker.workerOptions().build()));
            factory.start();
        }

        @Override public void close() {
            factory.shutdownNow();
            factory.awaitTermination(10, TimeUnit.SECONDS);
            finch.close();
        }
    }

    static Outcome lisp(Session s, String src) { return s.submit(Submission.of(src, "p.lisp")); }

    static ScheduledRunView result(String workflowId) throws java.util.concurrent.TimeoutException {
        return client().newUntypedWorkflowStub(workflowId).getResult(3, TimeUnit.MINUTES, ScheduledRunView.class);   // a hang guard
    }

    static String code(Outcome o) { return o.diagnostics().isEmpty() ? "" : o.diagnostics().get(0).code(); }

    @Test void aProgramSchedulesOnceAndAWorkerRunsItWithThePolicysGrantsAndTheScheduleAsItsSource() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "scheduled");
        String program = "\"notes.txt\" path file-read bytes-to-string if-ok say else say then";
        TemporalSchedules schedules = schedules(report());
        try (Finch app = Finch.builder().scheduleHost(schedules).build(); Node worker = new Node(schedules)) {
            Session s = app.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)"));
            Instant before = Instant.now();
            Outcome made = lisp(s, "(say (schedule-create \"report\" \"PT1H\" \"" + program.replace("\"", "\\\"") + "\"))");
            Instant after = Instant.now();
            assertThat(made.status()).as("%s", made).isEqualTo(Outcome.Status.COMPLETED);
            String id = made.output();
            assertThat(id).startsWith("sch-");

            // The Temporal Schedule: its action starts a scheduled run on the task queue; once, an hour after it was made.
            Schedule kept = temporal.schedule(id).orElseThrow();
            assertThat(kept.getAction().getStartWorkflow().getWorkflowType().getName()).isEqualTo("FinchScheduledRun");
            assertThat(kept.getAction().getStartWorkflow().getTaskQueue().getName()).isEqualTo(queue);
            assertThat(kept.getAction().getStartWorkflow().getWorkflowId()).isEqualTo("finch-" + id);
            assertThat(kept.getState().getLimitedActions()).isTrue();
            assertThat(kept.getState().getRemainingActions()).isEqualTo(1);
            assertThat(kept.getPolicies().getOverlapPolicy()).isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
            assertThat(temporal.memo(id, TemporalSchedules.MEMO_POLICY)).contains("report");
            assertThat(temporal.memo(id, TemporalSchedules.MEMO_PROGRAM)).contains(program);
            List<ScheduleHost.Listed> listed = schedules.list("report");
            assertThat(listed).singleElement().satisfies(l -> {
                assertThat(l.id()).isEqualTo(id);
                assertThat(l.when()).isEqualTo("PT1H");
                assertThat(l.program()).isEqualTo(program);
                assertThat(l.runs()).isZero();
                assertThat(l.next()).isAfterOrEqualTo(before.plus(Duration.ofHours(1))).isBeforeOrEqualTo(after.plus(Duration.ofHours(1)).plusSeconds(1));
            });
            assertThat(lisp(s, "(say (show (schedule-list \"report\")))").output()).contains("\"id\":\"" + id + "\"", "\"runs\":0", "\"when\":\"PT1H\"");

            ScheduledRunView ran = result(temporal.fire(id).orElseThrow());
            assertThat(ran.status()).as("%s", ran).isEqualTo(ScheduledRunView.RAN);
            assertThat(ran.run()).isEqualTo(1);
            assertThat(ran.missed()).isFalse();
            assertThat(DurableSessionTest.json(ran.outcome()).get("output").asText()).isEqualTo("scheduled");
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.scheduleId()).isEqualTo(id);
                assertThat(r.policy()).isEqualTo("report");
                assertThat(r.run()).isEqualTo(1);
                assertThat(r.missed()).isFalse();
                assertThat(r.outcome().status()).as("%s", r.outcome()).isEqualTo(Outcome.Status.COMPLETED);
                assertThat(r.outcome().output()).isEqualTo("scheduled");
                assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + id);
            });
            // A one-shot schedule ends with its run, as Finch's own does: nothing is listed, Temporal keeps nothing.
            assertThat(temporal.schedule(id)).isEmpty();
            assertThat(lisp(s, "(say (show (schedule-list \"report\")))").output()).isEqualTo("[]");
        }
    }

    /** docs/temporal.md's "Schedules on many nodes": every line of its block runs here, in order. */
    @Test void theSchedulesOfTheDocsRun() throws Exception {
        ScheduleClient scheduleClient = scheduleClient();
        byte[] key = TemporalFixture.KEY;
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(dir);
        WorkerFactory factory = WorkerFactory.newInstance(client(), WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build());
        SchedulePolicy report = SchedulePolicy.named("report").withGrant("memory.write(tree=global,path=reports/**)").onOutcome(runs::add);
        TemporalSchedules schedules = TemporalSchedules.of(scheduleClient, "finch-sessions", List.of(report));   // the same on every node
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(key).scheduleHost(schedules), options).withSchedules(schedules);
        finch.register(factory.newWorker("finch-sessions", FinchWorker.workerOptions().build()));
        factory.start();
        try (Finch app = Finch.builder().scheduleHost(schedules).build()) {   // any process whose programs schedule
            Session session = app.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=report)"));
            String id = session.submit(Submission.of("(say (schedule-create \"report\" \"0 9 * * 1-5\" \"(say \\\"good morning\\\")\"))", "ask.lisp")).output();
            assertThat(temporal.schedule(id)).isPresent();
            assertThat(result(temporal.fire(id).orElseThrow()).status()).isEqualTo(ScheduledRunView.RAN);   // where Temporal would, at 09:00
            assertThat(runs).singleElement().satisfies(r -> assertThat(r.outcome().output()).isEqualTo("good morning"));
            assertThat(schedules.cancel("report", id)).isTrue();
        } finally {
            factory.shutdownNow();
            factory.awaitTermination(10, TimeUnit.SECONDS);
            finch.close();
        }
    }

    @Test void thePageQuotesTheDocsTest() throws Exception {
        DocsExampleTest.assertQuoted("## Schedules on many nodes", Path.of("src/test/java/dev/finch/temporal/TemporalSchedulesTest.java"), 5);
    }

    @Test void aDurableSessionsProgramSchedulesOnTemporalOnceApproved() throws Exception {
        TemporalSchedules schedules = schedules(report());
        try (Node worker = new Node(schedules)) {
            String sessionId = "session-" + UUID.randomUUID();
            FinchSessionWorkflow session = client().newWorkflowStub(FinchSessionWorkflow.class,
                    io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(queue).setWorkflowId(sessionId).build());
            WorkflowClient.start(session::run, SessionState.fresh());
            session = client().newWorkflowStub(FinchSessionWorkflow.class, sessionId);
            var asked = DurableSessionTest.json(session.submit("(say (schedule-create \"report\" \"PT1H\" \"(say 1)\"))", "turn-1"));
            assertThat(asked.at("/pending_request/requirement").asText()).isEqualTo("schedule.create(policy=report)");
            // Approved, the host activity performs schedule-create on the worker's Finch, whose schedule host is Temporal's.
            var done = DurableSessionTest.json(session.approve(asked.get("execution_id").asText(), asked.at("/pending_request/sequence").asLong(), "once"));
            assertThat(done.get("status").asText()).as("%s", done).isEqualTo("completed");
            String id = done.get("output").asText();
            assertThat(temporal.schedule(id)).isPresent();
            assertThat(temporal.memo(id, TemporalSchedules.MEMO_QUEUE)).contains(queue);
            session.close();
        }
    }

    @Test void aCronScheduleRunsAtEachTimeUntilCancelledAndOnlyItsPolicyCancelsIt() throws Exception {
        TemporalSchedules schedules = schedules(report(), bare());
        try (Node worker = new Node(schedules)) {
            Instant before = Instant.now();
            String id = schedules.create("report", ScheduleWhen.parse("*/5 * * * *").orElseThrow(), new dev.finch.host.ScheduleHost.Work.Program("(say \"tick\")", java.util.Optional.empty()));
            Instant after = Instant.now();
            ScheduleWhen cron = ScheduleWhen.parse("*/5 * * * *").orElseThrow();
            assertThat(schedules.list("report")).singleElement().satisfies(l -> assertThat(l.next())
                    .isBetween(cron.due(before, 0, before).orElseThrow(), cron.due(after, 0, after).orElseThrow()));
            assertThat(temporal.schedule(id).orElseThrow().getState().getLimitedActions()).as("no maxRuns, no limit").isFalse();

            assertThat(result(temporal.fire(id).orElseThrow()).run()).isEqualTo(1);
            assertThat(result(temporal.fire(id).orElseThrow()).run()).isEqualTo(2);
            assertThat(runs).extracting(ScheduledRun::run).containsExactly(1L, 2L);
            assertThat(runs).allSatisfy(r -> assertThat(r.outcome().output()).isEqualTo("tick"));
            assertThat(schedules.list("report")).singleElement().satisfies(l -> assertThat(l.runs()).isEqualTo(2));
            assertThat(schedules.list("bare")).isEmpty();

            assertThat(schedules.cancel("bare", id)).as("another policy's schedule").isFalse();
            assertThat(schedules.cancel("report", id)).isTrue();
            assertThat(schedules.cancel("report", id)).as("already cancelled").isFalse();
            assertThat(temporal.schedule(id)).isEmpty();
            assertThat(schedules.list("report")).isEmpty();
        }
    }

    @Test void aScheduleWithMaxRunsEndsAfterItsLastRun() throws Exception {
        TemporalSchedules schedules = schedules(report().withMaxRuns(2));
        try (Node worker = new Node(schedules)) {
            String id = schedules.create("report", ScheduleWhen.parse("0 * * * *").orElseThrow(), program("(say \"hourly\")"));
            assertThat(temporal.schedule(id).orElseThrow().getState().getRemainingActions()).isEqualTo(2);
            assertThat(result(temporal.fire(id).orElseThrow()).status()).isEqualTo(ScheduledRunView.RAN);
            assertThat(temporal.schedule(id)).isPresent();
            assertThat(result(temporal.fire(id).orElseThrow()).run()).isEqualTo(2);
            assertThat(temporal.schedule(id)).as("ended after its last run").isEmpty();
            assertThat(runs).hasSize(2);
        }
    }

    @Test void whatCannotBeScheduledIsRefusedAndARunNeedingAnotherGrantWaitsUncontinued() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "secret");
        TemporalSchedules schedules = schedules(report(), bare());
        try (Finch app = Finch.builder().scheduleHost(schedules).build(); Node worker = new Node(schedules)) {
            Session s = app.newSession(SessionOptions.DEFAULT.withGrant("schedule.create(policy=nope)").withGrant("schedule.create(policy=report)"));
            assertThat(code(lisp(s, "(schedule-create \"nope\" \"PT1M\" \"(say 1)\")"))).isEqualTo(ScheduleCode.UNKNOWN_POLICY.code());
            assertThat(code(lisp(s, "(schedule-create \"report\" \"2020-01-01T00:00:00Z\" \"(say 1)\")"))).isEqualTo(ScheduleCode.BAD_WHEN.code());
            HostFailure late = catchThrowableOfType(() -> TemporalSchedules.of(scheduleClient(), queue, List.of(report().withLifetime(Duration.ofMinutes(1))))
                    .create("report", ScheduleWhen.parse("PT1H").orElseThrow(), program("(say 1)")), HostFailure.class);
            assertThat(late.code()).isEqualTo(ScheduleCode.BAD_WHEN);
            assertThat(late.getMessage()).contains("lifetime");

            // The bare policy gives no read: the run pauses at the request, and nobody continues it.
            String id = schedules.create("bare", ScheduleWhen.parse("PT1M").orElseThrow(),
                    program("\"notes.txt\" path file-read bytes-to-string if-ok say else say then"));
            assertThat(result(temporal.fire(id).orElseThrow()).status()).isEqualTo(ScheduledRunView.RAN);
            assertThat(runs).singleElement().satisfies(r -> {
                assertThat(r.outcome().status()).isEqualTo(Outcome.Status.SUSPENDED);
                assertThat(r.outcome().sourceId()).isEqualTo("schedule:" + id);
            });
        }
    }

    @Test void missedRunsAreSkippedOrRunOnceAsThePolicySays() throws Exception {
        SchedulePolicy skip = SchedulePolicy.named("skip").withMissed(MissedRuns.SKIP).onOutcome(runs::add);
        SchedulePolicy catchUp = SchedulePolicy.named("catch-up").withMissed(MissedRuns.RUN_ONCE).onOutcome(runs::add);
        TemporalSchedules schedules = schedules(skip, catchUp).withMissedAfter(Duration.ofSeconds(1));
        ScheduleWhen cron = ScheduleWhen.parse("*/5 * * * *").orElseThrow();
        String skipped = schedules.create("skip", cron, program("(say \"skip\")"));
        String caught = schedules.create("catch-up", cron, program("(say \"caught up\")"));
        // No worker polls: the schedules' times come and their runs wait. A time that comes while a run waits is skipped.
        String skipRun = temporal.fire(skipped).orElseThrow();
        String catchUpRun = temporal.fire(caught).orElseThrow();
        assertThat(temporal.fire(caught)).isEmpty();
        assertThat(temporal.fire(caught)).isEmpty();
        assertThat(temporal.skipped(caught)).isEqualTo(2);
        Thread.sleep(2_000);                                   // longer than missedAfter: these runs are late now
        try (Node worker = new Node(schedules)) {
            ScheduledRunView dropped = result(skipRun);
            assertThat(dropped.status()).isEqualTo(ScheduledRunView.SKIPPED);
            assertThat(dropped.missed()).isTrue();
            ScheduledRunView once = result(catchUpRun);
            assertThat(once.status()).isEqualTo(ScheduledRunView.RAN);
            assertThat(once.missed()).isTrue();
        }
        assertThat(runs).singleElement().satisfies(r -> {
            assertThat(r.scheduleId()).isEqualTo(caught);
            assertThat(r.missed()).isTrue();
            assertThat(r.outcome().output()).isEqualTo("caught up");
        });
        assertThat(temporal.schedule(skipped)).as("a cron schedule goes on").isPresent();
    }

    /**
     * The SDK's own test server keeps no schedules: every schedule call answers UNIMPLEMENTED. A program sees the
     * scheduler's E-SCHEDULE-005, no library message. The scenarios above therefore run on {@link ScheduleStandIn}; this
     * test is skipped with that reason — and fails when a test server that keeps schedules comes, so that they move to it.
     */
    @Test void theSdksTestServerHasNoSchedules() {
        try (TestWorkflowEnvironment bare = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build())) {
            TemporalSchedules schedules = TemporalSchedules.of(ScheduleClient.newInstance(bare.getWorkflowServiceStubs(),
                    ScheduleClientOptions.newBuilder().setNamespace(bare.getNamespace()).build()), queue, List.of(report()));
            HostFailure refused = catchThrowableOfType(() -> schedules.create("report", ScheduleWhen.parse("PT1M").orElseThrow(), program("(say 1)")),
                    HostFailure.class);
            assertThat(refused).as("the SDK's test server now keeps schedules: run TemporalSchedulesTest's scenarios on it").isNotNull();
            assertThat(refused.code()).isEqualTo(ScheduleCode.UNAVAILABLE);
            assertThat(refused.getMessage()).doesNotContain("UNIMPLEMENTED", "io.grpc");
            Throwable cause = refused;
            while (cause != null && !(cause instanceof StatusRuntimeException)) cause = cause.getCause();
            assertThat(cause).isInstanceOf(StatusRuntimeException.class);
            assertThat(((StatusRuntimeException) cause).getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
        }
        Assumptions.abort("the SDK's test server (temporal-testing 1.31.0) implements none of the schedule calls: CreateSchedule and "
                + "ListSchedules answer UNIMPLEMENTED (temporalio/sdk-java#1954, closed as not planned), so a Temporal Schedule cannot fire "
                + "on it; the schedules are tested on ScheduleStandIn, which keeps them and takes their actions when the test says");
    }

    /** Program text whose language the contract's rule decides, as a Finch session hands it to a schedule host. */
    private static dev.finch.host.ScheduleHost.Work program(String text) {
        return new dev.finch.host.ScheduleHost.Work.Program(text, java.util.Optional.empty());
    }
}
