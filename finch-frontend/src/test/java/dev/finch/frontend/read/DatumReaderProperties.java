package dev.finch.frontend.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.limit.CompileBudget;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Round trips through the kit's reader: any datum, printed and read back, is the same datum. */
class DatumReaderProperties {
    @Property(tries = 300)
    void printedDatumsReadBackAsThemselves(@ForAll("datums") List<Mini.D> datums) {
        String text = Mini.print(datums);
        DatumReader.Reading<Mini.D> r = new DatumReader(CompileBudget.standard(), 20).read(Mini.lex(text), "m", Mini.DIALECT);
        assertThat(r.clean()).isTrue();
        assertThat(r.datums()).isEqualTo(datums);
    }

    @Property(tries = 300)
    void aTextCutShortReadsAPrefixOfItsDatums(@ForAll("datums") List<Mini.D> datums, @ForAll("fractions") double cut) {
        String text = Mini.print(datums);
        String prefix = text.substring(0, (int) (text.length() * cut));
        DatumReader.Reading<Mini.D> r = new DatumReader(CompileBudget.standard(), 20).read(Mini.lex(prefix), "m", Mini.DIALECT);
        // Whatever was read before the cut is a prefix of what the whole text holds.
        List<Mini.D> whole = datums;
        for (int i = 0; i < r.datums().size() - 1; i++) assertThat(r.datums().get(i)).isEqualTo(whole.get(i));
    }

    @Provide
    Arbitrary<Double> fractions() { return Arbitraries.doubles().between(0, 1); }

    @Provide
    Arbitrary<List<Mini.D>> datums() { return datum(4).list().ofMaxSize(5); }

    private Arbitrary<Mini.D> datum(int depth) {
        Arbitrary<Mini.D> atom = Arbitraries.strings().withChars("abcxyz019-+*/<>=!?.:").ofMinLength(1).ofMaxLength(6).map(Mini.Atom::new);
        Arbitrary<Mini.D> string = Arbitraries.strings().withChars("ab (]')").ofMaxLength(5).map(s -> new Mini.Atom("\"" + s + "\""));
        if (depth == 0) return Arbitraries.oneOf(atom, string);
        Arbitrary<Mini.D> group = Arbitraries.of("(", "[", "{").flatMap(open -> datum(depth - 1).list().ofMaxSize(4).map(items -> new Mini.Group(open, items)));
        Arbitrary<Mini.D> quote = datum(depth - 1).map(Mini.Quote::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, atom), net.jqwik.api.Tuple.of(1, string), net.jqwik.api.Tuple.of(2, group), net.jqwik.api.Tuple.of(1, quote));
    }
}
