package dev.finch.norman.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.ir.type.TypeSyntax;
import dev.finch.norman.Askable;
import dev.finch.norman.SiteKey;
import dev.finch.norman.providers.AskableSchema;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Show;
import dev.finch.vm.value.VariantValue;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Recursive datatypes and records as askable types (issue 16, item 5): validation, show, schema, key. */
class RecursiveAskableTest {
    /** (datatype Expr [Lit (n Num)] [Add (left Expr) (right Expr)]) */
    private static final Askable EXPR;
    /** (record Plan (goal Text) (steps (List Plan))) */
    private static final Askable PLAN = new Askable.Record("Plan", Map.of("goal", Askable.text(), "steps", Askable.listOf(new Askable.Ref("Plan"))));

    static {
        Map<String, Map<String, Askable>> cons = new LinkedHashMap<>();
        cons.put("Lit", Map.of("n", new Askable.Num()));
        cons.put("Add", Map.of("left", new Askable.Ref("Expr"), "right", new Askable.Ref("Expr")));
        EXPR = new Askable.Datatype("Expr", cons);
    }

    @Test void aRecursiveTypesIrTypeIsARecType() {
        assertThat(EXPR.irType()).isEqualTo(TypeSyntax.parse("rec<Expr,variant{Lit(record{n:float})|Add(record{left:Expr,right:Expr})}>"));
        assertThat(PLAN.irType().toString()).isEqualTo("rec<Plan,record{goal:string,steps:list<Plan>}>");
    }

    @Test void answersOfARecursiveTypeValidateAndShowBackAsTheSameText() {
        String json = "{\"left\":{\"n\":1,\"tag\":\"Lit\"},\"right\":{\"left\":{\"n\":2,\"tag\":\"Lit\"},\"right\":{\"n\":3,\"tag\":\"Lit\"},\"tag\":\"Add\"},\"tag\":\"Add\"}";
        Validate.Validated v = Validate.validate(json, EXPR);
        assertThat(v.ok()).as(v.reason()).isTrue();
        assertThat(Show.show(EXPR.irType(), v.value().get())).isEqualTo(json);
        Validate.Validated p = Validate.validate("{\"goal\":\"a\",\"steps\":[{\"goal\":\"b\",\"steps\":[]}]}", PLAN);
        assertThat(p.value()).contains(new RecordValue(new Object[] {"a", ListValue.of(new RecordValue(new Object[] {"b", ListValue.empty()}))}));
        assertThat(Validate.validate("{\"goal\":\"a\",\"steps\":[{\"goal\":\"b\"}]}", PLAN).reason()).contains("$.steps[0]").contains("steps");
        assertThat(Validate.validate("{\"tag\":\"Lit\",\"n\":1}", EXPR).value()).contains(new VariantValue("Lit", new RecordValue(new Object[] {1.0})));
    }

    @Test void aHostileDeepReplyIsInvalidNotAStackOverflow() {
        StringBuilder deep = new StringBuilder();
        int n = 100_000;
        for (int i = 0; i < n; i++) deep.append("{\"tag\":\"Add\",\"right\":{\"tag\":\"Lit\",\"n\":1},\"left\":");
        deep.append("{\"tag\":\"Lit\",\"n\":1}");
        deep.append("}".repeat(n));
        Validate.Validated v = Validate.validate(deep.toString(), EXPR);
        assertThat(v.ok()).isFalse();
        assertThat(v.reason()).contains("not JSON").containsIgnoringCase("nesting");
    }

    @Test void theSchemaStatesARecursiveTypeOnceUnderDefs() {
        assertThat(AskableSchema.of(PLAN)).isEqualTo("{\"$ref\":\"#/$defs/Plan\",\"$defs\":{\"Plan\":{\"type\":\"object\",\"properties\":{"
                + "\"goal\":{\"type\":\"string\"},\"steps\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/Plan\"}}},"
                + "\"required\":[\"goal\",\"steps\"],\"additionalProperties\":false}}}");
        Askable plans = Askable.listOf(PLAN);
        assertThat(AskableSchema.of(plans)).startsWith("{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/Plan\"},\"$defs\":{\"Plan\":");
    }

    @Test void aKeyOfARecursiveTypeReadsBack() {
        SiteKey k = SiteKey.call(EXPR);
        assertThat(SiteKey.parse(k.spell())).contains(k);
        // a reply to a type whose reference names nothing it is inside is Invalid, never an error
        assertThat(Validate.validate("{}", new Askable.Ref("Nowhere")).reason()).contains("Nowhere");
    }

    @Test void aRecursiveTypeReservesTheCeiling() {
        assertThat(ScriptedModels.maxBytes(EXPR)).isEmpty();
        assertThat(ScriptedModels.maxBytes(PLAN)).isEmpty();
    }
}
