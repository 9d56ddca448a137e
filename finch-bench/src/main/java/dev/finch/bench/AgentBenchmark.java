package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.agent.AgentOptions;
import dev.finch.agent.AgentProfile;
import dev.finch.agent.ScriptedProvider;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a child agent costs when its provider costs nothing (a script): one submission that spawns a child and awaits
 * it — the child's own session, its provider turn submitting one Co-Forth program through the tool surface, its final
 * message, and the parent's pause and resume at agent-await — and the same with four children at once.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AgentBenchmark {
    private static final String ONE = "\"add\" agent-spawn agent-await \"final-message\" record-get unwrap drop";
    private static final String FOUR = "\"add\" agent-spawn \"add\" agent-spawn \"add\" agent-spawn \"add\" agent-spawn "
            + "agent-await drop agent-await drop agent-await drop agent-await drop";

    private Finch finch;
    private Session session;

    @Setup public void setup() {
        finch = Finch.builder().agents(AgentOptions.of(new AgentProfile("script", "scripted",
                ScriptedProvider.parse(">>> program forth\n2 3 + int-to-string say\n>>> final\n{{output}}\n")))).build();
        session = finch.newSession(SessionOptions.builder().grants(List.of("agent.spawn(max_depth=1,max_children=999999)")).build());
    }

    @TearDown public void tearDown() { finch.close(); }

    private Outcome run(String src) {
        Outcome o = session.awaitTasks(session.submit(Submission.of(src, "bench.fth")));
        if (o.status() != Outcome.Status.COMPLETED) throw new IllegalStateException(o.toString());
        return o;
    }

    @Benchmark public Outcome spawnAndAwaitOneChild() { return run(ONE); }

    @Benchmark public Outcome spawnAndAwaitFourChildren() { return run(FOUR); }
}
