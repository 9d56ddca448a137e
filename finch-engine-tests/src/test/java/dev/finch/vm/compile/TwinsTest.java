package dev.finch.vm.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.checked.Checked.CheckedWord;
import org.junit.jupiter.api.Test;

/** {@link Twins#eligible}: small, plain words that call themselves directly, and no others. */
class TwinsTest {
    static final String FIB = ": fib ( int -- int ) dup 2 < if else dup 1 - fib swap 2 - fib + then ;";

    private static CheckedWord word(String text, String name) { return Passes.word(Passes.module(text), name); }

    @Test void fibIsTwinned() {
        CheckedWord fib = word(FIB, "fib");
        assertThat(ModuleCompiler.Loops.size(fib.body())).as("the size the javadoc quotes").isEqualTo(13);
        assertThat(Twins.eligible(fib)).isTrue();
    }

    @Test void aSelfCallInsideALoopCounts() {
        assertThat(Twins.eligible(word(": f ( int -- int ) begin dup 0 > while 1 - dup 3 < if else f then repeat ;", "f"))).isTrue();
    }

    @Test void aWordThatDoesNotCallItselfIsNot() {
        assertThat(Twins.eligible(word(": sq ( int -- int ) dup * ;", "sq"))).isFalse();
        assertThat(Twins.eligible(word(": sq ( int -- int ) dup * ; : quad ( int -- int ) sq sq ;", "quad"))).isFalse();
    }

    @Test void mutualRecursionIsNotDirect() {
        String text = ": ev ( int -- bool ) dup 0 = if drop true else 1 - od then ; : od ( int -- bool ) dup 0 = if drop false else 1 - ev then ;";
        assertThat(Twins.eligible(word(text, "ev"))).isFalse();
        assertThat(Twins.eligible(word(text, "od"))).isFalse();
    }

    @Test void aClosureLiteralOrExecutionTokenRulesItOut() {
        assertThat(Twins.eligible(word(": f ( int -- int ) dup 0 > if 1 - f [: ( int -- int ) 1 + ;] execute then ;", "f"))).isFalse();
        assertThat(Twins.eligible(word(": g ( int -- int ) 1 + ; : f ( int -- int ) dup 0 > if 1 - f ['] g execute then ;", "f"))).isFalse();
    }

    @Test void theSizeLimitIsInclusive() {
        CheckedWord at = recursiveOfSize(Twins.MAX_NODES);
        CheckedWord over = recursiveOfSize(Twins.MAX_NODES + 1);
        assertThat(ModuleCompiler.Loops.size(at.body())).isEqualTo(Twins.MAX_NODES);
        assertThat(ModuleCompiler.Loops.size(over.body())).isEqualTo(Twins.MAX_NODES + 1);
        assertThat(Twins.eligible(at)).isTrue();
        assertThat(Twins.eligible(over)).isFalse();
    }

    /** {@code down}, self-recursive, padded with {@code 1 +} / {@code 1 -} pairs and a {@code dup drop} to exactly {@code size} nodes. */
    private static CheckedWord recursiveOfSize(int size) {
        // dup 0 > if 1 - down then: 7 nodes (dup, 0, >, if, 1, -, down).
        StringBuilder pad = new StringBuilder();
        int left = size - 7;
        for (; left >= 4; left -= 4) pad.append(" 1 + 1 -");
        if (left == 1) pad.append(" abs");
        else if (left == 2) pad.append(" dup drop");
        else if (left == 3) pad.append(" 0 + abs");
        return word(": down ( int -- int ) dup 0 > if 1 - down" + pad + " then ;", "down");
    }
}
