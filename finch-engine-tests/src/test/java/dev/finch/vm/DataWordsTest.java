package dev.finch.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.finch.ir.type.TypeSyntax;
import dev.finch.ir.vocab.WordSpec;
import dev.finch.vm.word.DataWord;
import dev.finch.vm.word.Library;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Words declared as data ({@link Library#withWords}): added or replaced by name, checked like a host's annotated words. */
class DataWordsTest {
    private static DataWord word(String name, String sig, String id) {
        return new DataWord(name, "doc of " + name, TypeSyntax.parseSignature(sig), id, (inputs, watch) -> inputs[0]);
    }

    @Test
    void aDataWordIsAHostWordOfTheVocabulary() {
        Library l = Library.core().withWords(List.of(word("mcp.s.echo", "string -> string ! {mcp.call(s,echo)}", "mcp.s.echo#1")));
        WordSpec w = l.vocabulary().word("mcp.s.echo").orElseThrow();
        assertThat(w.origin()).isEqualTo(WordSpec.Provenance.HOST);
        assertThat(w.doc()).isEqualTo("doc of mcp.s.echo");
        assertThat(l.impl("mcp.s.echo#1").host()).isTrue();
        assertThat(l.vocabulary().fingerprint()).isNotEqualTo(Library.core().vocabulary().fingerprint());
    }

    @Test
    void replacingAWordKeepsTheEarlierOverloadImplemented() {
        Library one = Library.core().withWords(List.of(word("mcp.s.t", "string -> string ! {mcp.call(s,t)}", "mcp.s.t#a")));
        Library two = one.withWords(List.of(word("mcp.s.t", "int -> int ! {mcp.call(s,t)}", "mcp.s.t#b")));
        assertThat(two.vocabulary().word("mcp.s.t").orElseThrow().overloads()).extracting(o -> o.id()).containsExactly("mcp.s.t#b");
        assertThat(two.find("mcp.s.t#a")).as("a definition verified against the old binding still calls it").isPresent();
        // The same binding again (a re-listed tool, perhaps with a new description) replaces itself.
        assertThat(two.withWords(List.of(word("mcp.s.t", "int -> int ! {mcp.call(s,t)}", "mcp.s.t#b"))).vocabulary().word("mcp.s.t")).isPresent();
    }

    @Test
    void refusesWhatAHostWordMayNotBe() {
        assertThatThrownBy(() -> Library.core().withWords(List.of(word("dup", "int -> int", "x1")))).hasMessageContaining("Finch's own");
        assertThatThrownBy(() -> Library.core().withWords(List.of(word("w", "int -> int ! {mcp.call(a,b),mcp.call(a,c)}", "x2"))))
                .hasMessageContaining("at most one capability");
        assertThatThrownBy(() -> Library.core().withWords(List.of(word("w", "int -> int ! {bogus.cap}", "x3")))).hasMessageContaining("not a capability");
        assertThatThrownBy(() -> Library.core().withWords(List.of(word("w", "int -> int", "x4"), word("v", "int -> int", "x4"))))
                .hasMessageContaining("given twice");
        assertThatThrownBy(() -> Library.core().withWords(List.of(word("w", "int -> int", "dup")))).hasMessageContaining("taken");
    }
}
