package dev.finch.vm.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 2 at the unit level: equality, hashing, display and show over values that share their parts cost
 * what the distinct parts cost (or are refused), charge a meter for what they touch, and every container knows
 * its logical size exactly.
 */
class MeteredValuesTest {
    /** A meter that counts the steps charged and bounds values at {@code max} bytes. */
    static class Counting implements Meter {
        final long max;
        long steps;

        Counting(long max) { this.max = max; }

        @Override public void charge(long s) { steps += s; }

        @Override public long maxBytes() { return max; }

        @Override public RuntimeException overLimit(String message) { return new IllegalStateException("over: " + message); }
    }

    /** {@code [x x]} doubled {@code n} times from {@code leaf}: 2^n elements in n+1 objects (built off a run: no limit). */
    private static ListValue doubled(int n, long leaf) {
        ListValue x = ListValue.of(leaf, leaf);
        for (int i = 1; i < n; i++) x = ListValue.of(x, x);
        return x;
    }

    private static Type nested(int n) {
        Type t = Type.INT;
        for (int i = 0; i < n; i++) t = new Type.ListT(t);
        return t;
    }

    @Test void equalityOfSeparatelyBuiltSharedStructuresIsLinearInTheirParts() {
        Counting m = new Counting(Long.MAX_VALUE);
        assertThat(Values.equal(doubled(40, 1), doubled(40, 1), m)).isTrue();
        assertThat(Values.equal(doubled(40, 1), doubled(40, 2), m)).isFalse();
        assertThat(m.steps).isLessThan(1_000);
    }

    @Test void hashingCachesPerContainerAndAgreesWithEquality() {
        Counting m = new Counting(Long.MAX_VALUE);
        ListValue a = doubled(40, 1);
        int h = Values.hash(a, m);
        assertThat(Values.hash(doubled(40, 1), m)).isEqualTo(h);
        assertThat(m.steps).isLessThan(1_000);
        assertThat(a.hashCode()).isEqualTo(h);
        // Known hashes that differ decide inequality at once.
        assertThat(Values.hash(doubled(40, 2), m)).isNotEqualTo(h);
    }

    @Test void comparingAndHashingChargeAStepPerEightElements() {
        List<Object> items = new ArrayList<>();
        for (long i = 0; i < 100_000; i++) items.add(i);
        Counting m = new Counting(Long.MAX_VALUE);
        assertThat(Values.equal(ListValue.from(items), ListValue.from(items), m)).isTrue();
        assertThat(m.steps).isBetween(100_000L / 8 - 100, 2 * 100_000L / 8 + 100);
        Counting h = new Counting(Long.MAX_VALUE);
        Values.hash(ListValue.from(items), h);
        assertThat(h.steps).isBetween(100_000L / 8 - 100, 2 * 100_000L / 8 + 100);
    }

    @Test void aMeterThatStopsEndsALongComparisonFromInside() {
        List<Object> items = new ArrayList<>();
        for (long i = 0; i < 1_000_000; i++) items.add(i);
        Meter stopping = new Counting(Long.MAX_VALUE) {
            @Override public void charge(long s) {
                super.charge(s);
                if (steps > 1_000) throw new IllegalStateException("stopped");
            }
        };
        assertThatThrownBy(() -> Values.equal(ListValue.from(items), ListValue.from(items), stopping)).hasMessage("stopped");
    }

    @Test void theDisplayOfTwoToTheFortyElementsIsCutAndCostsItsLimit() {
        // Cut at the display limit: it touched some 65,536 characters' worth of the 2^40 elements, never all of them.
        String d = Values.display(nested(40), doubled(40, 7));
        assertThat(d).startsWith("[".repeat(40) + "7 7] [7 7]").contains("…")
                .hasSizeLessThan(Values.DISPLAY_LIMIT + 200).endsWith("(display cut at 65536 chars: a list of 2 elements)");
        assertThat(Values.display(nested(3), doubled(3, 7))).isEqualTo("[[[7 7] [7 7]] [[7 7] [7 7]]]");
        assertThat(Values.display(Type.STRING, "abcdefghij", 4)).isEqualTo("\"abcd…\" (display cut at 4 chars: a string of 10 characters)");
        assertThat(Values.display(new Type.ListT(Type.INT), ListValue.of(1L, 2L, 3L, 4L), 4)).isEqualTo("[1 2 …] (display cut at 4 chars: a list of 4 elements)");
        // Nesting deeper than the display shows is elided, whatever the limit: the display never recurses deeply.
        assertThat(Values.display(nested(200), nest(200), 1 << 20)).startsWith("[".repeat(65) + "…]").endsWith("(display cut at 1048576 chars: a list of 1 element)");
    }

