package dev.finch.bench;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first submission in a fresh JVM — what every command-line run and every serverless start pays: each fork is a
 * new JVM, and its one operation builds a Finch and a session and runs one program (or one direct call). Beside it,
 * the same answer computed by handwritten Java in a fresh JVM, so the figure reads as Finch's own start-up cost.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
public class ColdStartBenchmark {
    @Benchmark public Outcome firstForthSubmission() {
        return Finch.create().newSession().submit(Submission.of("1 2 +", "cold.fth"));
    }

    @Benchmark public Outcome firstLispSubmission() {
        return Finch.create().newSession().submit(Submission.of("(+ 1 2)", "cold.lisp"));
    }

    @Benchmark public Outcome firstCall() {
        return Finch.create().newSession().call("+", Value.of(1), Value.of(2));
    }

    /** Handwritten Java: the answer boxed as the outcome's value would be. */
    @Benchmark public Object javaBaseline() {
        return Long.valueOf(Long.parseLong("1") + Long.parseLong("2"));
    }
}
