package dev.finch.temporal;

import dev.finch.Finch;
import dev.finch.SessionOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What one step of a durable session costs on Temporal as the session lives (issue 33): a session workflow on the SDK's
 * test server (in this process) with one worker as a deployment runs it (its workflow cache on; images in a store, the
 * history holding references), {@code N} turns that each define a word calling the one before, then {@code steps} more
 * turns that call the last word, timed one by one: from the client (a workflow update with its step activity and
 * history), and inside the step activity itself (restore the image, run, save: Finch's part). Medians in ms, for each N
 * given. Not a test (timing lives beside the benchmarks, docs/performance.md); run:
 * {@code mvn -B -q -pl finch-temporal test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.finch.temporal.TemporalStepCost -Dexec.args="20 10 500"}.
 */
public final class TemporalStepCost {
    private TemporalStepCost() { }

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int[] sizes = args.length > 1 ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray() : new int[] {10, 500};
        Path ws = Files.createTempDirectory("finch-step-cost");
        SessionOptions options = SessionOptions.DEFAULT.withWorkspace(ws);
        for (int n : sizes) {
            List<Long> activity = Collections.synchronizedList(new ArrayList<>());
            ImageStore images = ImageStore.inMemory();
            Finch finch = Finch.builder().imageKey(TemporalFixture.KEY).build();
            try (TemporalFixture temporal = new TemporalFixture()) {
                io.temporal.worker.WorkerFactory factory = io.temporal.worker.WorkerFactory.newInstance(temporal.client());
                io.temporal.worker.Worker w = factory.newWorker(TemporalFixture.QUEUE);
                w.registerWorkflowImplementationFactory(FinchSessionWorkflow.class, () -> new FinchSessionWorkflowImpl(FinchSessionWorkflowImpl.Limits.DEFAULT));
                w.registerActivitiesImplementations(timed(new FinchStepsImpl(finch, options, images), activity),
                        new FinchHostImpl(finch, options, RequestPerformer.throughFinch(finch, options), PerformedEffects.inMemory(), images));
                factory.start();
                FinchSessionWorkflow session = temporal.start(SessionState.fresh());
                for (int i = 0; i < n; i++) {
                    String text = i == 0 ? ": w0 ( int -- int ) 1 + ;" : ": w" + i + " ( int -- int ) w" + (i - 1) + " 1 + ;";
                    session.submit(text, "turn-" + i);
                }
                activity.clear();
                long[] nanos = new long[steps];
                for (int k = 0; k < steps; k++) {
                    long t0 = System.nanoTime();
                    session.submit(k + " w" + (n - 1) + " drop", "probe-" + k);
                    nanos[k] = System.nanoTime() - t0;
                }
                Arrays.sort(nanos);
                long[] inside = activity.stream().mapToLong(Long::longValue).sorted().toArray();
                System.out.printf("%5d turns: a step takes %8.2f ms from the client, %8.2f ms in the step activity (medians of %d)%n", n,
                        nanos[steps / 2] / 1e6, inside[inside.length / 2] / 1e6, steps);
                factory.shutdownNow();
            }
            finch.close();
        }
        System.exit(0);
    }

    /** {@code steps}, each call's duration recorded. */
    private static FinchSteps timed(FinchSteps steps, List<Long> durations) {
        return (FinchSteps) java.lang.reflect.Proxy.newProxyInstance(FinchSteps.class.getClassLoader(), new Class<?>[] {FinchSteps.class}, (p, m, a) -> {
            long t0 = System.nanoTime();
            try {
                return m.invoke(steps, a);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            } finally {
                durations.add(System.nanoTime() - t0);
            }
        });
    }
}
