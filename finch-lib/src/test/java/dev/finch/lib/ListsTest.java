package dev.finch.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.diag.Origin;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.Limits;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The list words' edges that the spec corpus cannot reach cheaply: the merge sort under any comparator, huge counts. */
class ListsTest {
    private static Ctx ctx() { return new Ctx(Limits.DEFAULT, OutputSink.NONE, new CancelToken(), Map.of()); }

    private static ListValue ints(int n, Random r) {
        List<Object> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add((long) r.nextInt(10));
        return ListValue.from(l);
    }

    @Test
    void anInconsistentComparatorNeverFailsAndAnswersAPermutation() {
        // java.util's TimSort throws "Comparison method violates its general contract" for such comparators.
        Random r = new Random(42);
        for (int n = 0; n < 3000; n = n * 2 + 1) {
            ListValue in = ints(n, r);
            Random coin = new Random(n);
            ListValue out = (ListValue) Lists.sorted(ctx(), in, (x, y) -> coin.nextBoolean(), "list-sort-by", Origin.UNKNOWN);
            List<Object> a = new ArrayList<>(in.asJava());
            List<Object> b = new ArrayList<>(out.asJava());
            a.sort(Comparator.comparingLong(x -> (Long) x));
            b.sort(Comparator.comparingLong(x -> (Long) x));
            assertThat(b).isEqualTo(a);
        }
    }

    @Test
    void theSortIsStableAndAgreesWithJava() {
        Random r = new Random(7);
        for (int n = 0; n < 3000; n = n * 3 + 1) {
            List<long[]> pairs = new ArrayList<>();
            for (int i = 0; i < n; i++) pairs.add(new long[] {r.nextInt(5), i});
            ListValue in = ListValue.from(pairs);
            ListValue out = (ListValue) Lists.sorted(ctx(), in, (x, y) -> ((long[]) x)[0] > ((long[]) y)[0], "list-sort-by", Origin.UNKNOWN);
            List<long[]> expected = new ArrayList<>(pairs);
            expected.sort(Comparator.comparingLong(p -> p[0])); // List.sort is stable
            assertThat(out.asJava()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aHugeCountIsRefusedBeforeAllocatingEvenUnderAHugeMemoryLimit() {
        Ctx unlimited = new Ctx(Limits.DEFAULT.withMaxMemoryBytes(Long.MAX_VALUE), OutputSink.NONE, new CancelToken(), Map.of());
        assertThatThrownBy(() -> Lists.listRange(unlimited, 0, Long.MAX_VALUE, Origin.UNKNOWN))
                .isInstanceOfSatisfying(FinchTrap.class, t -> assertThat(t.code()).isEqualTo(VmCode.MEMORY_LIMIT));
        assertThatThrownBy(() -> Lists.listRange(ctx(), Long.MIN_VALUE, Long.MAX_VALUE, Origin.UNKNOWN))
                .isInstanceOfSatisfying(FinchTrap.class, t -> assertThat(t.code()).isEqualTo(VmCode.MEMORY_LIMIT));
        // 2^60 elements of 16 bytes is 2^64 bytes: a multiplication would overflow to 0 and let it through.
        assertThatThrownBy(() -> Lists.listRange(ctx(), 0, 1L << 60, Origin.UNKNOWN))
                .isInstanceOfSatisfying(FinchTrap.class, t -> assertThat(t.code()).isEqualTo(VmCode.MEMORY_LIMIT));
    }

    @Test
    void sortingChargesStepsForItsWork() {
        Ctx small = new Ctx(Limits.DEFAULT.withMaxSteps(1000), OutputSink.NONE, new CancelToken(), Map.of());
        ListValue big = (ListValue) Lists.listRange(ctx(), 0, 100_000, Origin.UNKNOWN);
        assertThatThrownBy(() -> Lists.listSortInt(small, big, Origin.UNKNOWN))
                .isInstanceOfSatisfying(FinchTrap.class, t -> assertThat(t.code()).isEqualTo(VmCode.STEP_LIMIT));
    }
}