    private static Object nest(int n) {
        Object v = 1L;
        for (int i = 0; i < n; i++) v = ListValue.of(v);
        return v;
    }

    @Test void logicalSizesCountASharedPartOncePerUseAndTheCurrentRunRefusesTooLarge() {
        assertThat(Sizes.of(doubled(10, 1))).isEqualTo(Sizes.VALUE + (Sizes.SLOT + Sizes.VALUE) * 2 + sum(9));
        assertThat(Sizes.of(doubled(70, 1))).isEqualTo(Long.MAX_VALUE);
        Counting run = new Counting(1 << 20);
        Meter.bind(run);
        try {
            assertThatThrownBy(() -> doubled(30, 1)).hasMessageStartingWith("over: a list of");
            assertThatThrownBy(() -> new RecordValue(new Object[] {"x".repeat(600_000)})).hasMessageStartingWith("over: a record of");
            assertThatThrownBy(() -> MapValue.empty().plus(1L, "x".repeat(600_000))).hasMessageStartingWith("over: a map of");
            assertThatThrownBy(() -> OptionValue.some("x".repeat(600_000))).hasMessageStartingWith("over: an option of");
            assertThat(doubled(10, 1).size()).isEqualTo(2);
        } finally {
            Meter.unbind();
        }
        assertThat(Meter.current()).isSameAs(Meter.NONE);
    }

    /** The size of the list doubled {@code k} times above {@code [1 1]}'s elements, recursively. */
    private static long sum(int k) {
        long inner = Sizes.VALUE + 2 * (Sizes.SLOT + Sizes.VALUE);
        for (int i = 0; i < k; i++) inner = Sizes.VALUE + 2 * (Sizes.SLOT + inner);
        return inner - Sizes.VALUE - (Sizes.SLOT + Sizes.VALUE) * 2;
    }

    @Test void everyListOperationKeepsTheSizeExact() {
        Random r = new Random(11);
        List<Object> pool = List.of(1L, "ab", "x".repeat(50), doubled(5, 3), OptionValue.some("q"), ResultValue.err(2L));
        ListValue l = ListValue.empty();
        for (int step = 0; step < 2000; step++) {
            int n = l.size();
            Object x = pool.get(r.nextInt(pool.size()));
            l = switch (r.nextInt(8)) {
                case 0, 1 -> l.append(x);
                case 2 -> l.prepend(x);
                case 3 -> n == 0 ? l : l.tail();
                case 4 -> n == 0 ? l : l.set(r.nextInt(n), x);
                case 5 -> l.take(r.nextInt(n + 1));
                case 6 -> l.drop(r.nextInt(Math.max(1, n / 4) + 1) > n ? n : r.nextInt(Math.min(n, 3) + 1));
                default -> l.concat(ListValue.of(x, x)).reverse();
            };
            assertThat(l.logicalBytes()).as("step %d", step).isEqualTo(ListValue.from(l.asJava()).logicalBytes());
        }
    }

    @Test void mapSizesAreExactAndRemovingRestoresThem() {
        MapValue m = MapValue.empty();
        for (long i = 0; i < 100; i++) m = m.plus(i, "v" + i);
        long before = m.logicalBytes();
        MapValue more = m.plus(1000L, doubled(4, 1)).plus(5L, "replaced").minus(1000L).plus(5L, "v5");
        assertThat(more.logicalBytes()).isEqualTo(before);
        assertThat(before).isEqualTo(Sizes.VALUE + 100 * Sizes.ENTRY + 100 * Sizes.VALUE + sumStrings());
        assertThat(more).isEqualTo(m);
        assertThat(more.containsKey(99L)).isTrue();
        assertThat(more.containsKey(1000L)).isFalse();
    }

    private static long sumStrings() {
        long s = 0;
        for (long i = 0; i < 100; i++) s += Sizes.string(("v" + i).length());
        return s;
    }

    @Test void showIsChargedAndRefusedOverTheMeterLimitBeforeItExists() {
        Counting small = new Counting(1 << 20);
        assertThatThrownBy(() -> Show.show(nested(40), doubled(40, 1), small)).hasMessageStartingWith("over: show would write more than");
        assertThat(small.steps).isLessThan(200_000);
        Counting m = new Counting(Long.MAX_VALUE);
        assertThat(Show.show(nested(3), doubled(3, 1), m)).isEqualTo("[[[1,1],[1,1]],[[1,1],[1,1]]]");
    }
}
