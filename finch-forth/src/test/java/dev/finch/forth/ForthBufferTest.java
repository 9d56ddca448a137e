package dev.finch.forth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The buffer is complete exactly when no construct is open at its end. */
class ForthBufferTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "1 2 +", ": sq ( int -- int ) dup * ;", "\"a string\" say", "[ 1 2 ]", "x \\ comment",
            "( done )", "{\"a\":1}", "1 then", "\"abc\nnext", "{ a: 1 }"})
    void complete(String text) {
        assertThat(new ForthBuffer().feed(text).isComplete()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {": sq", ": sq ( int -- int ) dup", "\"unfinished", "s\"abc", "( open", "[ 1 2", "1 if 2",
            "begin 1 while", "3 case 1 of", "{ a: 1", "{\"a\": 1", "{\"a", "map{ 1 2", "[: ( -- ) 1", "list{ 1"})
    void incomplete(String text) {
        assertThat(new ForthBuffer().feed(text).isComplete()).isFalse();
    }

    @Test
    void chunksAccumulateUntilTheProgramBoundary() {
        ForthBuffer b = new ForthBuffer();
        assertThat(b.feed(": sq ( int -- ").isComplete()).isFalse();
        assertThat(b.feed("int ) dup").isComplete()).isFalse();
        assertThat(b.take()).isEmpty();
        assertThat(b.feed(" * ;\n\"sq: ").isComplete()).isFalse();
        assertThat(b.feed("\" say").isComplete()).isTrue();
        String program = b.take().orElseThrow();
        assertThat(program).isEqualTo(": sq ( int -- int ) dup * ;\n\"sq: \" say");
        assertThat(b.text()).isEmpty();
        assertThat(new CoForth().lower(program, "buf", Ir.ENV).ok()).isTrue();
    }
}
