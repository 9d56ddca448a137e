package dev.finch.temporal;

import dev.finch.host.ScheduleCode;
import dev.finch.host.ScheduleHost;
import dev.finch.host.ScheduleWhen;
import dev.finch.schedule.SchedulePolicies;
import dev.finch.schedule.SchedulePolicy;
import dev.finch.schedule.Scheduler;
import dev.finch.vm.boundary.HostFailure;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleListDescription;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finch's schedules on many nodes: a {@link ScheduleHost} whose schedules are Temporal Schedules. Install it as the
 * schedule host of every Finch whose programs may schedule ({@code Finch.Builder.scheduleHost}) and on every worker of
 * the task queue ({@link FinchWorker#withSchedules}), each with the same policies.
 *
 * <p>{@code schedule-create} makes a Temporal Schedule ({@link ScheduleSpecs}: a cron expression as calendar specs in
 * UTC, an instant or a delay as one calendar second with one action; {@code maxRuns} as the schedule's action limit,
 * {@code lifetime} as its end; missed runs as its catch-up window and overlap rule), whose action starts a
 * {@link ScheduledRunWorkflow} on the task queue: whichever worker takes it runs the program as a new submission with
 * source {@code schedule:<id>} in a fresh session with the policy's options (its grants), and hands the outcome to the
 * policy's callback — on that worker. {@code schedule-list} lists the policy's schedules that will still run,
 * {@code schedule-cancel} deletes one. The schedule's memo holds its policy, when, program and task queue.
 */
public final class TemporalSchedules implements ScheduleHost {
    /** A run that a worker takes later than this after its time is a missed run, by default. */
    public static final Duration MISSED_AFTER = Duration.ofMinutes(1);
    /** How long a scheduled program may run, by default (the run activity's start-to-close timeout). */
    public static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);

    static final String MEMO_POLICY = "finch-policy";
    static final String MEMO_WHEN = "finch-when";
    static final String MEMO_PROGRAM = "finch-program";
    static final String MEMO_QUEUE = "finch-task-queue";

    private final ScheduleClient client;
    private final String taskQueue;
    private final SchedulePolicies policies;
    private final Duration missedAfter;
    private final Duration runTimeout;
    private final Clock clock;

    private TemporalSchedules(ScheduleClient client, String taskQueue, SchedulePolicies policies, Duration missedAfter, Duration runTimeout,
                              Clock clock) {
        this.client = client;
        this.taskQueue = taskQueue;
        this.policies = policies;
        this.missedAfter = missedAfter;
        this.runTimeout = runTimeout;
        this.clock = clock;
    }

    /** Schedules of {@code policies} in {@code client}'s namespace, whose runs go to the Finch workers of {@code taskQueue}. */
    public static TemporalSchedules of(ScheduleClient client, String taskQueue, List<SchedulePolicy> policies) {
        return new TemporalSchedules(Objects.requireNonNull(client, "client"), Objects.requireNonNull(taskQueue, "taskQueue"),
                SchedulePolicies.of(policies), MISSED_AFTER, RUN_TIMEOUT, Clock.systemUTC());
    }

    /** These schedules, a run that a worker takes later than {@code late} after its time counting as missed. */
    public TemporalSchedules withMissedAfter(Duration late) {
        if (late.isNegative()) throw new IllegalArgumentException("missedAfter is not negative");
        return new TemporalSchedules(client, taskQueue, policies, late, runTimeout, clock);
    }

    /** These schedules, a program running at most {@code timeout} (it is not tried again after). */
    public TemporalSchedules withRunTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("runTimeout is positive");
        return new TemporalSchedules(client, taskQueue, policies, missedAfter, timeout, clock);
    }

    /** The host's policies. */
    public SchedulePolicies policies() { return policies; }

    /**
     * Schedules a program ({@link Work.Program}: a Finch session resolves a word scheduled by name into the program that
     * calls it before it reaches a schedule host, so a {@link Work.Word} here is refused with {@code E-SCHEDULE-008}).
     */
    @Override public String create(String policy, ScheduleWhen when, Work work) throws HostFailure {
        if (!(work instanceof Work.Program w)) {
            throw new HostFailure(ScheduleCode.WORD_NOT_KEPT, "Temporal schedules keep program text; a word reaches them through a Finch session");
        }
        String program = w.text();
        String language = w.language().orElse("");
        SchedulePolicy p = policies.get(policy);
        Instant now = clock.instant();
        Instant first = p.firstRun(when, now);
        String id = SchedulePolicies.newId();
        Schedule schedule = schedule(id, p, when, program, language, now, first);
        try {
            long live = finchSchedules().size();
            if (live >= Scheduler.MAX_SCHEDULES) {
                throw new HostFailure(ScheduleCode.TOO_MANY, "this task queue's schedules number " + live + "; at most " + Scheduler.MAX_SCHEDULES);
            }
            client.createSchedule(id, schedule, ScheduleOptions.newBuilder().setMemo(Map.of(MEMO_POLICY, p.name(), MEMO_WHEN, when.spelling(),
                    MEMO_PROGRAM, program, MEMO_QUEUE, taskQueue)).build());
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "Temporal could not keep the schedule (the host has the cause); nothing was scheduled", e);
        }
        return id;
    }

    /** The Temporal Schedule of a new Finch schedule {@code id}. */
    Schedule schedule(String id, SchedulePolicy p, ScheduleWhen when, String program, String language, Instant created, Instant first) throws HostFailure {
        ScheduleSpec spec = ScheduleSpecs.spec(when, created, first, p).orElseThrow(() -> new HostFailure(ScheduleCode.BAD_WHEN,
                "\"" + when.spelling() + "\" uses a cron form that Temporal schedules are not given (use lists, ranges and steps)"));
        ScheduledProgram run = new ScheduledProgram(id, p.name(), program, language, p.missed().name(), missedAfter.toMillis(), runTimeout.toMillis());
        return Schedule.newBuilder()
                .setAction(ScheduleActionStartWorkflow.newBuilder().setWorkflowType(ScheduledRunWorkflow.class).setArguments(run)
                        .setOptions(WorkflowOptions.newBuilder().setWorkflowId("finch-" + id).setTaskQueue(taskQueue).build()).build())
                .setSpec(spec)
                .setPolicy(ScheduleSpecs.policies(p, missedAfter))
                .setState(ScheduleSpecs.state(when, p))
                .build();
    }

    @Override public List<Listed> list(String policy) throws HostFailure {
        SchedulePolicy p = policies.get(policy);
        List<Listed> out = new ArrayList<>();
        try {
            for (ScheduleListDescription s : finchSchedules()) {
                if (!p.name().equals(s.getMemo(MEMO_POLICY, String.class))) continue;
                Optional<ScheduleDescription> d = describe(s.getScheduleId());
                if (d.isEmpty() || d.get().getInfo().getNextActionTimes().isEmpty()) continue;
                out.add(new Listed(s.getScheduleId(), p.name(), String.valueOf(s.getMemo(MEMO_WHEN, String.class)),
                        String.valueOf(s.getMemo(MEMO_PROGRAM, String.class)), d.get().getInfo().getNumActions(),
                        d.get().getInfo().getNextActionTimes().get(0)));
            }
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedules could not be read from Temporal (the host has the cause)", e);
        }
        out.sort(Comparator.comparing(Listed::id));
        return out;
    }

    @Override public boolean cancel(String policy, String id) throws HostFailure {
        SchedulePolicy p = policies.get(policy);
        if (id.isEmpty() || id.length() > 200) return false;
        try {
            Optional<ScheduleDescription> d = describe(id);
            if (d.isEmpty() || !p.name().equals(d.get().getMemo(MEMO_POLICY, String.class))
                    || !taskQueue.equals(d.get().getMemo(MEMO_QUEUE, String.class))) {
                return false;
            }
            boolean live = !d.get().getInfo().getNextActionTimes().isEmpty();
            return delete(id) && live;
        } catch (RuntimeException e) {
            throw new HostFailure(ScheduleCode.UNAVAILABLE, "the schedule could not be cancelled in Temporal (the host has the cause)", e);
        }
    }

    /** The Finch schedules of this task queue (whatever their policy). */
    private List<ScheduleListDescription> finchSchedules() {
        return client.listSchedules().filter(s -> taskQueue.equals(s.getMemo(MEMO_QUEUE, String.class))).toList();
    }

    /** The schedule {@code id}, or empty when Temporal has none. */
    Optional<ScheduleDescription> describe(String id) {
        try {
            return Optional.of(client.getHandle(id).describe());
        } catch (RuntimeException e) {
            if (notFound(e)) return Optional.empty();
            throw e;
        }
    }

    /** Deletes the schedule {@code id}; false when Temporal had none. */
    boolean delete(String id) {
        try {
            client.getHandle(id).delete();
            return true;
        } catch (RuntimeException e) {
            if (notFound(e)) return false;
            throw e;
        }
    }

    private static boolean notFound(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND) return true;
        }
        return false;
    }
}
