package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import io.temporal.worker.Worker;

/**
 * What a Temporal worker needs to run Finch sessions: one Finch (built here with a {@link StepLedger}, from the
 * embedder's builder — the image key, words, limits and hosts), the restoring host's options (roots, file and process
 * hosts, standing grants: images carry no authority), the performer of effects and the store that keeps each effect to
 * once per sequence. {@link #register} installs the workflow and both activities on a worker.
 *
 * <pre>{@code
 * FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(key), SessionOptions.DEFAULT.withWorkspace(dir));
 * Worker worker = factory.newWorker("finch-sessions");
 * finch.register(worker);
 * factory.start();
 * }</pre>
 */
public final class FinchWorker implements AutoCloseable {
    private final Finch finch;
    private final SessionOptions options;
    private final RequestPerformer performer;
    private final PerformedEffects performed;
    private final FinchSessionWorkflowImpl.Limits limits;
    private final ImageStore images;
    /** The schedules whose runs this worker takes; null for none. */
    private final TemporalSchedules schedules;

    private FinchWorker(Finch finch, SessionOptions options, RequestPerformer performer, PerformedEffects performed,
                        FinchSessionWorkflowImpl.Limits limits, ImageStore images, TemporalSchedules schedules) {
        this.finch = finch;
        this.options = options;
        this.performer = performer;
        this.performed = performed;
        this.limits = limits;
        this.images = images;
        this.schedules = schedules;
    }

    /** A worker whose effects are performed by Finch's own words and hosts under {@code options}. */
    public static FinchWorker of(Finch.Builder finch, SessionOptions options) {
        Finch built = finch.continuations(new StepLedger()).build();
        return new FinchWorker(built, options, RequestPerformer.throughFinch(built, options), PerformedEffects.inMemory(),
                FinchSessionWorkflowImpl.Limits.DEFAULT, ImageStore.inline(), null);
    }

    /**
     * A worker whose sessions' images, continue-once claims and performed effects are in {@code store} (a PostgreSQL
     * store every worker of the task queue shares): the workflow history carries image references only, whatever the
     * image's size, and a request is performed once however many workers retry it.
     */
    public static FinchWorker of(Finch.Builder finch, SessionOptions options, dev.finch.store.FinchStore store) {
        java.util.Objects.requireNonNull(store, "store");
        Finch built = finch.continuations(StepLedger.over(store.claims())).build();
        return new FinchWorker(built, options, RequestPerformer.throughFinch(built, options), PerformedEffects.of(store.journal()),
                FinchSessionWorkflowImpl.Limits.DEFAULT, ImageStore.of(store), null);
    }

    /** This worker with effects performed by {@code performer}. */
    public FinchWorker withPerformer(RequestPerformer performer) {
        return new FinchWorker(finch, options, java.util.Objects.requireNonNull(performer, "performer"), performed, limits, images, schedules);
    }

    /** This worker with performed effects recorded in {@code store} (one shared by every worker of the task queue). */
    public FinchWorker withPerformedEffects(PerformedEffects store) {
        return new FinchWorker(finch, options, performer, java.util.Objects.requireNonNull(store, "store"), limits, images, schedules);
    }

    /** This worker running the workflow with {@code limits} (the same on every worker of the task queue). */
    public FinchWorker withLimits(FinchSessionWorkflowImpl.Limits limits) {
        return new FinchWorker(finch, options, performer, performed, java.util.Objects.requireNonNull(limits, "limits"), images, schedules);
    }

    /**
     * This worker keeping session images in {@code store} (one every worker of the task queue reaches), so that the
     * workflow history holds only references ({@link ImageStore}).
     */
    public FinchWorker withImageStore(ImageStore store) {
        return new FinchWorker(finch, options, performer, performed, limits, java.util.Objects.requireNonNull(store, "store"), schedules);
    }

    /**
     * This worker taking the runs of {@code schedules} (Temporal Schedules, {@link TemporalSchedules}): it registers the
     * scheduled-run workflow and its activities, and runs each program in a fresh session of its Finch with the policy's
     * options. Give the Finch the same schedules as its schedule host ({@code Finch.Builder.scheduleHost}), so that the
     * programs it runs schedule there too.
     */
    public FinchWorker withSchedules(TemporalSchedules schedules) {
        return new FinchWorker(finch, options, performer, performed, limits, images, java.util.Objects.requireNonNull(schedules, "schedules"));
    }

    /**
     * Worker options under which a session fails over at once when its worker dies: no sticky task queue
     * ({@code stickyQueueScheduleToStartTimeout} zero, so the worker sends no sticky attributes). Every workflow task of
     * a session then goes to the shared task queue, which every live worker polls, and whichever takes it replays the
     * session's history (activities are not run again: their results are in it). With a sticky queue, a killed worker's
     * next task waits on its sticky queue until the server gives up on it — after the sticky schedule-to-start timeout
     * on a Temporal server, never on the SDK's test server (docs/temporal.md, "On a cluster"). Add options of your own
     * to the builder.
     */
    public static io.temporal.worker.WorkerOptions.Builder workerOptions() {
        return io.temporal.worker.WorkerOptions.newBuilder().setStickyQueueScheduleToStartTimeout(java.time.Duration.ZERO);
    }

    /** The Finch the activities run in. */
    public Finch finch() { return finch; }

    /** Registers the session workflow, the Finch steps and the host activity on {@code worker} (and the scheduled runs, with schedules). */
    public void register(Worker worker) {
        FinchSessionWorkflowImpl.Limits l = limits;
        worker.registerWorkflowImplementationFactory(FinchSessionWorkflow.class, () -> new FinchSessionWorkflowImpl(l));
        worker.registerActivitiesImplementations(new FinchStepsImpl(finch, options, images),
                new FinchHostImpl(finch, options, performer, performed, images));
        if (schedules != null) {
            worker.registerWorkflowImplementationTypes(ScheduledRunWorkflowImpl.class);
            worker.registerActivitiesImplementations(new ScheduledRunsImpl(finch, schedules));
        }
    }

    /** Closes the Finch (a run in progress is cancelled). */
    @Override public void close() { finch.close(); }
}
