package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The law of {@link Strip}: a strip-mined loop leaves what the interpreter's loop leaves and charges exactly its
 * steps — it completes within the same step limit and runs out one step below it, so a limit that cuts it off cuts it
 * off at the same iteration, with the same fuel, whether the fuel lasts or runs out mid-strip or across a slice
 * (16384 steps) of the run's pool. Bounds go up to {@code Long.MAX_VALUE}, where {@code i + 1} compiles unchecked.
 */
class StripLawProperties {
    private static final Tiers TIERS = new Tiers();

    @AfterContainer static void close() { TIERS.close(); }

    /** A counted loop in word {@code loop}, run by the main on {@code [start, bound]} (or {@code [bound, start]}). */
    enum Shape {
        LITERAL_BOUND(": count ( int -- int ) begin dup BOUND < while 1 + repeat ; count", "count", false, true),
        STACK_BOUND(": upto ( int int -- int ) begin over over > while 1 + repeat nip ; upto", "upto", true, false),
        LOCAL_BOUND(": sum ( int int -- int int ) :> n 0 swap begin dup n < while swap 3 + swap 1 + repeat ; sum", "sum", false, false),
        LEAF_INCREMENT(": next ( int -- int ) 1 + ; : upto ( int int -- int ) begin over over > while next repeat nip ; upto", "upto", true, false),
        LEAF_WORK(": mix ( int int -- int ) + 1000 min ; : sum ( int int -- int int ) :> n 0 swap begin dup n < while swap 7 mix swap 1 + repeat ; sum",
                "sum", false, false);

        final String text;
        final String loop;
        final boolean boundBelow;
        final boolean literal;

        Shape(String text, String loop, boolean boundBelow, boolean literal) {
            this.text = text;
            this.loop = loop;
            this.boundBelow = boundBelow;
            this.literal = literal;
        }

        CheckedModule module(long bound) {
            return Passes.module(text.replace("BOUND", Long.toString(bound)), literal ? List.of(Type.INT) : List.of(Type.INT, Type.INT));
        }

        List<TypedValue> stack(long start, long bound) {
            if (literal) return List.of(Tiers.integer(start));
            return boundBelow ? List.of(Tiers.integer(bound), Tiers.integer(start)) : List.of(Tiers.integer(start), Tiers.integer(bound));
        }
    }

    @Example
    void everyShapeIsStripMined() {
        for (Shape s : Shape.values()) {
            CheckedModule m = s.module(100);
            var w = Passes.word(m, s.loop);
            assertThat(Strip.plan(Passes.methodCompiler(m, w), Passes.loop(w.body()))).as("%s", s).isNotNull();
        }
    }

    @Property(tries = 100)
    void aStripMinedLoopStopsWhereTheInterpreterStops(@ForAll Shape shape, @ForAll("bounds") long bound, @ForAll("iterations") int iterations,
                                                       @ForAll("fractions") double cut) {
        long start = bound - iterations;
        Assume.that(iterations >= 0 ? start <= bound : start > bound); // the start does not wrap around
        Tiers.Both both = TIERS.prepare(shape.module(bound));
        List<TypedValue> stack = shape.stack(start, bound);
        long threshold = both.sameSteps(stack);
        // And any limit at all: below, at or above what the loop needs, the tiers leave the same thing.
        long limit = Math.max(1, (long) (threshold * cut));
        both.agree(stack, Tiers.STEPS.withMaxSteps(limit));
    }

    @Provide
    Arbitrary<Long> bounds() {
        return Arbitraries.oneOf(Arbitraries.of(Long.MAX_VALUE, Long.MAX_VALUE - 1, 0L, 1L, -1L, Long.MIN_VALUE + 50_000),
                Arbitraries.longs().between(Long.MIN_VALUE + 50_000, Long.MAX_VALUE), Arbitraries.longs().between(-100, 100));
    }

    @Provide
    Arbitrary<Integer> iterations() {
        return Arbitraries.oneOf(Arbitraries.of(-2, -1, 0, 1, 2, 8191, 8192, 16383, 16384, 16385, 32768),
                Arbitraries.integers().between(0, 200), Arbitraries.integers().between(0, 40_000));
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.oneOf(Arbitraries.doubles().between(0, 1.5), Arbitraries.of(0.5, 0.999, 1.0, 1.001));
    }
}
