package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import java.util.List;

/**
 * The compiled tier beside the interpreter, which charges one step per
 * call and per loop back-edge with no pass at all: the reference a pass must agree with, in what a run leaves and in
 * the steps it charges. The VM reports steps only through the step limit, so "the same steps" is checked as the same
 * threshold: the least {@code maxSteps} a run completes within.
 *
 * <p>The compiled tier is {@code AUTO}: every word of the module compiled (where the passes act) and its loop-free
 * top-level program interpreted, so that both tiers charge the one step the interpreter charges for entering the
 * top-level program (compiled top-level code does not: see finch-core's FuelTiersTest) and the thresholds are equal.
 */
final class Tiers implements AutoCloseable {
    private final Vm compiled = new Vm(ModuleCompiler.Tiering.AUTO);
    private final Vm interpreted = new Vm(ModuleCompiler.Tiering.INTERPRET_ALL);

    /** What a run leaves: the stack's values when it completes, else its first diagnostic's code. */
    record Outcome(String code, List<Object> stack) {
        static final String COMPLETED = "completed";

        boolean completed() { return code.equals(COMPLETED); }
    }

    /** One module prepared in both tiers. */
    final class Both {
        final Vm.Program compiled;
        final Vm.Program interpreted;

        Both(CheckedModule m) {
            assertThat(ModuleCompiler.Loops.has(m.main().body())).as("a law's top-level program has no loop (it runs interpreted)").isFalse();
            compiled = Tiers.this.compiled.prepare(m, VmState.EMPTY);
            interpreted = Tiers.this.interpreted.prepare(m, VmState.EMPTY);
        }

        Outcome compiled(List<TypedValue> stack, Limits limits) { return run(Tiers.this.compiled, compiled, stack, limits); }

        Outcome interpreted(List<TypedValue> stack, Limits limits) { return run(Tiers.this.interpreted, interpreted, stack, limits); }

        /** Asserts both tiers leave the same outcome under {@code limits}, and returns it. */
        Outcome agree(List<TypedValue> stack, Limits limits) {
            Outcome reference = interpreted(stack, limits);
            assertThat(compiled(stack, limits)).as("compiled against interpreted, %s, max steps %d, max depth %d", stack,
                    limits.maxSteps(), limits.maxDepth()).isEqualTo(reference);
            return reference;
        }

        /**
         * Asserts the compiled tier charges exactly the steps the interpreter does: the interpreter's threshold T (found
         * by bisection) is the compiled tier's too — it completes within T steps, with the same stack, and runs out at
         * T - 1. Returns T.
         */
        long sameSteps(List<TypedValue> stack) {
            long hi = 1;
            while (!interpreted(stack, STEPS.withMaxSteps(hi)).completed()) {
                hi *= 2;
                assertThat(hi).as("the program ends within 2^40 steps").isLessThan(1L << 40);
            }
            long lo = hi / 2; // runs out at lo (or lo is 0), completes at hi
            while (hi - lo > 1) {
                long mid = (lo + hi) >>> 1;
                if (interpreted(stack, STEPS.withMaxSteps(mid)).completed()) hi = mid;
                else lo = mid;
            }
            long t = hi;
            assertThat(compiled(stack, STEPS.withMaxSteps(t))).as("compiled at the interpreter's threshold %d, %s", t, stack)
                    .isEqualTo(interpreted(stack, STEPS.withMaxSteps(t)));
            if (t > 1) {
                assertThat(compiled(stack, STEPS.withMaxSteps(t - 1)).code()).as("compiled one step below the threshold %d, %s", t, stack)
                        .isEqualTo("E-LIMIT-001");
            }
            return t;
        }
    }

    /** The limits the laws run under: the defaults but for the steps, which each check sets. */
    static final Limits STEPS = Limits.DEFAULT;

    Both prepare(CheckedModule m) { return new Both(m); }

    private static Outcome run(Vm vm, Vm.Program p, List<TypedValue> stack, Limits limits) {
        RunResult r = vm.run("law", p, stack, limits, OutputSink.NONE, new CancelToken(), HostConfig.NONE);
        if (r instanceof RunResult.Completed c) return new Outcome(Outcome.COMPLETED, c.state().stack().stream().map(TypedValue::value).toList());
        if (r instanceof RunResult.Failed f) return new Outcome(f.diagnostics().get(0).code(), List.of());
        if (r instanceof RunResult.Cancelled c) return new Outcome(c.reason().code(), List.of());
        return new Outcome("suspended", List.of());
    }

    /** An int on the stack. */
    static TypedValue integer(long v) { return new TypedValue(dev.finch.ir.type.Type.INT, v); }

    @Override public void close() {
        compiled.close();
        interpreted.close();
    }
}
