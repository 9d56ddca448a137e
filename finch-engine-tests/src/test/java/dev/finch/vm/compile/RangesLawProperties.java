package dev.finch.vm.compile;

import dev.finch.ir.type.Type;
import dev.finch.vm.TypedValue;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The law of {@link Ranges}: an addition or subtraction it lets compile without an overflow check never overflows.
 * Generated words branch on a comparison of their input with a literal and add or subtract literals in each branch,
 * with the literals and inputs at the edges of the int range; the compiled word (its proven arithmetic plain) must
 * leave what the interpreter leaves — the same result or the same {@code E-ARITH-001} — and charge the same steps.
 */
class RangesLawProperties {
    private static final Tiers TIERS = new Tiers();

    @AfterContainer static void close() { TIERS.close(); }

    /** How the branch compares its input x with the literal k. */
    enum Test {
        LESS("dup K <"), GREATER("dup K >"), LITERAL_LESS("K over <"), LITERAL_GREATER("K over >");

        final String text;

        Test(String text) { this.text = text; }
    }

    @Property(tries = 400)
    void arithmeticProvedInRangeNeverOverflows(@ForAll Test test, @ForAll("edges") long k, @ForAll boolean thenAdds, @ForAll("edges") long c1,
                                              @ForAll boolean elseAdds, @ForAll("edges") long c2, @ForAll("offsets") long dx, @ForAll boolean nearK) {
        String text = ": f ( int -- int ) " + test.text.replace("K", Long.toString(k)) + " if " + c1 + (thenAdds ? " +" : " -")
                + " else " + c2 + (elseAdds ? " +" : " -") + " then ; f";
        long x = nearK ? k + dx : dx;
        Tiers.Both both = TIERS.prepare(Passes.module(text, List.of(Type.INT)));
        List<TypedValue> stack = List.of(Tiers.integer(x));
        if (both.agree(stack, Tiers.STEPS).completed()) both.sameSteps(stack);
    }

    @Provide
    Arbitrary<Long> edges() {
        return Arbitraries.oneOf(Arbitraries.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + 2, -2L, -1L, 0L, 1L, 2L,
                Long.MAX_VALUE - 2, Long.MAX_VALUE - 1, Long.MAX_VALUE), Arbitraries.longs(), Arbitraries.longs().between(-10, 10));
    }

    /** An input near the literal compared (wrapping is fine: it is just an input), or anywhere. */
    @Provide
    Arbitrary<Long> offsets() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-3, 3), edges());
    }
}
