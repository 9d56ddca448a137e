package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The SDK's in-process test server, one per test class, and workers that start and stop like processes: each
 * {@link Node} has its own Finch (the same image key) and its own worker factory, so stopping one and starting another
 * is a worker restart — the new one knows the session only from the history.
 */
final class TemporalFixture implements AutoCloseable {
    static final byte[] KEY = "finch-temporal tests: a 32-byte-or-longer image key".getBytes(StandardCharsets.UTF_8);
    static final String QUEUE = "finch-sessions";

    final TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder().setUseTimeskipping(false).build());

    WorkflowClient client() { return env.getWorkflowClient(); }

    /** One worker process: a Finch and a worker factory polling {@link #QUEUE}. */
    final class Node implements AutoCloseable {
        final FinchWorker finch;
        final WorkerFactory factory;

        Node(FinchWorker finch, UnaryOperator<Worker> more) {
            this.finch = finch;
            // No workflow cache and no sticky task queue (FinchWorker.workerOptions: a zero sticky schedule-to-start timeout):
            // every workflow task replays the session's history from the start (a stricter test of determinism), and a
            // stopped node leaves no sticky queue behind. A real server moves a dead worker's sticky tasks back to the task
            // queue after that timeout; the SDK's test server never does, so its next task would wait forever.
            WorkflowClient own = WorkflowClient.newInstance(env.getWorkflowServiceStubs(), io.temporal.client.WorkflowClientOptions.newBuilder()
                    .setNamespace(env.getNamespace()).setIdentity("node-" + UUID.randomUUID()).build());
            this.factory = WorkerFactory.newInstance(own, WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build());
            Worker worker = factory.newWorker(QUEUE, FinchWorker.workerOptions().build());
            more.apply(worker);
            factory.start();
        }

        /** Stops polling and waits for the worker to end, then closes its Finch: the process is gone. */
        @Override public void close() {
            factory.shutdownNow();
            factory.awaitTermination(10, TimeUnit.SECONDS);
            finch.close();
        }
    }

    /** A node whose effects run through Finch's own hosts under {@code options}. */
    Node node(SessionOptions options) { return node(FinchWorker.of(Finch.builder().imageKey(KEY), options)); }

    Node node(FinchWorker finch) {
        return new Node(finch, w -> {
            finch.register(w);
            return w;
        });
    }

    /** A new session workflow on {@link #QUEUE}, started from {@code state}. */
    FinchSessionWorkflow start(SessionState state) {
        String id = "session-" + UUID.randomUUID();
        FinchSessionWorkflow stub = client().newWorkflowStub(FinchSessionWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue(QUEUE).setWorkflowId(id).build());
        WorkflowClient.start(stub::run, state);
        // Bound to the workflow id only, so that calls reach the session's current run after it continued as new.
        return client().newWorkflowStub(FinchSessionWorkflow.class, id);
    }

    static String workflowId(FinchSessionWorkflow stub) { return io.temporal.client.WorkflowStub.fromTyped(stub).getExecution().getWorkflowId(); }

    /** A node with the parts of {@code finch} registered by hand, so that a test can wrap an activity. */
    Node node(FinchWorker finch, SessionOptions options, PerformedEffects performed, java.util.function.UnaryOperator<FinchSteps> steps,
              java.util.function.UnaryOperator<FinchHost> host, FinchSessionWorkflowImpl.Limits limits) {
        return new Node(finch, w -> {
            w.registerWorkflowImplementationFactory(FinchSessionWorkflow.class, () -> new FinchSessionWorkflowImpl(limits));
            w.registerActivitiesImplementations(steps.apply(new FinchStepsImpl(finch.finch(), options, ImageStore.inline())),
                    host.apply(new FinchHostImpl(finch.finch(), options, RequestPerformer.throughFinch(finch.finch(), options), performed,
                            ImageStore.inline())));
            return w;
        });
    }

    /** Limits whose retries come after 50 ms, so that a test of a retry stays fast. */
    static FinchSessionWorkflowImpl.Limits quickRetries() {
        io.temporal.common.RetryOptions retry = io.temporal.common.RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(50)).setMaximumAttempts(3).build();
        return new FinchSessionWorkflowImpl.Limits(
                io.temporal.activity.ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).setRetryOptions(retry).build(),
                io.temporal.activity.ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).setRetryOptions(retry).build(),
                FinchSessionWorkflowImpl.Limits.DEFAULT.historyEvents(), FinchSessionWorkflowImpl.Limits.DEFAULT.historyBytes());
    }

    static SessionOptions workspace(Path dir, CountingFiles files) {
        return SessionOptions.DEFAULT.withWorkspace(dir).withFileHost(files);
    }

    @Override public void close() { env.close(); }
}
