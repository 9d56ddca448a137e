package dev.finch.frontend.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kit's Hindley–Milner core, on the small type language {@link T}. */
class UnifierTest {
    private final Map<Unifier.Walk, Integer> visits = new EnumMap<>(Unifier.Walk.class);
    private final Unifier<T> hm = new Unifier<>(walk -> depth -> visits.merge(walk, 1, Integer::sum), true);

    private T.Var fresh() { return new T.Var(hm.supply(), hm.level()); }

    @Test
    void unifyingBindsVariablesBothWays() {
        T.Var a = fresh();
        T.Var b = fresh();
        hm.unify(T.fn(a, T.INT), T.fn(T.TEXT, b));
        assertThat(T.show(a)).isEqualTo("(Text)");
        assertThat(T.show(b)).isEqualTo("(Int)");
    }

    @Test
    void aMismatchNamesTheClashingPartsTheRightWayRound() {
        T.Var a = fresh();
        assertThatThrownBy(() -> hm.unify(T.con("List", T.INT), T.con("List", T.con("Pair", a, a))))
                .isInstanceOfSatisfying(Mismatch.class, m -> {
                    assertThat(m.infinite()).isFalse();
                    assertThat(T.show(m.<T>expected())).isEqualTo("(Int)");
                    assertThat(T.show(m.<T>found())).startsWith("(Pair");
                });
        assertThatThrownBy(() -> hm.unify(T.fn(T.INT, T.INT), T.fn(T.INT, T.INT, T.INT))).isInstanceOf(Mismatch.class);
        assertThatThrownBy(() -> hm.unify(T.fn(T.INT), T.INT)).isInstanceOf(Mismatch.class);
    }

    @Test
    void theOccursCheckRefusesATypeThatContainsItself() {
        T.Var a = fresh();
        T list = T.con("List", a);
        assertThatThrownBy(() -> hm.unify(a, list)).isInstanceOfSatisfying(Mismatch.class, m -> {
            assertThat(m.infinite()).isTrue();
            assertThat(m.<T>expected()).isSameAs(a);
            assertThat(m.<T>found()).isSameAs(list);
        });
        assertThat(a.binding()).isNull();
        // Through a chain of variables too.
        T.Var b = fresh();
        T.Var c = fresh();
        hm.unify(b, c);
        assertThatThrownBy(() -> hm.unify(T.fn(b, T.INT), T.fn(T.con("Box", c), T.INT))).isInstanceOfSatisfying(Mismatch.class, m -> assertThat(m.infinite()).isTrue());
    }

    @Test
    void unificationIsIdempotentAndMakesBothSidesEqual() {
        T.Var a = fresh();
        T.Var b = fresh();
        T left = T.fn(T.con("Pair", a, T.INT), a);
        T right = T.fn(T.con("Pair", T.con("List", b), b), T.con("List", T.INT));
        hm.unify(left, right);
        assertThat(T.show(left)).isEqualTo(T.show(right)).isEqualTo("((List (Int)) -> (Pair (List (Int)) (Int)))");
        hm.unify(left, right);
        hm.unify(right, left);
        assertThat(T.show(left)).isEqualTo(T.show(right));
    }

    @Test
    void bindingLowersTheLevelsOfTheVariablesInside() {
        T.Var outer = fresh();
        hm.enter();
        T.Var inner = fresh();
        T.Var innerToo = fresh();
        hm.unify(outer, T.con("List", inner));
        hm.unify(innerToo, outer);
        assertThat(inner.level()).isZero();
        hm.leave();
        // What the outer variable holds is not generalized with the inner level's.
        T.Var local = new T.Var(hm.supply(), 1);
        assertThat(hm.generalize(T.fn(innerToo, inner, local), v -> true).vars()).containsExactly(local);
    }

    @Test
    void generalizationTakesTheVariablesAboveTheLevelInOrderOfAppearance() {
        T.Var outer = fresh();
        hm.enter();
        T.Var x = fresh();
        T.Var y = fresh();
        T type = T.fn(T.con("Pair", y, outer), x, y, x);
        hm.leave();
        Scheme<T> s = hm.generalize(type, v -> true);
        assertThat(s.vars()).containsExactly(x, y);
        assertThat(hm.generalize(type, v -> v != y).vars()).containsExactly(x);
        assertThat(Scheme.mono(type).vars()).isEmpty();
    }

