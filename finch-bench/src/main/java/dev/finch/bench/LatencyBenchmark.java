package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * From a new source text to its outcome, in a warm JVM, through the public embedding API: parse, lower, verify,
 * tier choice, run, commit. A one-line program, and one that defines a word (which generates a class). Each
 * operation uses a fresh session, so values a program leaves on the stack do not pile up across operations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LatencyBenchmark {
    private Finch finch;

    @Setup public void setup() { finch = Finch.builder().build(); }

    @Benchmark public Outcome oneLineForth() {
        return finch.newSession().submit(Submission.of("\"hi\" 40 2 + int-to-string string-append drop", "bench"));
    }

    @Benchmark public Outcome oneLineLisp() {
        return finch.newSession().submit(Submission.of("(string-append \"hi\" (int-to-string (+ 40 2)))", "bench"));
    }

    @Benchmark public Outcome defineAndCall() {
        return finch.newSession().submit(Submission.of(": sq ( int -- int ) dup * ; 9 sq drop", "bench"));
    }
}
