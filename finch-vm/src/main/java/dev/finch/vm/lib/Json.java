package dev.finch.vm.lib;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Values;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Managed json, distinct from records and maps: parsed strictly (reliability row 6: duplicate keys, trailing
 * tokens, depth, number length and lone surrogates are refused with an err, never thrown), read through options
 * that never coerce or guess.
 */
public final class Json {
    private Json() { }

    private static final ObjectMapper STRICT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(512).maxNumberLength(1000).maxStringLength(16 << 20).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    @Word(name = "json-parse", category = Category.JSON, doc = "Parse strict JSON; err with a message on any malformed input.")
    @Overload(sig = "string -> result<json,string>")
    public static Object jsonParse(String text) {
        if (hasLoneSurrogate(text)) return ResultValue.err("invalid JSON: lone surrogate in text");
        try {
            JsonNode n = STRICT.readTree(text);
            if (n == null || n.isMissingNode()) return ResultValue.err("invalid JSON: empty input");
            // Escapes such as "\uD800" decode to lone surrogates after parsing: refuse those too.
            if (hasEscapedLoneSurrogate(n)) return ResultValue.err("invalid JSON: lone surrogate in a string");
            return ResultValue.ok(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return ResultValue.err("invalid JSON: " + problem(e));
        } catch (Exception | StackOverflowError e) {
            return ResultValue.err("invalid JSON");
        }
    }

    /** A json literal the frontend already checked (its canonical text). */
    public static JsonNode parseLiteral(String canonicalText) {
        try {
            return STRICT.readTree(canonicalText);
        } catch (Exception e) {
            throw new IllegalArgumentException("frontend produced invalid JSON literal", e);
        }
    }

    /** The parser's complaint in words, with its position, without library internals. */
    private static String problem(com.fasterxml.jackson.core.JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "malformed" : e.getOriginalMessage();
        int nl = m.indexOf('\n');
        if (nl > 0) m = m.substring(0, nl);
        m = m.replaceAll("\\s*\\(.*?StreamReadConstraints.*?\\)", "").replaceAll("`[a-z]+(\\.[A-Za-z$]+)+`", "a value");
        var loc = e.getLocation();
        return loc == null ? m : m + " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
    }

    private static boolean hasEscapedLoneSurrogate(JsonNode n) {
        if (n.isTextual()) return hasLoneSurrogate(n.textValue());
        if (n.isObject()) {
            for (var e : n.properties()) {
                if (hasLoneSurrogate(e.getKey()) || hasEscapedLoneSurrogate(e.getValue())) return true;
            }
        }
        if (n.isArray()) for (JsonNode e : n) if (hasEscapedLoneSurrogate(e)) return true;
        return false;
    }

    static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { i++; continue; }
                return true;
            }
            if (Character.isLowSurrogate(c)) return true;
        }
        return false;
    }

    @Word(name = "json-get", category = Category.JSON, doc = "An object field, or none.")
    @Overload(sig = "json string -> option<json>")
    public static Object jsonGet(JsonNode n, String field) {
        JsonNode v = n.isObject() ? n.get(field) : null;
        return v == null ? OptionValue.NONE : OptionValue.some(v);
    }

    @Word(name = "json-index", category = Category.JSON, doc = "An array element, or none.")
    @Overload(sig = "json int -> option<json>")
    public static Object jsonIndex(JsonNode n, long index) {
        if (!n.isArray() || index < 0 || index >= n.size()) return OptionValue.NONE;
        return OptionValue.some(n.get((int) index));
    }

    @Word(name = "json-keys", category = Category.JSON, doc = "An object's keys (empty for a non-object).")
    @Overload(sig = "json -> list<string>")
    public static Object jsonKeys(JsonNode n) {
        List<Object> keys = new ArrayList<>();
        if (n.isObject()) n.fieldNames().forEachRemaining(keys::add);
        return ListValue.from(keys);
    }

    @Word(name = "json-as-string", category = Category.JSON, doc = "The string, if the JSON is one.")
    @Overload(sig = "json -> option<string>")
    public static Object jsonAsString(JsonNode n) { return n.isTextual() ? OptionValue.some(n.textValue()) : OptionValue.NONE; }

    @Word(name = "json-as-int", category = Category.JSON, doc = "The int, if the JSON is an integral number in range.")
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

    @Word(name = "json-as-float", category = Category.JSON, doc = "The number as a float, if the JSON is a number.")
    @Overload(sig = "json -> option<float>")
    public static Object jsonAsFloat(JsonNode n) { return n.isNumber() ? OptionValue.some(n.doubleValue()) : OptionValue.NONE; }

    @Word(name = "json-as-bool", category = Category.JSON, doc = "The bool, if the JSON is one.")
    @Overload(sig = "json -> option<bool>")
    public static Object jsonAsBool(JsonNode n) { return n.isBoolean() ? OptionValue.some(n.booleanValue()) : OptionValue.NONE; }

    @Word(name = "json-as-map", category = Category.JSON, doc = "An object as a string-keyed map, if the JSON is an object.")
    @Overload(sig = "json -> option<map<string,json>>")
    public static Object jsonAsMap(JsonNode n) {
        if (!n.isObject()) return OptionValue.NONE;
        OrderedPMap<Object, Object> m = OrderedPMap.empty();
        for (Map.Entry<String, JsonNode> e : n.properties()) m = m.plus(e.getKey(), e.getValue());
        return OptionValue.some(m);
    }

    @Word(name = "json-stringify", category = Category.JSON, doc = "Compact JSON text.")
    @Overload(sig = "json -> string")
    public static String jsonStringify(JsonNode n) { return Values.jsonText(n); }
}
