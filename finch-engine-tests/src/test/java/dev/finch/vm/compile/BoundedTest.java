package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedModule;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** {@link Bounded#of}: the least fixed point over the call graph of the words that can neither loop nor recurse. */
class BoundedTest {
    private static Map<String, Bounded.Fact> bounded(String text, Predicate<String> compiled) {
        CheckedModule m = Passes.module(text);
        return Bounded.of(m.words(), compiled, Passes.LIBRARY);
    }

    private static Map<String, Bounded.Fact> bounded(String text) { return bounded(text, w -> true); }

    private static final Bounded.Fact LEAF = new Bounded.Fact(true);
    private static final Bounded.Fact CALLER = new Bounded.Fact(false);

    @Test void straightLineWordsAreBoundedAndThoseCallingNoWordAreLeaves() {
        Map<String, Bounded.Fact> b = bounded(": sq ( int -- int ) dup * ; : quad ( int -- int ) sq sq ; : max3 ( int int int -- int ) max max ;");
        assertThat(b).containsExactlyInAnyOrderEntriesOf(Map.of("sq", LEAF, "quad", CALLER, "max3", LEAF));
    }

    @Test void branchesAreBounded() {
        assertThat(bounded(": sign ( int -- int ) dup 0 < if drop -1 else 0 > if 1 else 0 then then ;")).containsEntry("sign", LEAF);
    }

    @Test void aLoopIsNotBoundedNorIsAnyCallerOfIt() {
        Map<String, Bounded.Fact> b = bounded(": spin ( int -- int ) begin dup 0 > while 1 - repeat ; : twice ( int -- int ) spin spin ;"
                + " : until0 ( int -- int ) begin 1 - dup 0 <= until ;");
        assertThat(b).isEmpty();
    }

    @Test void directRecursionIsNotBoundedNorIsAnyCallerOfIt() {
        Map<String, Bounded.Fact> b = bounded(": down ( int -- int ) dup 0 > if 1 - down then ; : start ( -- int ) 10 down ; : leaf ( -- int ) 1 ;");
        assertThat(b.keySet()).containsExactly("leaf");
    }

    @Test void mutualRecursionIsNotBounded() {
        Map<String, Bounded.Fact> b = bounded(": ev ( int -- bool ) dup 0 = if drop true else 1 - od then ;"
                + " : od ( int -- bool ) dup 0 = if drop false else 1 - ev then ; : parity ( int -- bool ) ev ;");
        assertThat(b).isEmpty();
    }

    @Test void aWordThatIsNotCompiledIsNotBoundedNorIsAnyCallerOfIt() {
        String text = ": sq ( int -- int ) dup * ; : quad ( int -- int ) sq sq ; : inc ( int -- int ) 1 + ;";
        assertThat(bounded(text, w -> !w.equals("sq")).keySet()).containsExactly("inc");
        assertThat(bounded(text, w -> !w.equals("quad")).keySet()).containsExactlyInAnyOrder("sq", "inc");
    }

    @Test void aBuiltinThatTakesTheContextIsNotPure() {
        assertThat(bounded(": shout ( string -- ) say ; : hi ( -- ) \"hi\" shout ;")).isEmpty();
    }

    @Test void closuresAndExecutionTokensAreNotFollowed() {
        assertThat(bounded(": run ( int -- int ) [: ( int -- int ) 1 + ;] execute ;")).isEmpty();
        assertThat(bounded(": inc ( int -- int ) 1 + ; : run ( int -- int ) ['] inc execute ;").keySet()).containsExactly("inc");
    }

    @Test void aConstantIsNotFollowed() {
        assertThat(bounded("7 constant seven : add7 ( int -- int ) seven + ; : add1 ( int -- int ) 1 + ;").keySet()).containsExactly("add1");
    }

    @Test void aWordThatYieldsIsNotBounded() {
        assertThat(bounded(": tick ( int -- yields<int,unit> ) yield ;")).isEmpty();
    }

    @Test void theFixedPointReachesTheEndOfALongChainInAnyOrder() {
        // Each word calls the one defined before it: whatever order the map iterates in, all are proved.
        StringBuilder text = new StringBuilder(": w0 ( int -- int ) 1 + ;");
        for (int i = 1; i < 30; i++) text.append(" : w").append(i).append(" ( int -- int ) w").append(i - 1).append(" ;");
        Map<String, Bounded.Fact> b = bounded(text.toString());
        assertThat(b).hasSize(30).containsEntry("w0", LEAF).containsEntry("w29", CALLER);
        assertThat(Set.copyOf(b.values())).containsExactlyInAnyOrder(LEAF, CALLER);
    }
}