    @Test
    void instancesAreFreshAndIndependent() {
        hm.enter();
        T.Var x = fresh();
        T id = T.fn(x, x);
        hm.leave();
        Scheme<T> s = hm.generalize(id, v -> true);
        T one = hm.instantiate(s, v -> fresh());
        T two = hm.instantiate(s, v -> fresh());
        hm.unify(one, T.fn(T.INT, T.INT));
        hm.unify(two, T.fn(T.TEXT, T.TEXT));
        assertThat(T.show(one)).isEqualTo("((Int) -> (Int))");
        assertThat(T.show(two)).isEqualTo("((Text) -> (Text))");
        assertThat(x.binding()).isNull();
        // A scheme without variables is its body.
        assertThat(hm.instantiate(Scheme.mono(id), v -> fresh())).isSameAs(id);
    }

    @Test
    void anInstanceKeepsTheSchemesSharingAndCostsItsStructure() {
        hm.enter();
        T.Var x = fresh();
        T t = T.con("Pair", x, x);
        for (int i = 0; i < 40; i++) t = T.con("Pair", t, t); // a tree of 2^41 leaves, 41 distinct parts
        hm.leave();
        Scheme<T> s = hm.generalize(T.con("Box", x), v -> true);
        visits.clear();
        T copy = hm.substitute(t, Map.of(x, T.INT));
        assertThat(visits.get(Unifier.Walk.COPY)).isLessThan(100);
        T.Con top = (T.Con) copy;
        assertThat(top.args.get(0)).isSameAs(top.args.get(1));
        assertThat(T.show(hm.instantiate(s, v -> fresh()))).matches("\\(Box \\?\\d+\\)");
    }

    @Test
    void theTrailUndoesBindingsAndLevels() {
        T.Var a = fresh();
        hm.enter();
        T.Var b = fresh();
        int mark = hm.mark();
        hm.unify(a, T.con("List", b));
        hm.lower(b, 0);
        assertThat(a.binding()).isNotNull();
        hm.undo(mark);
        assertThat(a.binding()).isNull();
        assertThat(b.level()).isEqualTo(1);
        hm.leave();
        assertThatThrownBy(() -> new Unifier<T>(w -> d -> { }, false).mark()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyWalkIsMeteredAndAMeterMayRefuse() {
        T.Var a = fresh();
        hm.unify(T.fn(a, T.INT), T.fn(T.con("List", T.TEXT), T.INT));
        assertThat(visits).containsKeys(Unifier.Walk.UNIFY, Unifier.Walk.BIND);
        Set<T> vars = new LinkedHashSet<>();
        hm.freeVariables(T.fn(fresh(), fresh()), vars);
        assertThat(vars).hasSize(2);
        assertThat(visits).containsKey(Unifier.Walk.COLLECT);

        // A meter that refuses past a depth stops a deep unification where it is.
        class TooDeep extends RuntimeException {
            TooDeep() { super(null, null, false, false); }
        }
        Unifier<T> bounded = new Unifier<>(w -> depth -> { if (depth > 50) throw new TooDeep(); }, false);
        T deep = T.INT;
        T deepToo = T.INT;
        for (int i = 0; i < 100_000; i++) {
            deep = T.con("Box", deep);
            deepToo = T.con("Box", deepToo);
        }
        T left = deep;
        T right = deepToo;
        assertThatThrownBy(() -> bounded.unify(left, right)).isInstanceOf(TooDeep.class);
        assertThatThrownBy(() -> bounded.measure(left)).isInstanceOf(TooDeep.class);
    }

    @Test
    void assignBindsWithoutACheckAndRefusesABoundVariable() {
        T.Var a = fresh();
        hm.assign(a, T.INT);
        assertThat(a.prune()).isSameAs(T.INT);
        assertThatThrownBy(() -> hm.assign(a, T.TEXT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void variablesAreNumberedByTheirOwnInference() {
        VarSupply shared = new VarSupply();
        Unifier<T> one = new Unifier<>(shared, w -> d -> { }, false);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) ids.add(new T.Var(one.supply(), 0).id());
        assertThat(ids).containsExactly(1L, 2L, 3L);
        assertThat(shared.issued()).isEqualTo(3);
        assertThat(new T.Var(new Unifier<T>(w -> d -> { }, false).supply(), 0).id()).isEqualTo(1);
    }
}
