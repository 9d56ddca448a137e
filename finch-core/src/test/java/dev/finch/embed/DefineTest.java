package dev.finch.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.vm.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Session.define: a host's typed constant, read by name in every language, kept in images. */
class DefineTest {
    private static final byte[] KEY = "finch tests: a 32-byte-or-longer image key".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    @Test void aDefinedConstantIsReadInEveryLanguageAndReplacedByAValueOfItsType() {
        Session s = Finch.create().newSession();
        long r0 = s.vmRevision();
        assertThat(s.define("limit", Value.of(3))).isEqualTo(r0 + 1);
        assertThat(s.submit(Submission.of("(* limit 10)", "a.lisp")).values()).containsExactly(Value.of(30));
        assertThat(s.submit(Submission.of("drop limit 1 +", "b.fth")).values()).containsExactly(Value.of(4));
        s.define("limit", Value.of(5));
        assertThat(s.submit(Submission.of("drop limit", "c.fth")).values()).containsExactly(Value.of(5));
        s.define("names", Value.list("string", List.of(Value.of("a"), Value.of("b"))));
        assertThat(s.submit(Submission.of("(list-length names)", "d.lisp")).values()).endsWith(Value.of(2));
    }

    @Test void misuseIsRefused() {
        Session s = Finch.create().newSession();
        s.define("limit", Value.of(3));
        assertThatThrownBy(() -> s.define("limit", Value.of("three"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot become");
        assertThatThrownBy(() -> s.define("dup", Value.of(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names a word");
        assertThatThrownBy(() -> s.define("two words", Value.of(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.define("(x", Value.of(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.define(null, Value.of(1))).isInstanceOf(IllegalArgumentException.class);
        s.submit(Submission.of(": sq ( int -- int ) dup * ;", "w.fth"));
        assertThatThrownBy(() -> s.define("sq", Value.of(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test void aDefinedConstantIsSavedWithTheSession() {
        Session s = Finch.builder().imageKey(KEY).build().newSession();
        s.define("greeting", Value.of("hi"));
        Outcome paused = s.submit(Submission.of("unit yield greeting", "p.fth"));
        Session restored = Finch.builder().imageKey(KEY).build().restore(s.save(paused.executionId()));
        assertThat(restored.resume(paused.executionId()).values()).containsExactly(Value.of("hi"));
    }
}
