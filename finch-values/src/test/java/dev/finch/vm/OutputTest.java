package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The say text of an execution: snapshots share their earlier chunks and join only when read. */
class OutputTest {
    @Test void snapshotsAreImmutableAndJoinOnRead() {
        Output a = Output.EMPTY.plus("ab").plus("");
        Output b = a.plus("cd");
        assertThat(a.length()).isEqualTo(2);
        assertThat(b.length()).isEqualTo(4);
        assertThat(a.toString()).isEqualTo("ab");
        assertThat(b.toString()).isEqualTo("abcd").isSameAs(b.toString());
        assertThat(b.charAt(3)).isEqualTo('d');
        assertThat(b.subSequence(1, 3).toString()).isEqualTo("bc");
        assertThat(b).isEqualTo(Output.of("abcd"));
        assertThat(Output.of("").isEmpty()).isTrue();
    }
}
