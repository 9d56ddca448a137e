package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.checked.Checked.Node;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Ranges#find}: the additions and subtractions of a literal that a branch's comparison proves in range. */
class RangesTest {
    /** The word {@code f} of {@code text}, and which of its calls of {@code op} (in text order) Ranges marks plain. */
    private static List<Boolean> plain(String text, String op) {
        CheckedWord f = Passes.word(Passes.module(text), "f");
        Set<Node> plain = Collections.newSetFromMap(new IdentityHashMap<>());
        Ranges.find(f.body(), Passes.LIBRARY, plain);
        return Passes.calls(f.body(), op).stream().map(plain::contains).toList();
    }

    @Test void fibsSubtractionsAreProvedInTheElseBranch() {
        assertThat(plain(TwinsTest.FIB.replace("fib", "f"), "-")).containsExactly(true, true);
        assertThat(plain(TwinsTest.FIB.replace("fib", "f"), "+")).as("the sum of two results is not a literal's").containsExactly(false);
    }

    @Test void withoutAComparisonNothingIsProved() {
        assertThat(plain(": f ( int -- int ) 1 + 1 - ;", "+")).containsExactly(false);
        assertThat(plain(": f ( int -- int ) 1 + 1 - ;", "-")).containsExactly(false);
    }

    @Test void eachBranchGetsItsSideOfTheComparison() {
        // then: x < 10, so x + 1 is safe and x - 1 is not; else: x >= 10, so x - 1 is safe and x + 1 is not.
        String text = ": f ( int -- int int ) dup 10 < if dup 1 + swap 1 - else dup 1 + swap 1 - then ;";
        assertThat(plain(text, "+")).containsExactly(true, false);
        assertThat(plain(text, "-")).containsExactly(false, true);
    }

    @Test void aLiteralOnTheLeftBoundsTheRight() {
        // 10 < x (x > 10 written as 10 swap <): then x >= 11, so x - 5 is safe; else x <= 10, so x + 5 is.
        String text = ": f ( int -- int ) dup 10 swap < if 5 - else 5 + then ;";
        assertThat(plain(text, "-")).containsExactly(true);
        assertThat(plain(text, "+")).containsExactly(true);
        String greater = ": f ( int -- int ) dup 10 > if 5 - else 5 + then ;";
        assertThat(plain(greater, "-")).containsExactly(true);
        assertThat(plain(greater, "+")).containsExactly(true);
    }

    @Test void theFactFollowsTheValueThroughShuffles() {
        assertThat(plain(": f ( int -- int ) dup 0 < if else 7 swap 1 - swap drop then ;", "-")).containsExactly(true);
    }

    @Test void theFactIsAboutTheValueComparedNotAnother() {
        assertThat(plain(": f ( int int -- int ) over 0 < if nip else 1 - nip then ;", "-")).containsExactly(false);
    }

    @Test void theBoundMustKeepTheResultInRange() {
        // x >= MIN + 3 allows x - 3 but not x - 4.
        String text = ": f ( int -- int int ) dup -9223372036854775805 < if 0 else dup 3 - swap 4 - then ;";
        assertThat(plain(text, "-")).containsExactly(true, false);
        // x < MAX - 1 (x <= MAX - 2) allows x + 2 but not x + 3; a negative literal turns the question around.
        String up = ": f ( int -- int int int ) dup 9223372036854775806 < if dup 2 + over 3 + rot -3 - else drop 0 0 0 then ;";
        assertThat(plain(up, "+")).containsExactly(true, false);
        assertThat(plain(up, "-")).as("x - -3 is x + 3").containsExactly(false);
    }

    @Test void factsDoNotOutliveTheirBranch() {
        assertThat(plain(": f ( int -- int ) dup 10 < if else then 1 + ;", "+")).containsExactly(false);
    }

    @Test void nothingIsFollowedIntoALoop() {
        assertThat(plain(": f ( int -- int ) dup 10 < if begin dup 0 > while 1 + repeat then ;", "+")).containsExactly(false);
    }

    @Test void aLocalHoldsTheValueStoredInIt() {
        // Lisp's fib: (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))).
        assertThat(plain(": f ( int -- int ) :> n n 2 < if n else n 1 - n 2 - + then ;", "-")).containsExactly(true, true);
        // The else branch stores another value into n: its n is not the one compared.
        assertThat(plain(": f ( int -- int ) :> n n 2 < if n else 0 :> n n 1 - then ;", "-")).containsExactly(false);
        // Stored in one branch only: after the branch, n is not known to be either value (here n >= 2 held before it).
        assertThat(plain(": f ( int -- int ) :> n n 2 < if 0 else n 5 < if -9223372036854775808 :> n then n 1 - then ;", "-"))
                .containsExactly(false);
        assertThat(plain(": f ( int -- int ) :> n n 2 < if 0 else n 5 < if n :> n then n 1 - then ;", "-"))
                .as("both branches leave n the value compared").containsExactly(true);
    }

    @Test void aLoopForgetsTheLocals() {
        assertThat(plain(": f ( int -- int ) :> n n 10 < if 0 else begin n 20 < while -9223372036854775808 :> n repeat n 1 - then ;", "-"))
                .containsExactly(false);
    }

    @Test void twoLiteralsAreLeftToTheAdditionItself() {
        assertThat(plain(": f ( -- int ) 1 2 + ;", "+")).containsExactly(false);
    }
}
