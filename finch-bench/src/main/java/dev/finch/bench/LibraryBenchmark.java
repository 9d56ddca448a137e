package dev.finch.bench;

import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.ListValue;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
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
 * The standard library's heavier words inside compiled Finch words, against the same work in handwritten Java on
 * boxed values (Finch lists hold boxed values too): a map and a fold with closures over 10^5 ints, a sort of 10^5
 * shuffled ints, splitting and joining a text of 10^4 words, and 10^4 {@code say} chunks (each a typed output event
 * to the run's sink) against appending them to a builder and handing each to a consumer.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xss64m", "-Xms2g", "-Xmx2g"})
public class LibraryBenchmark {
    static final String SQUARES = ": squares ( int -- int ) 0 swap list-range [: ( int -- int ) dup * ;] list-map "
            + "0 [: ( int int -- int ) + ;] list-fold ;";
    static final String SORTED = ": sorted ( list<int> -- int ) list-sort 0 list-get unwrap ;";
    static final String WORDS = ": words ( string -- int ) \" \" string-split \"-\" string-join string-length ;";
    static final String SAYS = ": says ( int -- int ) dup begin dup 0 > while \"x\" say 1 - repeat drop ;";

    private Vm vm;
    private MethodHandle squares;
    private MethodHandle sorted;
    private MethodHandle words;
    private MethodHandle says;
    private Ctx ctx;
    private ListValue shuffled;
    private List<Long> shuffledJava;
    private String text;

    @Setup public void setup() {
        vm = new Vm();
        squares = Kernels.define(vm, SQUARES, "squares").handle();
        sorted = Kernels.define(vm, SORTED, "sorted").handle();
        words = Kernels.define(vm, WORDS, "words").handle();
        says = Kernels.define(vm, SAYS, "says").handle();
        ctx = Kernels.context();
        List<Long> xs = new ArrayList<>();
        for (long i = 0; i < 100_000; i++) xs.add(i);
        Collections.shuffle(xs, new Random(42));
        shuffledJava = xs;
        shuffled = ListValue.from(xs);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 10_000; i++) b.append(i == 0 ? "" : " ").append("word").append(i % 97);
        text = b.toString();
    }

    @TearDown public void tearDown() { vm.close(); }

    /** A fresh run context each time, so the output does not accumulate across invocations. */
    @Benchmark public long finchSay10e4() throws Throwable { return (long) says.invokeExact(Kernels.context(), 0, 10_000L); }

    @Benchmark public long javaSay10e4() {
        StringBuilder out = new StringBuilder();
        java.util.function.Consumer<String> sink = chunk -> { };
        for (int i = 0; i < 10_000; i++) {
            out.append("x");
            sink.accept("x");
        }
        return out.length();
    }

    @Benchmark public long finchMapFold10e5() throws Throwable { return (long) squares.invokeExact(ctx, 0, 100_000L); }

    @Benchmark public long javaMapFold10e5() {
        List<Long> xs = new ArrayList<>();
        for (long i = 0; i < 100_000; i++) xs.add(i);
        List<Long> squared = new ArrayList<>(xs.size());
        for (Long x : xs) squared.add(x * x);
        long total = 0;
        for (Long x : squared) total += x;
        return total;
    }

    @Benchmark public long finchSort10e5() throws Throwable { return (long) sorted.invokeExact(ctx, 0, (Object) shuffled); }

    @Benchmark public long javaSort10e5() {
        List<Long> copy = new ArrayList<>(shuffledJava);
        copy.sort(null);
        return copy.get(0);
    }

    @Benchmark public long finchSplitJoin10e4() throws Throwable { return (long) words.invokeExact(ctx, 0, (Object) text); }

    @Benchmark public long javaSplitJoin10e4() { return String.join("-", text.split(" ", -1)).length(); }
}
