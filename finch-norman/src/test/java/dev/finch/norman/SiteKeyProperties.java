package dev.finch.norman;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The law of the key an ask or call site carries: reading back what was spelled gives the same site. */
class SiteKeyProperties {
    @Property(tries = 500)
    void parseOfSpellIsIdentity(@ForAll("keys") SiteKey key) {
        assertThat(SiteKey.parse(key.spell())).contains(key);
    }

    @Test void otherTextIsNoKey() {
        for (String s : new String[] {"", "k", "fork", "{}", "{\"type\":{\"kind\":\"nope\"}}", "[1]", "{\"type\":{\"kind\":\"list\"}}"}) {
            assertThat(SiteKey.parse(s)).as(s).isEmpty();
        }
    }

    @Provide Arbitrary<SiteKey> keys() {
        Arbitrary<Optional<SiteKey.Model>> model = Combinators.combine(
                Arbitraries.strings().alpha().numeric().withChars("-.").ofMinLength(1).ofMaxLength(12).optional(),
                stated(0, SiteKey.Model.MAX_PRICE), stated(0, SiteKey.Model.MAX_PRICE), stated(1, Long.MAX_VALUE), stated(0, Long.MAX_VALUE))
                .as(SiteKey.Model::new).optional();
        return Combinators.combine(askable(3), model).as(SiteKey::new);
    }

    /** A grant field as stated or omitted, over its whole range. */
    private static Arbitrary<OptionalLong> stated(long min, long max) {
        return Arbitraries.longs().between(min, max).optional().map(o -> o.map(OptionalLong::of).orElse(OptionalLong.empty()));
    }

    @Test void aKeyWhoseTermsAreOutOfRangeIsNoKey() {
        // A key is text any program can hand model-ask: a negative price, a fraction, a number past a long, a
        // ceiling of 0 or a negative bound is no key at all, never a default or a wrapped amount.
        String type = "\"type\":{\"kind\":\"text\"}";
        for (String terms : new String[] {"\"in_per_million\":-1", "\"out_per_million\":-5", "\"out_per_million\":1.5",
                "\"out_per_million\":99999999999999999999", "\"in_per_million\":1000000000000000001", "\"think\":-1", "\"in\":3",
                "\"ceiling\":0", "\"ceiling\":-4096", "\"in_per_million\":\"3\"", "\"id\":7", "\"price\":1"}) {
            assertThat(SiteKey.parse("{\"model\":{" + terms + "}," + type + "}")).as(terms).isEmpty();
        }
        assertThat(SiteKey.parse("{\"type\":{\"kind\":\"text\",\"max\":-1}}")).isEmpty();
        assertThat(SiteKey.parse("{\"type\":{\"kind\":\"list\",\"of\":{\"kind\":\"num\"},\"max\":1e3}}")).isEmpty();
        assertThat(SiteKey.parse("{\"model\":{\"in_per_million\":0,\"out_per_million\":1000000000000000000,\"ceiling\":9223372036854775807}," + type + "}"))
                .get().extracting(k -> k.model().orElseThrow().ceiling()).isEqualTo(OptionalLong.of(Long.MAX_VALUE));
        assertThat(SiteKey.parse("{\"model\":{}," + type + "}")).get().extracting(k -> k.model().orElseThrow())
                .isEqualTo(new SiteKey.Model(Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty()));
    }

    /** A grant's price as written and as held agree: micro-dollars a token to a millionth, read back exactly. */
    @Property void aPriceReadsBackAsItIsWritten(@ForAll @net.jqwik.api.constraints.LongRange(min = 0, max = SiteKey.Model.MAX_PRICE) long perMillion) {
        assertThat(SiteKey.Model.price(SiteKey.Model.perToken(perMillion))).hasValue(perMillion);
    }

    private static Arbitrary<OptionalLong> bound() {
        return Arbitraries.longs().between(0, 100_000).optional().map(o -> o.map(OptionalLong::of).orElse(OptionalLong.empty()));
    }

    private static Arbitrary<Askable> askable(int depth) {
        Arbitrary<Askable> leaf = Arbitraries.oneOf(bound().map(Askable.Text::new), Arbitraries.just(new Askable.Num()),
                Arbitraries.just(new Askable.Bool()), Arbitraries.just(new Askable.Sym()));
        if (depth == 0) return leaf;
        Arbitrary<Map<String, Askable>> fields = Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6), askable(depth - 1))
                .ofMaxSize(3).map(LinkedHashMap::new);
        Arbitrary<String> name = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8).map(s -> Character.toUpperCase(s.charAt(0)) + s.substring(1));
        return Arbitraries.oneOf(leaf,
                Combinators.combine(askable(depth - 1), bound()).as(Askable.ListOf::new),
                Combinators.combine(name, fields).as(Askable.Record::new),
                Combinators.combine(name, Arbitraries.maps(name, fields).ofMinSize(1).ofMaxSize(3).map(LinkedHashMap::new)).as(Askable.Datatype::new));
    }
}
