package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The law of {@link Bounded}: a bounded word's check-free body, whose step its caller charges, costs what the
 * interpreter's call of it costs — one step per call, whether the caller is a loop with its fuel in a local, the word's
 * public entry or a chain of bounded words — and fails as the interpreter fails (an overflow inside it).
 */
class BoundedLawProperties {
    private static final Tiers TIERS = new Tiers();

    @AfterContainer static void close() { TIERS.close(); }

    /** Bounded words: sq and mix leaves, step calling both, far calling step through a chain. */
    private static final String WORDS = ": sq ( int -- int ) dup * ; : mix ( int int -- int ) + 1000003 min ;"
            + " : step ( int -- int ) sq 7 mix ; : far ( int -- int ) step 1 mix step ;";

    /** The loop word, calling {@code callee} n times on an accumulator that starts at x. */
    private static String loop(String callee) {
        return " : run ( int int -- int ) :> n 0 begin dup n < while swap " + callee + " swap 1 + repeat drop ;";
    }

    private static CheckedModule module(String text) {
        CheckedModule m = Passes.module(text, List.of(Type.INT, Type.INT));
        Map<String, Bounded.Fact> bounded = Bounded.of(m.words(), w -> true, Passes.LIBRARY);
        assertThat(bounded).containsEntry("sq", new Bounded.Fact(true)).containsEntry("mix", new Bounded.Fact(true))
                .containsEntry("step", new Bounded.Fact(false)).containsEntry("far", new Bounded.Fact(false)).doesNotContainKey("run");
        return m;
    }

    @Property(tries = 120)
    void aLoopCallingBoundedWordsChargesTheInterpretersSteps(@ForAll("callees") String callee, @ForAll("inputs") long x,
                                                             @ForAll @IntRange(min = 0, max = 5000) int n, @ForAll("fractions") double cut) {
        Tiers.Both both = TIERS.prepare(module(WORDS + loop(callee) + " run"));
        List<TypedValue> stack = List.of(Tiers.integer(x), Tiers.integer(n));
        Tiers.Outcome o = both.agree(stack, Tiers.STEPS);
        if (o.completed()) {
            long threshold = both.sameSteps(stack);
            both.agree(stack, Tiers.STEPS.withMaxSteps(Math.max(1, (long) (threshold * cut))));
        }
    }

    @Property(tries = 60)
    void aBoundedWordCalledFromTheTopLevelGoesThroughItsEntry(@ForAll("callees") String callee, @ForAll("inputs") long x) {
        Tiers.Both both = TIERS.prepare(module(WORDS + " drop " + callee));
        List<TypedValue> stack = List.of(Tiers.integer(x), Tiers.integer(0));
        if (both.agree(stack, Tiers.STEPS).completed()) both.sameSteps(stack);
    }

    @Provide
    Arbitrary<String> callees() { return Arbitraries.of("sq", "1 mix", "step", "far", "step far sq"); }

    /** Small inputs, and ones whose square overflows. */
    @Provide
    Arbitrary<Long> inputs() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-2000, 2000), Arbitraries.of(3_037_000_499L, 3_037_000_500L, -3_037_000_500L, Long.MIN_VALUE),
                Arbitraries.longs());
    }

    @Provide
    Arbitrary<Double> fractions() { return Arbitraries.doubles().between(0, 1.2); }
}
