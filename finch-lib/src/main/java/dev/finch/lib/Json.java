package dev.finch.lib;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.node.ValueNode;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.engine.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.JsonValues;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.MapValue;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Sized;
import dev.finch.vm.value.Sizes;
import dev.finch.vm.value.Values;
import dev.finch.vm.value.Work;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Managed json, distinct from records and maps: parsed strictly (reliability row 6: duplicate keys, trailing
 * tokens, depth, number length and lone surrogates are refused with an err, never thrown), read through options
 * that never coerce or guess, and built by the {@code json-of-*} words.
 *
 * <p>Numbers are compared by value ({@code 2 = 2.0 = 2e0}). An integer is written as one ({@code 2}). A number written
 * with a fraction or an exponent stays float-like: when it is exactly a float it is held as that float and written
 * as {@code float-to-string} spells it ({@code 2.0}, {@code 1.5}, {@code 1.0E300}, {@code 1.0E-5}); otherwise (more
 * digits than a float keeps, or beyond its range) as the decimal itself, with at least one fraction digit or an
 * exponent ({@code 1.00000000000000000001}, {@code 1E+400}). So {@code json-of-float x} is exactly what
 * {@code json-parse} reads from {@code float-to-string x}, stringifies as that same text, and a whole float reads
 * back as a float in any JSON reader. There is no negative zero ({@code -0.0} is {@code 0.0}).
 *
 * <p>What json-parse and the json-of words make is what JSON can hold: at most {@link JsonValues#MAX_DEPTH} levels deep, no
 * nan or infinity, no lone surrogate. The containers made here remember their nesting depth and their expanded
 * size (a value shared twice counts twice, as writing it out would), so building refuses a value too deep
 * (E-JSON-002) or too large for the run's memory limit (E-LIMIT-005) before allocating it, without walking what it
 * contains; json a host made is walked once, a step a node.
 */
public final class Json {
    private Json() { }

    @Word(name = "json-parse", aka = {"parse-json", "json-read", "json-decode"}, category = Category.JSON,
            doc = "Parse strict JSON; err for malformed text, trailing tokens, a duplicate key, a lone surrogate (raw or escaped), "
                    + "nesting over 512 levels, a number over 1000 characters or beyond 1e±1000, or empty input.")
    @Overload(sig = "string -> result<json,string>")
    public static Object jsonParse(Ctx ctx, String text) { return JsonValues.parse(text, ctx); }


    // ---- reading ----

    @Word(name = "json-get", category = Category.JSON, doc = "An object's member by its exact key, or none (also for a non-object).")
    @Overload(sig = "json string -> option<json>")
    public static Object jsonGet(JsonNode n, String field) {
        JsonNode v = n.isObject() ? n.get(field) : null;
        return v == null ? OptionValue.NONE : OptionValue.some(v);
    }

    @Word(name = "json-index", category = Category.JSON, doc = "An array's element at a zero-based index, or none (out of range, negative, or a non-array).")
    @Overload(sig = "json int -> option<json>")
    public static Object jsonIndex(JsonNode n, long index) {
        if (!n.isArray() || index < 0 || index >= n.size()) return OptionValue.NONE;
        return OptionValue.some(n.get((int) index));
    }

    @Word(name = "json-keys", category = Category.JSON, doc = "An object's keys in their order (empty for a non-object).")
    @Overload(sig = "json -> list<string>")
    public static Object jsonKeys(Ctx ctx, JsonNode n, Origin o) {
        Lists.reserve(ctx, n.size(), "json-keys", o);
        Lists.charge(ctx, n.size());
        List<Object> keys = new ArrayList<>();
        if (n.isObject()) n.fieldNames().forEachRemaining(keys::add);
        return ListValue.from(keys);
    }

    @Word(name = "json-length", category = Category.JSON, doc = "The number of elements of an array or members of an object; none for a string, number, bool or null.")
    @Overload(sig = "json -> option<int>")
    public static Object jsonLength(JsonNode n) {
        return n.isArray() || n.isObject() ? OptionValue.some((long) n.size()) : OptionValue.NONE;
    }

    @Word(name = "json-array", category = Category.JSON, doc = "The elements of an array as a list; none for anything but an array.")
    @Overload(sig = "json -> option<list<json>>")
    public static Object jsonArray(Ctx ctx, JsonNode n, Origin o) {
        if (!n.isArray()) return OptionValue.NONE;
        Lists.reserve(ctx, n.size(), "json-array", o);
        Lists.reserveBytes(ctx, Sizes.plus(Sizes.of(n), (long) n.size() * Sizes.SLOT), "json-array", o);
        Lists.charge(ctx, n.size());
        List<Object> out = new ArrayList<>(n.size());
        for (JsonNode e : n) out.add(e);
        return OptionValue.some(ListValue.from(out));
    }

    @Word(name = "json-as-string", category = Category.JSON, doc = "The string, if the JSON is one; none otherwise (a number is not spelled out).")
    @Overload(sig = "json -> option<string>")
    public static Object jsonAsString(JsonNode n) { return n.isTextual() ? OptionValue.some(n.textValue()) : OptionValue.NONE; }

    @Word(name = "json-as-int", category = Category.JSON,
            doc = "The int, if the JSON is a number with an integral value in the 64-bit range (2, 2.0 and 2e0 all answer 2); none for a fraction, a number out of range or a non-number.")
    @Overload(sig = "json -> option<int>")
    public static Object jsonAsInt(JsonNode n) {
        if (n.isIntegralNumber() && n.canConvertToLong()) return OptionValue.some(n.longValue());
        if (n.isBigDecimal() || n.isDouble() || n.isFloat()) {
            try {
                return OptionValue.some(n.decimalValue().longValueExact());
            } catch (ArithmeticException e) {
                return OptionValue.NONE;
            }
        }
        return OptionValue.NONE;
    }

    @Word(name = "json-as-float", category = Category.JSON,
            doc = "The nearest float, if the JSON is a number (an integer too: 2 answers 2.0); none for a non-number or a number beyond the float range (never inf).")
    @Overload(sig = "json -> option<float>")
    public static Object jsonAsFloat(JsonNode n) {
        if (!n.isNumber()) return OptionValue.NONE;
        double d = n.doubleValue();
        return Double.isInfinite(d) || Double.isNaN(d) ? OptionValue.NONE : OptionValue.some(d);
    }

    @Word(name = "json-as-bool", category = Category.JSON, doc = "The bool, if the JSON is true or false; none otherwise (null is not false).")
    @Overload(sig = "json -> option<bool>")
    public static Object jsonAsBool(JsonNode n) { return n.isBoolean() ? OptionValue.some(n.booleanValue()) : OptionValue.NONE; }

    @Word(name = "json-as-map", category = Category.JSON, doc = "An object as a string-keyed map with its members in order, if the JSON is an object; none otherwise.")
    @Overload(sig = "json -> option<map<string,json>>")
    public static Object jsonAsMap(Ctx ctx, JsonNode n, Origin o) {
        if (!n.isObject()) return OptionValue.NONE;
        long bytes = Sizes.VALUE;
        for (Map.Entry<String, JsonNode> e : n.properties()) bytes = Sizes.plus(bytes, Sizes.entry(e.getKey(), e.getValue()));
        Maps.reserve(ctx, bytes, "json-as-map", o);
        Lists.charge(ctx, 2L * n.size());
        MapValue m = MapValue.empty();
        for (Map.Entry<String, JsonNode> e : n.properties()) m = m.plus(e.getKey(), e.getValue());
        return OptionValue.some(m);
    }

    @Word(name = "json-stringify", category = Category.JSON,
            doc = "Compact JSON text: members in order, no spaces, non-ASCII characters as themselves and control characters escaped; json-parse reads it back equal. "
                    + "E-LIMIT-005 for a text over the memory limit.")
    @Overload(sig = "json -> string")
    public static String jsonStringify(JsonNode n, Origin o) {
        try {
            return Values.jsonText(n);
        } catch (FinchTrap t) {
            throw dev.finch.vm.runtime.Traps.at(t, "json-stringify", o);
        }
    }

    // ---- building ----

    @Word(name = "json-of-string", category = Category.JSON, doc = "A JSON string; stops the run (E-JSON-001) for a string with a lone surrogate, which JSON cannot hold.")
    @Overload(sig = "string -> json")
    public static JsonNode jsonOfString(Ctx ctx, String s, Origin o) {
        ctx.charge(s.length() / 64);
        if (JsonValues.hasLoneSurrogate(s)) throw new FinchTrap(VmCode.JSON_UNREPRESENTABLE, o, "json-of-string: the string has a lone surrogate, which JSON cannot hold");
        return TextNode.valueOf(s);
    }

    @Word(name = "json-of-int", category = Category.JSON, doc = "A JSON integer (every int fits; json-as-int answers it back).")
    @Overload(sig = "int -> json")
    public static JsonNode jsonOfInt(long v) {
        return v == (int) v ? IntNode.valueOf((int) v) : LongNode.valueOf(v);
    }

    @Word(name = "json-of-float", category = Category.JSON,
            doc = "A JSON number written as float-to-string spells it (2.0 stays 2.0; -0.0 becomes 0.0); stops the run (E-JSON-001) for nan or an infinity, which JSON cannot hold.")
    @Overload(sig = "float -> json")
    public static JsonNode jsonOfFloat(double v, Origin o) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new FinchTrap(VmCode.JSON_UNREPRESENTABLE, o, "json-of-float: JSON has no number for " + Values.floatText(v));
        }
        return DoubleNode.valueOf(v + 0.0); // no negative zero: json-parse reads -0.0 as 0.0
    }

    @Word(name = "json-of-bool", category = Category.JSON, doc = "JSON true or false.")
    @Overload(sig = "bool -> json")
    public static JsonNode jsonOfBool(boolean v) { return BooleanNode.valueOf(v); }

    @Word(name = "json-null", category = Category.JSON, doc = "JSON null (json-as-* all answer none for it).")
    @Overload(sig = "-> json")
    public static JsonNode jsonNull() { return NullNode.getInstance(); }

    @Word(name = "json-of-list", category = Category.JSON,
            doc = "A JSON array of the list's elements in order; stops the run if it would nest deeper than 512 levels (E-JSON-002) "
                    + "or exceed the memory limit, counting shared values once per use (E-LIMIT-005).")
    @Overload(sig = "list<json> -> json")
    public static JsonNode jsonOfList(Ctx ctx, ListValue l, Origin o) {
        reserve(ctx, Sizes.plus(JsonValues.NODE_BYTES, l.size() * JsonValues.NODE_BYTES), "json-of-list", o);
        ctx.charge(l.size());
        int depth = 0;
        long bytes = JsonValues.NODE_BYTES;
        for (Object e : l) {
            JsonValues.Shape s = JsonValues.shape(ctx, (JsonNode) e);
            depth = Math.max(depth, s.depth());
            bytes = Sizes.plus(bytes, s.bytes());
        }
        JsonValues.Shape shape = checked(ctx, new JsonValues.Shape(depth + 1, bytes), "json-of-list", o);
        List<JsonNode> children = new ArrayList<>(l.size());
        for (Object e : l) children.add((JsonNode) e);
        return JsonValues.array(children, shape);
    }

    @Word(name = "json-of-map", category = Category.JSON,
            doc = "A JSON object with the map's entries as members in insertion order; stops the run for a key with a lone surrogate (E-JSON-001), "
                    + "nesting over 512 levels (E-JSON-002) or the memory limit (E-LIMIT-005).")
    @Overload(sig = "map<string,json> -> json")
    public static JsonNode jsonOfMap(Ctx ctx, Map<Object, Object> m, Origin o) {
        reserve(ctx, Sizes.plus(JsonValues.NODE_BYTES, m.size() * 2L * JsonValues.NODE_BYTES), "json-of-map", o);
        ctx.charge(m.size());
        int depth = 0;
        long bytes = JsonValues.NODE_BYTES;
        for (Map.Entry<Object, Object> e : m.entrySet()) {
            String key = (String) e.getKey();
            if (JsonValues.hasLoneSurrogate(key)) throw new FinchTrap(VmCode.JSON_UNREPRESENTABLE, o, "json-of-map: a key has a lone surrogate, which JSON cannot hold");
            JsonValues.Shape s = JsonValues.shape(ctx, (JsonNode) e.getValue());
            depth = Math.max(depth, s.depth());
            bytes = Sizes.plus(bytes, Sizes.plus(Sizes.jsonKey(key), s.bytes()));
        }
        JsonValues.Shape shape = checked(ctx, new JsonValues.Shape(depth + 1, bytes), "json-of-map", o);
        Map<String, JsonNode> children = new LinkedHashMap<>(Math.max(4, m.size() * 2));
        for (Map.Entry<Object, Object> e : m.entrySet()) children.put((String) e.getKey(), (JsonNode) e.getValue());
        return JsonValues.object(children, shape);
    }

    private static void reserve(Ctx ctx, long bytes, String word, Origin o) {
        if (bytes > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build json of " + (bytes == Long.MAX_VALUE ? "more than 2^63" : bytes)
                    + " bytes (a shared value counted once per use), over the memory limit");
        }
    }

    private static JsonValues.Shape checked(Ctx ctx, JsonValues.Shape s, String word, Origin o) {
        if (s.depth() > JsonValues.MAX_DEPTH) {
            throw new FinchTrap(VmCode.JSON_TOO_DEEP, o, word + " would nest json " + s.depth() + " levels deep; at most " + JsonValues.MAX_DEPTH);
        }
        reserve(ctx, s.bytes(), word, o);
        return s;
    }
}
