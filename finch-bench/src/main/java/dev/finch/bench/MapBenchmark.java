package dev.finch.bench;

import dev.finch.vm.engine.Vm;
import dev.finch.vm.runtime.Ctx;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * The persistent map (map-set, map-get, map-remove; insertion-ordered): 5·10^3 int keys set, each set again (an update
 * keeps its position), and each read — against a java.util.LinkedHashMap doing
 * the same in place. The cost of the collection library under {@code MapValue}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xss64m", "-Xms2g", "-Xmx2g"})
public class MapBenchmark {
    static final String MAPS = String.join("\n",
            ": fill ( map<int,int> int -- map<int,int> ) begin dup 0 > while 1 - swap over dup map-set swap repeat drop ;",
            ": bump ( map<int,int> int -- map<int,int> ) begin dup 0 > while 1 - swap over 1 map-set swap repeat drop ;",
            ": reads ( map<int,int> int -- int ) dup 0 > if 1 - over over map-get unwrap rot rot reads + else drop drop 0 then ;",
            ": maps ( int -- int ) empty-map<int,int> over fill over bump swap reads ;");

    private Vm vm;
    private MethodHandle maps;
    private Ctx ctx;

    @Setup public void setup() {
        vm = new Vm();
        maps = Kernels.define(vm, MAPS, "maps").handle();
        ctx = Kernels.context();
    }

    @TearDown public void tearDown() { vm.close(); }

    @Benchmark public long finchMapSetGet5e3() throws Throwable { return (long) maps.invokeExact(ctx, 0, 5_000L); }

    @Benchmark public long javaMapSetGet5e3() {
        Map<Long, Long> m = new LinkedHashMap<>();
        for (long i = 5_000; i > 0; i--) m.put(i - 1, i - 1);
        for (long i = 5_000; i > 0; i--) m.put(i - 1, 1L);
        long sum = 0;
        for (long i = 5_000; i > 0; i--) sum += m.get(i - 1);
        return sum;
    }
}
