package dev.finch.vm.value;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** {@link Values#quote} (jackson-core's encoder alone) quotes exactly as Jackson's data binding writes a string. */
class QuoteProperties {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Property void quotesAsTheDataBindingWrites(@ForAll("texts") String s) throws Exception {
        assertThat(Values.quote(s)).isEqualTo(JSON.writeValueAsString(s));
    }

    @Property void quotesControlAndNonAsciiText(@ForAll("tricky") String s) throws Exception {
        assertThat(Values.quote(s)).isEqualTo(JSON.writeValueAsString(s));
    }

    @net.jqwik.api.Provide net.jqwik.api.Arbitrary<String> texts() {
        return net.jqwik.api.Arbitraries.strings().withCharRange('\u0000', '\uffff').ofMaxLength(64);
    }

    @net.jqwik.api.Provide net.jqwik.api.Arbitrary<String> tricky() {
        return net.jqwik.api.Arbitraries.strings().withChars("\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029é😀<>&'").ofMaxLength(40);
    }
}
