package dev.finch.vm.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.diag.Origin;
import dev.finch.vm.VmCode;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.Values;
import dev.finch.vm.value.VariantValue;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Run-time operations called from generated code. Small static methods the JIT inlines; every failure is a
 * {@link FinchTrap} carrying the call site's origin. Values are immutable: lists are persistent vectors
 * (append is O(log n)), maps persistent insertion-ordered maps.
 */
public final class Rt {
    private Rt() { }

    // ---- arithmetic (D5: checked, never wrap-around) ----

    // The Math.*Exact intrinsics compile to the machine's add/jump-on-overflow; overflow is the cold path.

    public static long add(long a, long b, Origin o) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " + " + b);
        }
    }

    public static long sub(long a, long b, Origin o) {
        try {
            return Math.subtractExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " - " + b);
        }
    }

    public static long mul(long a, long b, Origin o) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(o, a + " * " + b);
        }
    }

    public static long div(long a, long b, Origin o) {
        if (b == 0) throw new FinchTrap(VmCode.DIVIDE_BY_ZERO, o, "division of " + a + " by zero");
        if (a == Long.MIN_VALUE && b == -1) throw overflow(o, a + " / " + b);
        return a / b;
    }

    public static long mod(long a, long b, Origin o) {
        if (b == 0) throw new FinchTrap(VmCode.DIVIDE_BY_ZERO, o, "remainder of " + a + " by zero");
        return b == -1 ? 0 : a % b;
    }

    public static long negate(long a, Origin o) {
        if (a == Long.MIN_VALUE) throw overflow(o, "negate " + a);
        return -a;
    }

    private static FinchTrap overflow(Origin o, String what) {
        return new FinchTrap(VmCode.INT_OVERFLOW, o, "integer overflow in " + what);
    }

    // ---- comparison ----

    public static boolean eq(Object a, Object b) { return java.util.Objects.equals(a, b); }

    public static int compareStrings(String a, String b) { return a.compareTo(b); }

    // ---- strings and bytes ----

    public static String stringAppend(Ctx ctx, String a, String b, Origin o) {
        long size = (long) a.length() + b.length();
        if (size * 2 > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, "string-append would build a string of " + size + " chars, over the memory limit");
        }
        return a.concat(b);
    }

    public static long stringLength(String s) { return s.codePointCount(0, s.length()); }

    public static String intToString(long v) { return Long.toString(v); }

    public static String floatToString(double v) { return Values.floatText(v); }

    public static Object stringToInt(String s) {
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]{1,19}")) return OptionValue.NONE;
        try {
            return OptionValue.some(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return OptionValue.NONE;
        }
    }

    public static Object bytesToString(Object bytes) {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ((Bytes) bytes).buffer();
        try {
            CharBuffer out = dec.decode(in);
            return ResultValue.ok(out.toString());
        } catch (CharacterCodingException e) {
            return ResultValue.err("invalid UTF-8 at byte " + in.position());
        }
    }

    public static Object stringToBytes(String s) { return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8)); }

    // ---- output and control ----

    public static void say(Ctx ctx, String text, Origin o) { ctx.say(text, o); }

    /** step-spawn: see {@link Strands}. */
    public static Object stepSpawn(Ctx ctx, Object closure, Origin o) { return Strands.spawn(ctx, closure, o); }

    /** step-join: see {@link Strands}. */
    public static Object stepJoin(Ctx ctx, Object task, Origin o) { return Strands.join(ctx, task, o); }

    /** yield: publishes the value and suspends; when this call is the one being resumed, returns instead. */
    public static void yield(Ctx ctx, Object value) {
        if (ctx.takeResume()) return;
        Strands.checkMayPause(ctx, Origin.UNKNOWN);
        ctx.yielded = value;
        ctx.suspending = true;
    }

    // ---- options and results ----

    public static Object some(Object v) { return OptionValue.some(v); }

    public static Object none() { return OptionValue.NONE; }

    public static boolean isSome(Object o) { return ((OptionValue) o).isSome(); }

    public static Object unwrap(Object o, Origin origin) {
        OptionValue v = (OptionValue) o;
        if (!v.isSome()) throw new FinchTrap(VmCode.OPTION_NONE, origin, "unwrap of none");
        return v.value();
    }

    public static Object optionValue(Object o) { return ((OptionValue) o).value(); }

    public static Object ok(Object v) { return ResultValue.ok(v); }

    public static Object err(Object v) { return ResultValue.err(v); }

    public static boolean isOk(Object r) { return ((ResultValue) r).isOk(); }

    public static Object resultValue(Object r) { return ((ResultValue) r).value(); }

    public static Object resultUnwrap(Object r, Origin o) {
        ResultValue v = (ResultValue) r;
        if (!v.isOk()) throw new FinchTrap(VmCode.RESULT_UNWRAP_ERR, o, "result-unwrap of an err");
        return v.value();
    }

    public static Object resultError(Object r, Origin o) {
        ResultValue v = (ResultValue) r;
        if (v.isOk()) throw new FinchTrap(VmCode.RESULT_ERROR_OK, o, "result-error of an ok");
        return v.value();
    }

    // ---- variants ----

    public static Object variant(String tag, Object payload) { return new VariantValue(tag, payload); }

    public static Object variantGet(Object v, String tag) {
        VariantValue vv = (VariantValue) v;
        return vv.tag().equals(tag) ? OptionValue.some(vv.payload()) : OptionValue.NONE;
    }

    // ---- lists ----

    public static Object emptyList() { return ListValue.empty(); }

    public static Object listOf(Object[] items) { return ListValue.of(items); }

    @SuppressWarnings("unchecked")
    public static Object listAppend(Ctx ctx, Object list, Object item, Origin o) {
        ListValue l = (ListValue) list;
        if ((long) (l.size() + 1) * 16 > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, "list-append would grow a list past the memory limit");
        }
        return l.append(item);
    }

    @SuppressWarnings("unchecked")
    public static Object listGet(Object list, long index) {
        ListValue l = (ListValue) list;
        return index >= 0 && index < l.size() ? OptionValue.some(l.get((int) index)) : OptionValue.NONE;
    }

    public static long listLength(Object list) { return ((ListValue) list).size(); }

    /** list-uncons: some({head, tail}) — record fields in canonical order head, tail. */
    @SuppressWarnings("unchecked")
    public static Object listUncons(Object list) {
        ListValue l = (ListValue) list;
        if (l.isEmpty()) return OptionValue.NONE;
        return OptionValue.some(new RecordValue(new Object[] {l.get(0), l.tail()}));
    }

    // ---- maps ----

    public static Object mapOf(Object[] keysAndValues) {
        OrderedPMap<Object, Object> m = OrderedPMap.empty();
        for (int i = 0; i < keysAndValues.length; i += 2) m = m.plus(keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }

    @SuppressWarnings("unchecked")
    public static Object mapGet(Object map, Object key) {
        Map<Object, Object> m = (Map<Object, Object>) map;
        Object v = m.get(key);
        return v == null && !m.containsKey(key) ? OptionValue.NONE : OptionValue.some(v);
    }

    @SuppressWarnings("unchecked")
    public static Object mapSet(Object map, Object key, Object value) {
        return ((OrderedPMap<Object, Object>) map).plus(key, value);
    }

    /** map-entries: list of {key, value} records (canonical field order key, value). */
    @SuppressWarnings("unchecked")
    public static Object mapEntries(Object map) {
        List<Object> out = new ArrayList<>();
        for (Map.Entry<Object, Object> e : ((Map<Object, Object>) map).entrySet()) {
            out.add(new RecordValue(new Object[] {e.getKey(), e.getValue()}));
        }
        return ListValue.from(out);
    }

    // ---- records ----

    public static Object record(Object[] values) { return new RecordValue(values); }

    public static Object recordGet(Object r, int index) { return OptionValue.some(((RecordValue) r).get(index)); }

    public static Object recordSet(Object r, Object value, int index) { return ((RecordValue) r).with(index, value); }

    // ---- JSON: strict for untrusted input (reliability row 6) ----

    private static final ObjectMapper STRICT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(512).maxNumberLength(1000).maxStringLength(16 << 20).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    public static Object jsonParse(String text) {
        if (hasLoneSurrogate(text)) return ResultValue.err("invalid JSON: lone surrogate in text");
        try {
            JsonNode n = STRICT.readTree(text);
            if (n == null || n.isMissingNode()) return ResultValue.err("invalid JSON: empty input");
            // Escapes such as "\uD800" decode to lone surrogates after parsing: refuse those too.
            if (hasEscapedLoneSurrogate(n)) return ResultValue.err("invalid JSON: lone surrogate in a string");
            return ResultValue.ok(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return ResultValue.err("invalid JSON: " + jsonProblem(e));
        } catch (Exception | StackOverflowError e) {
            return ResultValue.err("invalid JSON");
        }
    }

    /** The parser's complaint in words, with its position, without library internals. */
    private static String jsonProblem(com.fasterxml.jackson.core.JsonProcessingException e) {
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

    private static boolean hasLoneSurrogate(String s) {
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

    public static JsonNode parseJsonLiteral(String canonicalText) {
        try {
            return STRICT.readTree(canonicalText);
        } catch (Exception e) {
            throw new IllegalArgumentException("frontend produced invalid JSON literal", e);
        }
    }

    public static Object jsonGet(Object json, String field) {
        JsonNode n = (JsonNode) json;
        JsonNode v = n.isObject() ? n.get(field) : null;
        return v == null ? OptionValue.NONE : OptionValue.some(v);
    }

    public static Object jsonIndex(Object json, long index) {
        JsonNode n = (JsonNode) json;
        if (!n.isArray() || index < 0 || index >= n.size()) return OptionValue.NONE;
        return OptionValue.some(n.get((int) index));
    }

    public static Object jsonKeys(Object json) {
        JsonNode n = (JsonNode) json;
        List<Object> keys = new ArrayList<>();
        if (n.isObject()) n.fieldNames().forEachRemaining(keys::add);
        return ListValue.from(keys);
    }

    public static Object jsonAsString(Object json) {
        JsonNode n = (JsonNode) json;
        return n.isTextual() ? OptionValue.some(n.textValue()) : OptionValue.NONE;
    }

    public static Object jsonAsInt(Object json) {
        JsonNode n = (JsonNode) json;
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

    public static Object jsonAsFloat(Object json) {
        JsonNode n = (JsonNode) json;
        return n.isNumber() ? OptionValue.some(n.doubleValue()) : OptionValue.NONE;
    }

    public static Object jsonAsBool(Object json) {
        JsonNode n = (JsonNode) json;
        return n.isBoolean() ? OptionValue.some(n.booleanValue()) : OptionValue.NONE;
    }

    public static Object jsonAsMap(Object json) {
        JsonNode n = (JsonNode) json;
        if (!n.isObject()) return OptionValue.NONE;
        OrderedPMap<Object, Object> m = OrderedPMap.empty();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            m = m.plus(e.getKey(), e.getValue());
        }
        return OptionValue.some(m);
    }

    public static String jsonStringify(Object json) { return Values.jsonText((JsonNode) json); }

    // ---- µNorman support ----

    public static Object listPrepend(Object item, Object list) { return ((ListValue) list).prepend(item); }

    public static Object programError(String message, Origin o) { throw new FinchTrap(VmCode.PROGRAM_ERROR, o, message); }

    public static String show(Object value, dev.finch.ir.type.Type type, Origin o) {
        try {
            return dev.finch.vm.value.Show.show(type, value);
        } catch (dev.finch.vm.value.Show.Refused r) {
            throw new FinchTrap(VmCode.SHOW_REFUSED, o, "show: " + r.getMessage());
        }
    }

    public static Object expectOk(Object result, dev.finch.ir.type.Type type, Origin o) {
        ResultValue r = (ResultValue) result;
        if (r.isOk()) return r.value();
        dev.finch.ir.type.Type errType = ((dev.finch.ir.type.Type.ResultT) type).err();
        throw new FinchTrap(VmCode.EXPECTED_OK, o, "uncaught failure: " + Values.display(errType, r.value()));
    }

    public static Object moneyFromMicros(long micros) { return dev.finch.vm.value.Money.ofMicros(micros); }

    public static Object durationFromMillis(long millis) { return dev.finch.vm.value.Duration.ofMillis(millis); }

    public static Object moneyUnlimited() { return dev.finch.vm.value.Money.UNLIMITED; }

    public static Object durationUnlimited() { return dev.finch.vm.value.Duration.UNLIMITED; }

    /** vm-vocabulary: the core words and the run's dictionary, as json. */
    public static Object vmVocabulary(Ctx ctx) {
        var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        ArrayNode core = out.putArray("words");
        for (var w : dev.finch.ir.vocab.Vocabulary.words()) {
            ObjectNode o = core.addObject();
            o.put("name", w.name());
            o.put("signature", w.signatureText());
            o.put("category", w.category().name().toLowerCase(java.util.Locale.ROOT));
            o.put("doc", w.doc());
        }
        ArrayNode defs = out.putArray("definitions");
        new java.util.TreeMap<>(ctx.definitions).forEach((n, sig) -> defs.addObject().put("name", n).put("signature", sig));
        return out;
    }

    // ---- constants ----

    public static void defineConstant(Ctx ctx, String name, Object value) { ctx.constants.put(name, value); }

    public static Object constant(Ctx ctx, String name) { return ctx.constants.get(name); }

    // ---- boxing helpers ----

    public static Object unit() { return Unit.INSTANCE; }

}
