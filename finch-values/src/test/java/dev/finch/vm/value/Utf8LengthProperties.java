package dev.finch.vm.value;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The output limit's byte count agrees with encoding, for any text (lone surrogates included). */
class Utf8LengthProperties {
    @Provide Arbitrary<String> texts() {
        return Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(64);
    }

    @Property void countingIsEncoding(@ForAll("texts") String s) {
        assertThat(Sizes.utf8(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }

    @Property void supplementaryCharactersCountFour(@ForAll @net.jqwik.api.constraints.IntRange(min = 0x10000, max = 0x10FFFF) int cp) {
        String s = "a" + new String(Character.toChars(cp)) + "\ud800";
        assertThat(Sizes.utf8(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
}
