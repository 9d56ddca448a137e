package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The law of {@link Twins}: a twinned word — two copies of its body, each calling the other — is observably the one
 * word: the same result, the same steps, the same depth limit at the same level and the same overflow at the same
 * frame, whichever copy it happens in.
 */
class TwinsLawProperties {
    private static final Tiers TIERS = new Tiers();

    @AfterContainer static void close() { TIERS.close(); }

    private static final String DOWN = ": down ( int -- int ) dup 0 > if 1 - down 1 + then ;";
    private static final String UP = ": up ( int -- int ) dup 0 = if drop BASE else 1 - up 1 + then ;";

    private static CheckedModule twinned(String text, String word) {
        CheckedModule m = Passes.module(text, List.of(Type.INT));
        assertThat(Twins.eligible(Passes.word(m, word))).as("%s is twinned", word).isTrue();
        assertThat(Bounded.of(m.words(), w -> true, Passes.LIBRARY)).as("%s is threaded, not bounded", word).doesNotContainKey(word);
        return m;
    }

    @Property(tries = 30)
    void fibChargesTheInterpretersSteps(@ForAll @IntRange(min = 0, max = 20) int n) {
        Tiers.Both both = TIERS.prepare(twinned(TwinsTest.FIB + " fib", "fib"));
        List<TypedValue> stack = List.of(Tiers.integer(n));
        both.agree(stack, Tiers.STEPS);
        both.sameSteps(stack);
    }

    @Property(tries = 100)
    void theDepthLimitStopsTheSameRecursion(@ForAll @IntRange(min = 0, max = 3000) int n, @ForAll @IntRange(min = 1, max = 3000) int maxDepth) {
        Tiers.Both both = TIERS.prepare(twinned(DOWN + " down", "down"));
        both.agree(List.of(Tiers.integer(n)), Tiers.STEPS.withMaxDepth(maxDepth));
    }

    @Property(tries = 100)
    void anOverflowIsTheSameErrorInEitherCopy(@ForAll @IntRange(min = 0, max = 60) int n, @ForAll @LongRange(min = 0, max = 60) long headroom) {
        // up returns BASE + n: it overflows, n - headroom levels up, exactly when n > headroom.
        Tiers.Both both = TIERS.prepare(twinned(UP.replace("BASE", Long.toString(Long.MAX_VALUE - headroom)) + " up", "up"));
        List<TypedValue> stack = List.of(Tiers.integer(n));
        both.agree(stack, Tiers.STEPS);
        if (n <= headroom) both.sameSteps(stack);
    }
}
