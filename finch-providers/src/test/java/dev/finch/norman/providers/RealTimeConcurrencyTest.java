package dev.finch.norman.providers;

import dev.finch.host.ToolHost;

import dev.finch.host.ModelHost;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.finch.norman.harness.WorldRuns;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.ir.checked.Environment;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.norman.harness.HostModel;
import dev.finch.norman.harness.ModelProvider;
import dev.finch.norman.harness.ModelWorld;
import dev.finch.norman.harness.ScriptedModels;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.vm.value.Money;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Workflow, par and best-of with real (non-simulated) bindings: the steps' requests are in flight at the same time,
 * so a workflow takes its longest path in real time too, not the sum of its steps' latencies. Nothing here is timed:
 * each request holds on until as many requests as the test expects are in flight at once (or a minute, a hang guard,
 * passes), so a sequential implementation shows as fewer requests ever in flight together (or as a run past its
 * deadline), on any machine.
 */
class RealTimeConcurrencyTest {
    private static final long LATENCY_MS = 100;
    private static final long PATIENCE_MS = 60_000;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    /** How many requests each request waits to see in flight together before it answers. */
    private volatile int together = 1;
    private final Vm vm = new Vm();

    @AfterEach void close() { vm.close(); }

    /**
     * A real-time provider that answers the number its site names, after LATENCY_MS and once {@link #together}
     * requests have been in flight at the same time (or PATIENCE_MS have passed).
     */
    private final ModelProvider slow = request -> {
        mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            long until = System.nanoTime() + PATIENCE_MS * 1_000_000;
            while (mostInFlight.get() < together && System.nanoTime() < until) Thread.sleep(5);
            Thread.sleep(LATENCY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlight.decrementAndGet();
        }
        String answer = switch (request.site()) { case "one" -> "1"; case "two" -> "2"; case "three" -> "3"; default -> "9"; };
        return new ModelProvider.Reply(answer, 1, "end_turn", LATENCY_MS);
    };

    private static final String GRANTS = """
            (grant gpt (model [in 1] [out 1] [ceiling 10]))
            (define one () (ask gpt Num (list (Message [role User] [content "1?"])) 'one))
            (define two () (ask gpt Num (list (Message [role User] [content "2?"])) 'two))
            (define three () (ask gpt Num (list (Message [role User] [content "3?"])) 'three))
            """;

    private record Ran(Object value, ScriptedModels world) { }

