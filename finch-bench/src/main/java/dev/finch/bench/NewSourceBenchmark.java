package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a model's turn pays: a one-line program never seen before ({@code x = i; x*2+1}, with {@code i} a counter, so
 * every operation's source text is new and nothing can be cached by text), in a warm engine, through the public API —
 * in a fresh session each time and in one reused session (where the program drops its answer, so the stack does not
 * grow). And a brand-new engine: {@code Finch.builder().build()}, {@code newSession()}, {@code 1 2 +}, close.
 * Sampled so that the median is reported ({@code Mode.SampleTime}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class NewSourceBenchmark {
    private Finch finch;
    private Session reused;
    private long counter;

    @Setup public void setup() { finch = Finch.builder().build(); }

    /** A new reused session every iteration, so that its revision history stays the same size across iterations. */
    @Setup(Level.Iteration) public void session() { reused = finch.newSession(); }

    @TearDown public void tearDown() { finch.close(); }

    @Benchmark public Outcome forthFreshSession() {
        return finch.newSession().submit(Submission.of(++counter + " :> x x 2 * 1 +", "turn.fth"));
    }

    @Benchmark public Outcome forthReusedSession() {
        return reused.submit(Submission.of(++counter + " :> x x 2 * 1 + drop", "turn.fth"));
    }

    @Benchmark public Outcome lispFreshSession() {
        return finch.newSession().submit(Submission.of("(let ((x " + ++counter + ")) (+ (* x 2) 1))", "turn.lisp"));
    }

    @Benchmark public Outcome lispReusedSession() {
        return reused.submit(Submission.of("(let ((x " + ++counter + ")) (drop (+ (* x 2) 1)))", "turn.lisp"));
    }

    /** A brand-new engine and session answering {@code 1 2 +}, closed again (what a per-request embedder pays). */
    @Benchmark public Outcome freshEngine() {
        try (Finch fresh = Finch.builder().build()) {
            return fresh.newSession().submit(Submission.of("1 2 +", "fresh.fth"));
        }
    }
}
