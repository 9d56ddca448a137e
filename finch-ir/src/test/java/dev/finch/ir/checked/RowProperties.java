package dev.finch.ir.checked;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.type.Type;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** {@link Row} behaves as an immutable list under push, pop and prepend, and every snapshot stays as it was. */
class RowProperties {
    private static final Type[] POOL = {Type.Prim.INT, Type.Prim.STRING, Type.Prim.BOOL, new Type.ListT(Type.Prim.INT), new Type.Var("a")};

    @Property(tries = 200)
    void agreesWithACopiedListAndSnapshotsNeverChange(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int steps) {
        Random r = new Random(seed);
        Row row = Row.EMPTY;
        List<Type> model = new ArrayList<>();
        List<Row> snapshots = new ArrayList<>();
        List<List<Type>> expected = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int op = r.nextInt(10);
            if (op < 6 || model.isEmpty()) {
                Type t = POOL[r.nextInt(POOL.length)];
                row = row.push(t);
                model.add(t);
            } else if (op < 9) {
                assertThat(row.top()).isSameAs(model.get(model.size() - 1));
                row = row.pop();
                model.remove(model.size() - 1);
            } else {
                Type t = POOL[r.nextInt(POOL.length)];
                row = row.under(List.of(t));
                model.add(0, t);
            }
            if (r.nextInt(20) == 0) {
                snapshots.add(row);
                expected.add(List.copyOf(model));
            }
        }
        assertThat(row).containsExactlyElementsOf(model);
        assertThat(row.size()).isEqualTo(model.size());
        for (int i = 0; i < snapshots.size(); i++) assertThat(snapshots.get(i)).containsExactlyElementsOf(expected.get(i));
    }

    @Property(tries = 300)
    void aRowBuiltWholeIsTheRowBuiltByPushes(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40_000) int size,
                                            @ForAll @IntRange(min = 0, max = 2_000) int steps) {
        Random r = new Random(seed);
        List<Type> types = new ArrayList<>();
        for (int i = 0; i < size; i++) types.add(POOL[r.nextInt(POOL.length)]);
        Row whole = Row.of(types);
        Row pushed = Row.EMPTY.pushAll(types);
        assertThat(whole).containsExactlyElementsOf(types);
        assertThat(Row.sharedPrefix(whole, pushed)).isEqualTo(size);
        // Both go on the same way under pushes and pops (the trie's shape is the pushed row's).
        for (int i = 0; i < steps; i++) {
            if (r.nextInt(3) > 0 && !types.isEmpty()) {
                whole = whole.pop();
                pushed = pushed.pop();
                types.remove(types.size() - 1);
            } else {
                Type t = POOL[r.nextInt(POOL.length)];
                whole = whole.push(t);
                pushed = pushed.push(t);
                types.add(t);
            }
        }
        assertThat(whole).containsExactlyElementsOf(types);
        assertThat(pushed).containsExactlyElementsOf(types);
        assertThat(Row.sharedPrefix(whole, Row.of(types))).isEqualTo(types.size());
    }

    @Test void aRowBuiltWholeHoldsNoNull() {
        List<Type> withNull = new ArrayList<>(List.of(Type.Prim.INT, Type.Prim.INT));
        withNull.add(null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Row.of(withNull)).isInstanceOf(NullPointerException.class);
    }

    @Property(tries = 200)
    void sharedPrefixIsTheLongestRunOfTheSameObjects(@ForAll long seed, @ForAll @IntRange(min = 0, max = 5000) int base,
                                                     @ForAll @IntRange(min = 0, max = 100) int popped) {
        Random r = new Random(seed);
        Row common = Row.EMPTY;
        for (int i = 0; i < base; i++) common = common.push(POOL[r.nextInt(POOL.length)]);
        Row a = common.drop(Math.min(popped, base));
        Row b = common;
        for (int i = 0; i < r.nextInt(70); i++) a = a.push(new Type.Named("x" + i));
        for (int i = 0; i < r.nextInt(70); i++) b = b.push(new Type.Named("y" + i));
        int expected = 0;
        while (expected < Math.min(a.size(), b.size()) && a.get(expected) == b.get(expected)) expected++;
        assertThat(Row.sharedPrefix(a, b)).isEqualTo(expected);
        assertThat(Row.sharedPrefix(b, a)).isEqualTo(expected);
    }

    @Test void aMappingSharesWorkAcrossRowsAndKeepsUnchangedRows() {
        Row row = Row.EMPTY;
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            row = row.push(i % 2 == 0 ? Type.Prim.INT : new Type.Var("?" + i));
            rows.add(row);
        }
        IdentityHashMap<Type, Integer> calls = new IdentityHashMap<>();
        Row.Mapping m = new Row.Mapping(t -> {
            calls.merge(t, 1, Integer::sum);
            return t instanceof Type.Var ? Type.Prim.UNIT : t;
        });
        for (Row each : rows) {
            Row mapped = m.apply(each);
            assertThat(mapped).hasSize(each.size());
            assertThat(mapped.get(each.size() - 1)).isEqualTo(each.size() % 2 == 1 ? Type.Prim.INT : Type.Prim.UNIT);
        }
        // Mapping every row one by one would apply the function Σ sizes = 5·10^7 times; shared trie nodes are mapped once,
        // so it runs at most a tail (32) per row plus each node once.
        assertThat(calls.values().stream().mapToLong(Integer::longValue).sum()).isLessThan(10_000L * 33 + 10_000);
        Row ints = Row.EMPTY.push(Type.Prim.INT).push(Type.Prim.INT);
        assertThat(m.apply(ints)).isSameAs(ints);
    }

    @Test void aCheckedBlockKeepsARowAndCopiesAnyOtherList() {
        Row row = Row.EMPTY.push(Type.Prim.INT);
        Checked.CheckedBlock b = new Checked.CheckedBlock(List.of(), row, row);
        assertThat(b.in()).isSameAs(row);
        List<Type> plain = new ArrayList<>(List.of(Type.Prim.INT));
        Checked.CheckedBlock c = new Checked.CheckedBlock(List.of(), plain, plain);
        plain.add(Type.Prim.BOOL);
        assertThat(c.in()).containsExactly(Type.Prim.INT);
    }
}
