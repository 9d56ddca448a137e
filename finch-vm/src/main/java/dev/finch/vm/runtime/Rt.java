package dev.finch.vm.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.MapValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;

/**
 * Run-time support that generated code calls for the IR's own nodes (option and result branches, literals,
 * records, constants) rather than for words: the words themselves are declared beside their implementations in
 * {@code dev.finch.lib} and {@code dev.finch.host}. Small static methods the JIT inlines.
 */
public final class Rt {
    private Rt() { }

    // ---- options and results (if-some, if-ok, ?) ----

    public static boolean isSome(Object o) { return ((OptionValue) o).isSome(); }

    public static Object optionValue(Object o) { return ((OptionValue) o).value(); }

    public static boolean isOk(Object r) { return ((ResultValue) r).isOk(); }

    public static Object resultValue(Object r) { return ((ResultValue) r).value(); }

    // ---- variants ----

    public static Object variant(String tag, Object payload) { return new VariantValue(tag, payload); }

    public static Object variantGet(Object v, String tag) {
        VariantValue vv = (VariantValue) v;
        return vv.tag().equals(tag) ? OptionValue.some(vv.payload()) : OptionValue.NONE;
    }

    // ---- literals ----

    public static Object emptyList() { return ListValue.empty(); }

    public static Object listOf(Object[] items) { return ListValue.of(items); }

    public static Object emptyMap() { return MapValue.empty(); }

    public static Object mapOf(Object[] keysAndValues) {
        return MapValue.of(keysAndValues);
    }

    public static Object record(Object[] values) { return new RecordValue(values); }

    public static Object recordGet(Object r, int index) { return OptionValue.some(((RecordValue) r).get(index)); }

    public static Object recordSet(Object r, Object value, int index) { return ((RecordValue) r).with(index, value); }

    public static JsonNode parseJsonLiteral(String canonicalText) { return dev.finch.vm.value.JsonValues.parseLiteral(canonicalText); }

    // ---- constants ----

    public static void defineConstant(Ctx ctx, String name, Object value) { ctx.constants.put(name, value); }

    public static Object constant(Ctx ctx, String name) { return ctx.constants.get(name); }

    // ---- boxing helpers ----

    public static Object unit() { return Unit.INSTANCE; }
}
