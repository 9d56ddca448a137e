package dev.finch.temporal;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.temporal.api.common.v1.Memo;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.schedule.v1.Range;
import io.temporal.api.schedule.v1.Schedule;
import io.temporal.api.schedule.v1.ScheduleInfo;
import io.temporal.api.schedule.v1.ScheduleListEntry;
import io.temporal.api.schedule.v1.ScheduleListInfo;
import io.temporal.api.schedule.v1.StructuredCalendarSpec;
import io.temporal.api.workflow.v1.NewWorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.CreateScheduleRequest;
import io.temporal.api.workflowservice.v1.CreateScheduleResponse;
import io.temporal.api.workflowservice.v1.DeleteScheduleRequest;
import io.temporal.api.workflowservice.v1.DeleteScheduleResponse;
import io.temporal.api.workflowservice.v1.DescribeScheduleRequest;
import io.temporal.api.workflowservice.v1.DescribeScheduleResponse;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.ListSchedulesRequest;
import io.temporal.api.workflowservice.v1.ListSchedulesResponse;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.client.schedules.ScheduleCalendarSpec;
import io.temporal.client.schedules.ScheduleRange;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in for a Temporal server's schedules, which the SDK's test server does not have (its CreateSchedule answers
 * UNIMPLEMENTED; temporalio/sdk-java#1954 was closed as not planned). A gRPC server in this JVM answers the schedule
 * calls itself — create, describe, list, delete — and passes every other call to the SDK's test server. It keeps the
 * schedules it is given as they were sent, and takes a schedule's action when the test says ({@link #fire}) — where a
 * Temporal server would at the schedule's times — the way a server does: it starts the action's workflow with the
 * scheduled time appended to its id, skips the time while the schedule's last run still runs (overlap SKIP), counts the
 * action and spends one of a limited schedule's actions. Future action times are read from the calendars with
 * {@link CalendarTimes}.
 */
final class ScheduleStandIn implements AutoCloseable {
    final TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());
    private final Server server;
    private final ManagedChannel channel;
    /** The stubs clients use: schedules here, the rest passed to the test server. */
    final WorkflowServiceStubs stubs;
    private final Map<String, Kept> schedules = new ConcurrentHashMap<>();

    /** A schedule as it was created, with what its actions changed. */
    private static final class Kept {
        Schedule schedule;
        final Memo memo;
        final Instant created;
        long actions;
        long skipped;
        String lastWorkflowId;

        Kept(Schedule schedule, Memo memo, Instant created) {
            this.schedule = schedule;
            this.memo = memo;
            this.created = created;
        }
    }

    ScheduleStandIn() {
        String name = "schedule-stand-in-" + UUID.randomUUID();
        Channel testServer = env.getWorkflowServiceStubs().getRawChannel();
        try {
            server = InProcessServerBuilder.forName(name).addService(scheduleCalls()).fallbackHandlerRegistry(new PassOn(testServer)).build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        channel = InProcessChannelBuilder.forName(name).build();
        stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setChannel(channel).build());
    }

    String namespace() { return env.getNamespace(); }

    /** The schedule {@code id} as it was created (or as its actions left it); empty when there is none. */
    synchronized Optional<Schedule> schedule(String id) {
        Kept k = schedules.get(id);
        return k == null ? Optional.empty() : Optional.of(k.schedule);
    }

    /** The memo's field {@code key} of schedule {@code id}, decoded from its JSON payload. */
    synchronized Optional<String> memo(String id, String key) {
        Kept k = schedules.get(id);
        if (k == null || !k.memo.containsFields(key)) return Optional.empty();
        return Optional.of(io.temporal.common.converter.DefaultDataConverter.newDefaultInstance()
                .fromPayload(k.memo.getFieldsOrThrow(key), String.class, String.class));
    }

    /** How many times of schedule {@code id} were skipped because its last run still ran. */
    synchronized long skipped(String id) { return schedules.get(id).skipped; }

    /**
     * Takes schedule {@code id}'s action now, as a Temporal server does at one of its times: the started workflow's id,
     * or empty when the schedule has no action left, is gone, or its last run still runs (skipped).
     */
    synchronized Optional<String> fire(String id) {
        Kept k = schedules.get(id);
        if (k == null || (k.schedule.getState().getLimitedActions() && k.schedule.getState().getRemainingActions() <= 0)) return Optional.empty();
        if (k.lastWorkflowId != null && k.schedule.getPolicies().getOverlapPolicy() == ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP) {
            WorkflowExecutionStatus last = env.getWorkflowServiceStubs().blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest
                    .newBuilder().setNamespace(env.getNamespace()).setExecution(WorkflowExecution.newBuilder().setWorkflowId(k.lastWorkflowId))
                    .build()).getWorkflowExecutionInfo().getStatus();
            if (last == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
                k.skipped++;
                return Optional.empty();
            }
        }
        NewWorkflowExecutionInfo action = k.schedule.getAction().getStartWorkflow();
        String workflowId = action.getWorkflowId() + "-" + Instant.now().truncatedTo(ChronoUnit.SECONDS);
        StartWorkflowExecutionRequest.Builder start = StartWorkflowExecutionRequest.newBuilder().setNamespace(env.getNamespace())
                .setRequestId(UUID.randomUUID().toString()).setIdentity("schedule-stand-in").setWorkflowId(workflowId)
                .setWorkflowType(action.getWorkflowType()).setTaskQueue(action.getTaskQueue()).setInput(action.getInput());
        if (action.hasHeader()) start.setHeader(action.getHeader());
        env.getWorkflowServiceStubs().blockingStub().startWorkflowExecution(start.build());
        k.actions++;
        k.lastWorkflowId = workflowId;
        if (k.schedule.getState().getLimitedActions()) {
            k.schedule = k.schedule.toBuilder().setState(k.schedule.getState().toBuilder()
                    .setRemainingActions(k.schedule.getState().getRemainingActions() - 1)).build();
        }
        return Optional.of(workflowId);
    }

    // ---- the schedule calls ----

    private ServerServiceDefinition scheduleCalls() {
        return ServerServiceDefinition.builder(WorkflowServiceGrpc.SERVICE_NAME)
                .addMethod(WorkflowServiceGrpc.getCreateScheduleMethod(), ServerCalls.asyncUnaryCall(this::create))
                .addMethod(WorkflowServiceGrpc.getDescribeScheduleMethod(), ServerCalls.asyncUnaryCall(this::describe))
                .addMethod(WorkflowServiceGrpc.getListSchedulesMethod(), ServerCalls.asyncUnaryCall(this::list))
                .addMethod(WorkflowServiceGrpc.getDeleteScheduleMethod(), ServerCalls.asyncUnaryCall(this::delete))
                .build();
    }

    private synchronized void create(CreateScheduleRequest r, StreamObserver<CreateScheduleResponse> out) {
        if (schedules.containsKey(r.getScheduleId())) {
            out.onError(Status.ALREADY_EXISTS.withDescription("schedule " + r.getScheduleId() + " exists").asRuntimeException());
            return;
        }
        schedules.put(r.getScheduleId(), new Kept(r.getSchedule(), r.getMemo(), Instant.now()));
        out.onNext(CreateScheduleResponse.newBuilder().setConflictToken(ByteString.copyFromUtf8("1")).build());
        out.onCompleted();
    }

    private synchronized void describe(DescribeScheduleRequest r, StreamObserver<DescribeScheduleResponse> out) {
        Kept k = schedules.get(r.getScheduleId());
        if (k == null) {
            out.onError(Status.NOT_FOUND.withDescription("schedule " + r.getScheduleId() + " not found").asRuntimeException());
            return;
        }
        out.onNext(DescribeScheduleResponse.newBuilder().setSchedule(k.schedule).setMemo(k.memo).setConflictToken(ByteString.copyFromUtf8("1"))
                .setInfo(ScheduleInfo.newBuilder().setActionCount(k.actions).setOverlapSkipped(k.skipped).setCreateTime(timestamp(k.created))
                        .addAllFutureActionTimes(future(k))).build());
        out.onCompleted();
    }

    private synchronized void list(ListSchedulesRequest r, StreamObserver<ListSchedulesResponse> out) {
        ListSchedulesResponse.Builder all = ListSchedulesResponse.newBuilder();
        schedules.forEach((id, k) -> all.addSchedules(ScheduleListEntry.newBuilder().setScheduleId(id).setMemo(k.memo)
                .setInfo(ScheduleListInfo.newBuilder().setSpec(k.schedule.getSpec()).setWorkflowType(k.schedule.getAction().getStartWorkflow()
                        .getWorkflowType()).addAllFutureActionTimes(future(k)))));
        out.onNext(all.build());
        out.onCompleted();
    }

    private synchronized void delete(DeleteScheduleRequest r, StreamObserver<DeleteScheduleResponse> out) {
        if (schedules.remove(r.getScheduleId()) == null) {
            out.onError(Status.NOT_FOUND.withDescription("schedule " + r.getScheduleId() + " not found").asRuntimeException());
            return;
        }
        out.onNext(DeleteScheduleResponse.getDefaultInstance());
        out.onCompleted();
    }

    /** The schedule's next times (up to 3) by its calendars, its end and its remaining actions. */
    private static List<Timestamp> future(Kept k) {
        var state = k.schedule.getState();
        long left = state.getLimitedActions() ? state.getRemainingActions() : 3;
        List<ScheduleCalendarSpec> calendars = k.schedule.getSpec().getStructuredCalendarList().stream().map(ScheduleStandIn::calendar).toList();
        Instant end = k.schedule.getSpec().hasEndTime() ? Instant.ofEpochSecond(k.schedule.getSpec().getEndTime().getSeconds())
                : Instant.now().plus(java.time.Duration.ofDays(5 * 366));
        List<Timestamp> out = new ArrayList<>();
        Instant after = Instant.now();
        for (int i = 0; i < Math.min(left, 3); i++) {
            Optional<Instant> next = CalendarTimes.next(calendars, after, end);
            if (next.isEmpty()) break;
            out.add(timestamp(next.get()));
            after = next.get();
        }
        return out;
    }

    private static ScheduleCalendarSpec calendar(StructuredCalendarSpec s) {
        return ScheduleCalendarSpec.newBuilder().setSeconds(ranges(s.getSecondList())).setMinutes(ranges(s.getMinuteList()))
                .setHour(ranges(s.getHourList())).setDayOfMonth(ranges(s.getDayOfMonthList())).setMonth(ranges(s.getMonthList()))
                .setYear(ranges(s.getYearList())).setDayOfWeek(ranges(s.getDayOfWeekList())).build();
    }

    private static List<ScheduleRange> ranges(List<Range> ranges) {
        return ranges.stream().map(r -> new ScheduleRange(r.getStart(), Math.max(r.getEnd(), r.getStart()), Math.max(r.getStep(), 1))).toList();
    }

    private static Timestamp timestamp(Instant t) { return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build(); }

    // ---- everything else goes to the test server ----

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override public InputStream stream(byte[] value) { return new ByteArrayInputStream(value); }

        @Override public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    /** Passes any call it is asked for to {@code target} as bytes (every call of the workflow service is unary). */
    private static final class PassOn extends HandlerRegistry {
        private final Channel target;

        PassOn(Channel target) { this.target = target; }

        @Override public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
            MethodDescriptor<byte[], byte[]> call = MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(method).setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
            // Made inside the server call's context, the passed-on call keeps its deadline and is cancelled with it.
            return ServerMethodDefinition.create(call, ServerCalls.asyncUnaryCall((request, response) ->
                    ClientCalls.asyncUnaryCall(target.newCall(call, CallOptions.DEFAULT), request, response)));
        }
    }

    @Override public void close() {
        stubs.shutdownNow();
        channel.shutdownNow();
        server.shutdownNow();
        env.close();
    }
}
