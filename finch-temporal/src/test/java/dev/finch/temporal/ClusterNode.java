package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One process of {@link ClusterFailoverTest}: a worker, or a starter that makes one call and exits. Both connect to a
 * Temporal cluster by address, as docs/temporal.md's "On a cluster" shows (the page quotes this file):
 *
 * <pre>
 * worker  TARGET NAMESPACE WORKSPACE EFFECT-LOG          polls until killed; prints "ready" once polling
 * submit  TARGET NAMESPACE SESSION TEXT                  starts the session and submits TEXT; prints the outcome
 * approve TARGET NAMESPACE SESSION EXECUTION SEQUENCE    approves once; prints the outcome
 * close   TARGET NAMESPACE SESSION                       closes the session; prints its final view's status and output
 * </pre>
 *
 * TLS: with the environment variables {@code FINCH_TEMPORAL_CERT} and {@code FINCH_TEMPORAL_KEY} naming a client
 * certificate and its PKCS#8 key (PEM), the connection is mutual TLS; without them, plaintext (the SDK's test server).
 */
final class ClusterNode {
    private ClusterNode() { }

    public static void main(String[] args) throws Exception {
        String target = args[1];
        String namespace = args[2];
        String certFile = System.getenv("FINCH_TEMPORAL_CERT");
        String keyFile = System.getenv("FINCH_TEMPORAL_KEY");
        WorkflowServiceStubsOptions.Builder connection = WorkflowServiceStubsOptions.newBuilder().setTarget(target);   // "temporal.example.com:7233"
        if (certFile != null && keyFile != null) {
            try (InputStream certificate = Files.newInputStream(Path.of(certFile)); InputStream privateKey = Files.newInputStream(Path.of(keyFile))) {
                connection.setSslContext(SimpleSslContextBuilder.forPKCS8(certificate, privateKey).build());   // mutual TLS
            }
        }
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(connection.build());
        WorkflowClient client = WorkflowClient.newInstance(service, WorkflowClientOptions.newBuilder().setNamespace(namespace).build());
        switch (args[0]) {
            case "worker" -> worker(client, Path.of(args[3]), Path.of(args[4]));
            case "submit" -> submit(client, args[3], args[4]);
            case "approve" -> approve(client, args[3], args[4], Long.parseLong(args[5]));
            case "close" -> close(client, args[3]);
            default -> throw new IllegalArgumentException("no mode " + args[0]);
        }
        service.shutdown();
    }

    /** A worker with the failover options: no sticky task queue, so any live worker takes a session's next task. */
    static void worker(WorkflowClient client, Path workspace, Path effects) throws InterruptedException {
        byte[] key = TemporalFixture.KEY;
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(workspace).withFileHost(new CountingFiles(workspace, effects));
        FinchWorker finch = FinchWorker.of(Finch.builder().imageKey(key), options);
        WorkerFactory factory = WorkerFactory.newInstance(client, WorkerFactoryOptions.newBuilder().setWorkflowCacheSize(0).build());
        Worker worker = factory.newWorker("finch-sessions", FinchWorker.workerOptions().build());   // no sticky task queue
        finch.register(worker);
        factory.start();
        System.out.println("ready");
        Thread.currentThread().join();   // until the process is killed
    }

    static void submit(WorkflowClient client, String sessionId, String text) {
        FinchSessionWorkflow session = client.newWorkflowStub(FinchSessionWorkflow.class,
                WorkflowOptions.newBuilder().setTaskQueue("finch-sessions").setWorkflowId(sessionId).build());
        WorkflowClient.start(session::run, SessionState.fresh());
        session = client.newWorkflowStub(FinchSessionWorkflow.class, sessionId);
        System.out.println(session.submit(text, "turn-1"));
    }

    static void approve(WorkflowClient client, String sessionId, String executionId, long sequence) {
        FinchSessionWorkflow session = client.newWorkflowStub(FinchSessionWorkflow.class, sessionId);
        System.out.println(session.approve(executionId, sequence, "once"));
    }

    static void close(WorkflowClient client, String sessionId) {
        FinchSessionWorkflow session = client.newWorkflowStub(FinchSessionWorkflow.class, sessionId);
        session.close();
        SessionView last = io.temporal.client.WorkflowStub.fromTyped(session).getResult(SessionView.class);
        System.out.println(last.status() + " " + last.output());
    }
}