    private Ran run(int together, String expression) {
        this.together = together;
        Norman norman = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = norman.check(GRANTS + expression, "agent.nm");
        NormanTests lowered = norman.lowerTests(p, dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(lowered.diagnostics()).isEmpty();
        Verification v = Verifier.verify(lowered.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        // the host's terms: 1 µ$ a token in and out, at most 10 output tokens an ask (the grant states the same)
        ScriptedModels world = ModelWorld.over(slow).model("gpt", HostModel.perToken(Money.ofMicros(1), Money.ofMicros(1), 10))
                .unlimitedBudget().build().get();
        GrantSet grants = GrantSet.of(List.of(Grant.of("g", "model.ask(gpt)", Scope.TASK).value())).value();
        RunResult r = vm.run("agent", v.module().get(), VmState.EMPTY, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken(),
                HostConfig.NONE.withGrants(grants).with(ModelHost.class, world));
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        return new Ran(((RunResult.Completed) r).state().stack().get(0).value(), world);
    }

    @Test void parSendsBothRequestsAtOnce() {
        Ran t = run(2, "(let* ([p (par (one) (two))]) (+ (. p fst) (. p snd)))");
        assertThat(t.value()).isEqualTo(3.0);
        assertThat(mostInFlight.get()).isEqualTo(2);
        List<ScriptedModels.TraceEntry> trace = t.world().trace();
        assertThat(trace).hasSize(2);
        // the world's clock is the wall clock: the two asks overlap
        assertThat(trace.get(1).start()).isLessThan(trace.get(0).end());
    }

    @Test void aWorkflowTakesItsLongestPathInRealTime() {
        // x and y start together; z reads x, so it starts only when x has ended: never three requests at once.
        Ran t = run(2, "(workflow ([x (one)] [y (two)] [z (+ x (three))]) (+ y z))");
        assertThat(t.value()).isEqualTo(6.0);
        assertThat(mostInFlight.get()).isEqualTo(2);
        List<ScriptedModels.TraceEntry> trace = t.world().trace();
        ScriptedModels.TraceEntry one = trace.stream().filter(e -> e.site().equals("one")).findFirst().orElseThrow();
        ScriptedModels.TraceEntry three = trace.stream().filter(e -> e.site().equals("three")).findFirst().orElseThrow();
        assertThat(three.start()).isGreaterThanOrEqualTo(one.end());
    }

    @Test void bestOfRunsItsAttemptsConcurrently() {
        Ran t = run(3, "(best-of 3 one (lambda (n) (> n 0)))");
        assertThat(t.value()).isEqualTo(1.0);
        assertThat(mostInFlight.get()).isEqualTo(3);
        assertThat(t.world().spent()).isEqualTo(3 * (5 + 1)); // three asks: 5 input tokens and 1 output token each, at 1 µ$
    }

    @Test void budgetsHoldAcrossConcurrentStepsInRealTime() {
        // Each ask reserves its worst case, 5 input tokens and 6 output tokens (a Num is at most 24 bytes) = 11 µ$,
        // and a reservation counts until its ask settles: with one and two in flight (22 µ$), three does not fit 30 µ$.
        Ran t = run(2, "(budget ([cost $0.00003]) (let* ([p (par (one) (catch (par (two) (three)) e (Pair [fst 0] [snd 0])))]) "
                + "(+ (. p fst) (+ (. (. p snd) fst) (. (. p snd) snd)))))");
        // three failed OverBudget without being sent, so the inner par failed and its catch answered zeros
        assertThat(t.value()).isEqualTo(1.0);
        assertThat(mostInFlight.get()).isEqualTo(2);
    }

    @Test void httpCallsOfConcurrentStepsOverlap() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        AtomicInteger serving = new AtomicInteger();
        AtomicInteger mostServing = new AtomicInteger();
        server.createContext("/", x -> {
            mostServing.accumulateAndGet(serving.incrementAndGet(), Math::max);
            try {
                long until = System.nanoTime() + PATIENCE_MS * 1_000_000;
                while (mostServing.get() < 2 && System.nanoTime() < until) Thread.sleep(5);
                Thread.sleep(LATENCY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            serving.decrementAndGet();
            byte[] b = "7".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            try (OutputStream out = x.getResponseBody()) { out.write(b); }
        });
        server.start();
        try {
            String file = """
                    (grant web (http [count Num]))
                    (let* ([p (par (call web count "a") (call web count "b"))]) (+ (. p fst) (. p snd)))
                    """;
            Norman norman = new Norman(SourceLoader.inMemory(Map.of()));
            NormanTests lowered = norman.lowerTests(norman.check(file, "agent.nm"), dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
            Verification v = Verifier.verify(lowered.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
            assertThat(v.diagnostics()).isEmpty();
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            GrantSet grants = GrantSet.of(List.of(Grant.of("g", "tool.call(web,*)", Scope.TASK).value())).value();
            try (Tools tools = Tools.of(Map.of("web", HttpTool.builder(base).get("count", "/count/{0}").timeout(Duration.ofMillis(2 * PATIENCE_MS))
                    .build()))) {
                RunResult r = vm.run("agent", v.module().get(), VmState.EMPTY, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken(),
                        HostConfig.NONE.withGrants(grants).with(ToolHost.class, tools));
                assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
                assertThat(((RunResult.Completed) r).state().stack().get(0).value()).isEqualTo(14.0);
                assertThat(mostServing.get()).isEqualTo(2);
            }
        } finally {
            server.stop(0);
        }
    }
}
