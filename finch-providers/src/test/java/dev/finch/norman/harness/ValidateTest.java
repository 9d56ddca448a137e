package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.Askable;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ValidateTest {
    private static final Askable VERDICT;

    static {
        Map<String, Map<String, Askable>> cons = new LinkedHashMap<>();
        cons.put("Buy", Map.of("reason", new Askable.Text(OptionalLong.of(20))));
        cons.put("Sell", Map.of("reason", new Askable.Text(OptionalLong.of(20))));
        cons.put("Hold", Map.of());
        VERDICT = new Askable.Datatype("Verdict", cons);
    }

    private static String invalid(String json, Askable t) {
        Validate.Validated v = Validate.validate(json, t);
        assertThat(v.ok()).as(json).isFalse();
        return v.reason();
    }

    @Test void theReferenceExampleReadsAsAConstructorValue() {
        Validate.Validated v = Validate.validate("{\"tag\":\"Sell\",\"reason\":\"Margins fell.\"}", VERDICT);
        assertThat(v.value()).contains(new VariantValue("Sell", new RecordValue(new Object[] {"Margins fell."})));
        assertThat(Validate.validate(" {\"tag\":\"Hold\"} ", VERDICT).value()).contains(new VariantValue("Hold", Unit.INSTANCE));
    }

    @Test void strictJsonRefusesDuplicatesTrailingTokensAndComments() {
        assertThat(invalid("{\"tag\":\"Sell\",\"reason\":\"a\",\"reason\":\"b\"}", VERDICT)).contains("not JSON").contains("reason");
        assertThat(invalid("{\"tag\":\"Hold\"} {}", VERDICT)).contains("not JSON");
        assertThat(invalid("/* hi */ {\"tag\":\"Hold\"}", VERDICT)).contains("not JSON");
        assertThat(invalid("", VERDICT)).contains("not JSON");
        assertThat(invalid("[".repeat(1000) + "]".repeat(1000), Askable.listOf(Askable.text()))).contains("not JSON");
    }

    @Test void shapesAndBoundsAreChecked() {
        assertThat(invalid("{\"tag\":\"Maybe\"}", VERDICT)).contains("\"Maybe\" is not a constructor of Verdict");
        assertThat(invalid("{\"reason\":\"x\"}", VERDICT)).contains("needs a \"tag\"");
        assertThat(invalid("{\"tag\":\"Hold\",\"why\":1}", VERDICT)).contains("Hold has no fields");
        assertThat(invalid("{\"tag\":\"Sell\",\"reason\":\"" + "x".repeat(21) + "\"}", VERDICT)).isEqualTo("$.reason: text of 21 bytes exceeds its bound of 20");
        assertThat(invalid("{\"tag\":\"Sell\",\"why\":\"x\"}", VERDICT)).contains("missing its field \"reason\"");
        Askable point = new Askable.Record("Point", Map.of("x", new Askable.Num(), "y", new Askable.Num()));
        assertThat(Validate.validate("{\"y\":2,\"x\":1.5}", point).value()).contains(new RecordValue(new Object[] {1.5, 2.0}));
        assertThat(invalid("{\"x\":1,\"y\":2,\"z\":3}", point)).contains("Point has fields [x, y]");
        assertThat(invalid("{\"x\":\"1\",\"y\":2}", point)).isEqualTo("$.x: expected a number, found text");
        assertThat(invalid("1e999", new Askable.Num())).contains("does not fit a Num");
        assertThat(invalid("[1,2,3]", new Askable.ListOf(new Askable.Num(), OptionalLong.of(2)))).contains("exceeds its bound of 2");
        assertThat(invalid("null", new Askable.Bool())).isEqualTo("$: expected true or false, found null");
        assertThat(invalid("\"\"", new Askable.Sym())).contains("symbol");
    }
}
