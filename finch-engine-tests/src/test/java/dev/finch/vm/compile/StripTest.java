package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import org.junit.jupiter.api.Test;

/** {@link Strip#plan}: which {@code begin i bound < while … 1 + repeat} loops run in strips, and what it knows of them. */
class StripTest {
    /** The plan of the loop of word {@code name}, defined (with any helpers) in {@code text}. */
    private static Strip.Plan plan(String text, String name) {
        CheckedModule m = Passes.module(text);
        CheckedWord w = Passes.word(m, name);
        return Strip.plan(Passes.methodCompiler(m, w), Passes.loop(w.body()));
    }

    @Test void aLiteralBound() {
        Strip.Plan p = plan(": count ( int -- int ) begin dup 1000 < while 1 + repeat ;", "count");
        assertThat(p).isNotNull();
        assertThat(p.induction()).isEqualTo(new Strip.In(0));
        assertThat(p.bound()).isEqualTo(new Strip.Const(1000));
        assertThat(p.steps()).as("the back-edge alone").isEqualTo(1);
        assertThat(p.increments()).as("the 1 + of the compared value").hasSize(1);
    }

    @Test void aBoundOnTheStackTheBodyLeavesInPlace() {
        Strip.Plan p = plan(": upto ( int int -- int ) begin over over > while 1 + repeat nip ;", "upto");
        assertThat(p).isNotNull();
        assertThat(p.induction()).isEqualTo(new Strip.In(1));
        assertThat(p.bound()).isEqualTo(new Strip.In(0));
    }

    @Test void aBoundInALocalTheLoopNeverStores() {
        Strip.Plan p = plan(": sum ( int -- int ) :> n 0 0 begin dup n < while swap over + swap 1 + repeat drop ;", "sum");
        assertThat(p).isNotNull();
        assertThat(p.bound()).isEqualTo(new Strip.Local("n"));
        assertThat(p.induction()).isEqualTo(new Strip.In(1));
    }

    @Test void aCounterInALocalTheBodyStores() {
        // Lisp's named let: (let loop ((i 0) (t 0)) (if (< i n) (loop (+ i 1) (+ t i)) t)).
        Strip.Plan p = plan(": sum ( int -- int ) :> n 0 0 :> t :> i begin i n < while i 1 + t i + :> t :> i repeat t ;", "sum");
        assertThat(p).isNotNull();
        assertThat(p.induction()).isEqualTo(new Strip.Var("i"));
        assertThat(p.bound()).isEqualTo(new Strip.Local("n"));
        assertThat(p.steps()).isEqualTo(1);
        assertThat(p.increments()).as("the i + 1 of the value the test compared").hasSize(1);
        assertThat(plan(": sum ( int -- int ) drop 0 :> i begin i 10 < while i 1 + :> i repeat i ;", "sum").bound()).isEqualTo(new Strip.Const(10));
    }

    @Test void refusedWhenTheLocalCounterIsNotSteppedByOne() {
        assertThat(plan(": sum ( int -- int ) :> n 0 :> i begin i n < while i 1 + 1 + :> i repeat i ;", "sum")).isNull();
        assertThat(plan(": sum ( int -- int ) :> n 0 :> i begin i n < while i 1 + :> i i 1 + :> i repeat i ;", "sum")).isNull();
        assertThat(plan(": sum ( int -- int ) :> n 0 :> i begin i n < while 5 :> i repeat i ;", "sum")).isNull();
        // The bound a stored local: it may change.
        assertThat(plan(": sum ( int -- int ) :> n 0 :> i begin i n < while i 1 + :> i n 1 + :> n repeat i ;", "sum")).isNull();
    }

    @Test void theIncrementMayBeWrittenOneFirst() {
        assertThat(plan(": count ( int -- int ) begin dup 10 < while 1 swap + repeat ;", "count")).isNotNull();
    }

    @Test void aLeafWordInTheBodyCostsAStepAndMayMakeTheIncrement() {
        Strip.Plan p = plan(": next ( int -- int ) 1 + ; : count ( int -- int ) begin dup 10 < while next repeat ;", "count");
        assertThat(p).isNotNull();
        assertThat(p.steps()).as("the back-edge and the leaf call").isEqualTo(2);
        assertThat(p.increments()).as("the addition is the leaf's, not this method's").isEmpty();
    }

    @Test void refusedWhenTheBoundChanges() {
        assertThat(plan(": upto ( int int -- int ) begin over over > while 1 + swap 1 + swap repeat nip ;", "upto")).isNull();
    }

    @Test void refusedWhenTheLoopStoresTheBound() {
        assertThat(plan(": sum ( int -- int ) :> n 0 begin dup n < while n 1 + :> n 1 + repeat ;", "sum")).isNull();
    }

    @Test void refusedWhenTheBodyCallsAWordThatCanLoop() {
        String text = ": spin ( int -- int ) begin dup 0 > while 1 - repeat ; : count ( int -- int ) begin dup 10 < while spin 1 + repeat ;";
        assertThat(plan(text, "count")).isNull();
    }

    @Test void refusedWhenTheBodyCallsARecursiveWord() {
        String text = ": down ( int -- int ) dup 0 > if 1 - down then ; : count ( int -- int ) begin dup 10 < while down 1 + repeat ;";
        assertThat(plan(text, "count")).isNull();
    }

    @Test void refusedWhenTheBodyCallsAWordThatCallsAnother() {
        // Bounded but not a leaf: its callee's step would be charged inside the strip.
        String text = ": one ( -- int ) 1 ; : next ( int -- int ) one + ; : count ( int -- int ) begin dup 10 < while next repeat ;";
        assertThat(plan(text, "count")).isNull();
    }

    @Test void refusedWhenTheBodyReachesTheContext() {
        assertThat(plan(": count ( int -- int ) begin dup 10 < while \"x\" say 1 + repeat ;", "count")).isNull();
    }

    @Test void refusedWhenTheBodyBranches() {
        assertThat(plan(": count ( int -- int ) begin dup 10 < while dup 5 < if 1 + else 1 + then repeat ;", "count")).isNull();
    }

    @Test void refusedWhenTheStepIsNotOne() {
        assertThat(plan(": count ( int -- int ) begin dup 10 < while 2 + repeat ;", "count")).isNull();
        assertThat(plan(": count ( int -- int ) begin dup 10 < while 1 + 1 + repeat ;", "count")).isNull();
    }

    @Test void refusedWhenTheTestIsNotLessThan() {
        assertThat(plan(": count ( int -- int ) begin dup 10 <= while 1 + repeat ;", "count")).isNull();
        assertThat(plan(": count ( int -- int ) begin dup 0 > while 1 - repeat ;", "count")).isNull();
    }

    @Test void refusedWhenTheTestDoesMoreThanCompare() {
        assertThat(plan(": count ( int -- int ) begin 1 + dup 10 < while repeat ;", "count")).isNull();
    }

    @Test void refusedWhenTheInductionVariableIsNotAnInt() {
        assertThat(plan(": count ( float -- float ) begin dup 10.0 < while 1.0 + repeat ;", "count")).isNull();
    }
}
