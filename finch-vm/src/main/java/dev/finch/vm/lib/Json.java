package dev.finch.vm.lib;

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
import dev.finch.vm.VmCode;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.MapValue;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Sized;
import dev.finch.vm.value.Sizes;
import dev.finch.vm.value.Values;
import dev.finch.vm.value.Work;
import dev.finch.vm.word.Overload;
import dev.finch.vm.word.Word;
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
 * <p>What json-parse and the json-of words make is what JSON can hold: at most {@link #MAX_DEPTH} levels deep, no
 * nan or infinity, no lone surrogate. The containers made here remember their nesting depth and their expanded
 * size (a value shared twice counts twice, as writing it out would), so building refuses a value too deep
 * (E-JSON-002) or too large for the run's memory limit (E-LIMIT-005) before allocating it, without walking what it
 * contains; json a host made is walked once, a step a node.
 */
public final class Json {
    private Json() { }

    /** Deepest nesting json-parse accepts and the json-of words build. */
    static final int MAX_DEPTH = 512;

    /** Largest decimal exponent (either sign) of a number json-parse accepts. */
    static final int MAX_EXPONENT = 1000;

    /** What one json node is charged against the memory limit (a string also 2 bytes a char). */
    static final long NODE_BYTES = Sizes.VALUE;

    private static final Factory NODES = new Factory();

    private static final ObjectMapper STRICT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH).maxNumberLength(1000).maxStringLength(16 << 20).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .nodeFactory(NODES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    // ---- the shape of a value: nesting depth and expanded size ----

    /** Nesting depth (0 for a scalar, 1 for {@code []}) and expanded size in bytes. */
    record Shape(int depth, long bytes) { }

    /** A container made here; its shape is known once it is complete, and with it its logical size ({@link Sizes}). */
    private interface Sealed extends Sized {
        Shape shape();

        void seal(Shape s);
    }

    private static final class Arr extends ArrayNode implements Sealed {
        private static final long serialVersionUID = 1L;
        private transient Shape shape;

        @Override public long logicalBytes() { return shape != null ? shape.bytes() : Sizes.jsonWalk(this); }

        Arr(JsonNodeFactory f) { super(f); }

        Arr(JsonNodeFactory f, int capacity) { super(f, capacity); }

        Arr(JsonNodeFactory f, List<JsonNode> children, Shape shape) { super(f, children); this.shape = shape; }

        @Override public Shape shape() { return shape; }

        @Override public void seal(Shape s) { shape = s; }
    }

    private static final class Obj extends ObjectNode implements Sealed {
        private static final long serialVersionUID = 1L;
        private transient Shape shape;

        @Override public long logicalBytes() { return shape != null ? shape.bytes() : Sizes.jsonWalk(this); }

        Obj(JsonNodeFactory f) { super(f); }

        Obj(JsonNodeFactory f, Map<String, JsonNode> children, Shape shape) { super(f, children); this.shape = shape; }

        @Override public Shape shape() { return shape; }

        @Override public void seal(Shape s) { shape = s; }
    }

    /** The parser's node factory: containers that can be sealed, and numbers in a float's spelling. */
    private static final class Factory extends JsonNodeFactory {
        @Override public ArrayNode arrayNode() { return new Arr(this); }

        @Override public ArrayNode arrayNode(int capacity) { return new Arr(this, capacity); }

        @Override public ObjectNode objectNode() { return new Obj(this); }

        @Override public ValueNode numberNode(BigDecimal v) { return v == null ? nullNode() : floatNumber(v); }
    }

    /**
     * A number written with a fraction or an exponent, as json keeps it: the float itself when the number is exactly
     * a float's spelling (written back as {@code float-to-string} spells it), else the decimal in
     * {@link #floatSpelling}.
     */
    static ValueNode floatNumber(BigDecimal v) {
        double d = v.doubleValue();
        if (!Double.isInfinite(d) && new BigDecimal(Double.toString(d)).compareTo(v) == 0) return DoubleNode.valueOf(d + 0.0);
        return DecimalNode.valueOf(floatSpelling(v));
    }

    /**
     * A decimal that is no float's spelling: the shortest decimal with at least one fraction digit, or the exponent
     * form when the integer part would pass 21 digits.
     */
    static BigDecimal floatSpelling(BigDecimal v) {
        if (v.signum() == 0) return BigDecimal.ZERO.setScale(1);
        BigDecimal s = v.stripTrailingZeros();
        if (s.scale() == 0 || (s.scale() < 0 && s.precision() - (long) s.scale() <= 21)) return s.setScale(1);
        return s;
    }

    private static long plus(long a, long b) { return Sizes.plus(a, b); }

    private static long scalarBytes(JsonNode n) { return Sizes.jsonScalar(n); }

    private static long keyBytes(String key) { return Sizes.jsonKey(key); }

    /** The shape of any json value: remembered for the containers made here, walked (and charged) for others. */
    static Shape shape(Ctx ctx, JsonNode n) {
        if (n instanceof Sealed s && s.shape() != null) return s.shape();
        if (!n.isContainerNode()) return new Shape(0, scalarBytes(n));
        // A container a host made: walk it without recursion, a step a node.
        int depth = 0;
        long bytes = 0;
        ArrayDeque<JsonNode> nodes = new ArrayDeque<>();
        ArrayDeque<Integer> levels = new ArrayDeque<>();
        nodes.push(n);
        levels.push(0);
        while (!nodes.isEmpty()) {
            JsonNode x = nodes.pop();
            int level = levels.pop();
            if (ctx != null) ctx.charge(1);
            if (x instanceof Sealed s && s.shape() != null) {
                depth = Math.max(depth, level + s.shape().depth());
                bytes = plus(bytes, s.shape().bytes());
            } else if (x.isContainerNode()) {
                depth = Math.max(depth, level + 1);
                bytes = plus(bytes, NODE_BYTES);
                if (x.isObject()) {
                    for (Map.Entry<String, JsonNode> e : x.properties()) {
                        bytes = plus(bytes, keyBytes(e.getKey()));
                        nodes.push(e.getValue());
                        levels.push(level + 1);
                    }
                } else {
                    for (JsonNode e : x) { nodes.push(e); levels.push(level + 1); }
                }
            } else {
                depth = Math.max(depth, level);
                bytes = plus(bytes, scalarBytes(x));
            }
        }
        return new Shape(depth, bytes);
    }

    // ---- parsing ----

    /** Why a parsed document is refused after the parser accepted it. */
    private static final class Refusal extends Exception {
        Refusal(String message) { super(message, null, false, false); }
    }

    @Word(name = "json-parse", aka = {"parse-json", "json-read", "json-decode"}, category = Category.JSON,
            doc = "Parse strict JSON; err with a message for malformed text, trailing tokens, a duplicate key, a lone surrogate (raw or escaped), "
                    + "nesting deeper than 512 levels, a number longer than 1000 characters or beyond 1e±1000, or empty input.")
    @Overload(sig = "string -> result<json,string>")
    public static Object jsonParse(Ctx ctx, String text) { return parse(text, ctx); }

    /** {@code json-parse} charged to the calling thread's meter (what embedder values and images are decoded with). */
    public static Object jsonParse(String text) { return parse(text, Meter.current()); }

    /**
     * Parses strictly, reading the text through a reader that charges {@code meter} as the parser consumes it (a
     * step per 64 chars), so the run's deadline and cancellation are checked inside a long parse; a trap of the
     * meter propagates, every refusal of the text is an err.
     */
    private static Object parse(String text, Meter meter) {
        if (hasLoneSurrogate(text)) return ResultValue.err("invalid JSON: lone surrogate in text");
        Work work = new Work(meter);
        MeteredReader in = new MeteredReader(text, work);
        try {
            JsonNode n = STRICT.readTree(in);
            if (n == null || n.isMissingNode()) return ResultValue.err("invalid JSON: empty input");
            seal(n, true);
            return ResultValue.ok(n);
        } catch (Refusal e) {
            return ResultValue.err("invalid JSON: " + e.getMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            if (in.stop != null) throw in.stop;
            return ResultValue.err("invalid JSON: " + problem(e));
        } catch (Exception | StackOverflowError e) {
            if (in.stop != null) throw in.stop;
            return ResultValue.err("invalid JSON");
        } finally {
            work.done();
        }
    }

    /** A string read in chunks, each charged to a {@link Work}; a trap of its meter stops the parser. */
    private static final class MeteredReader extends java.io.Reader {
        private final String text;
        private final Work work;
        private int at;
        RuntimeException stop;

        MeteredReader(String text, Work work) {
            this.text = text;
            this.work = work;
        }

        @Override public int read(char[] buf, int off, int len) throws java.io.IOException {
            if (at >= text.length()) return -1;
            int n = Math.min(len, text.length() - at);
            try {
                work.chars(n);
            } catch (RuntimeException trap) {
                stop = trap;
                throw new java.io.IOException("stopped");
            }
            text.getChars(at, at + n, buf, off);
            at += n;
            return n;
        }

        @Override public void close() { }
    }

    /** A json literal the frontend already checked (its canonical text). */
    public static JsonNode parseLiteral(String canonicalText) {
        try {
            JsonNode n = STRICT.readTree(canonicalText);
            // The frontend keeps what it accepted (a lone surrogate it wrote as an escape, say): record shapes only.
            seal(n, false);
            return n;
        } catch (Exception e) {
            throw new IllegalArgumentException("frontend produced invalid JSON literal", e);
        }
    }

    /** The parser's complaint in words, with its position, without library internals. */
    private static String problem(com.fasterxml.jackson.core.JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "malformed" : e.getOriginalMessage();
        int nl = m.indexOf('\n');
        if (nl > 0) m = m.substring(0, nl);
        m = m.replaceAll(",\\s*from `[^`]*`", "")
                .replaceAll("\\s*\\(bound as [^)]*\\)", "")
                .replaceAll(":?\\s*not allowed as per `[^`]*`", "")
                .replaceAll(":?\\s*enable `[^`]*` to allow", "")
                .replaceAll("\\s*\\(not recognized as one since [^)]*\\)", "")
                .replaceAll("`[a-z]+(\\.[A-Za-z$]+)+`", "a value");
        var loc = e.getLocation();
        return loc == null ? m : m + " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
    }

    /**
     * Checks a freshly parsed document for what the parser lets through (escapes such as {@code "\uD800"} decode to
     * lone surrogates; numbers of absurd magnitude) and records every container's shape. Recursion is bounded by
     * the parser's depth limit. With {@code strict} false only the shapes are recorded.
     */
    private static Shape seal(JsonNode n, boolean strict) throws Refusal {
        if (n.isTextual()) {
            if (strict && hasLoneSurrogate(n.textValue())) throw new Refusal("lone surrogate in a string");
            return new Shape(0, scalarBytes(n));
        }
        if (strict && n.isBigDecimal()) {
            BigDecimal d = n.decimalValue();
            long exponent = d.precision() - (long) d.scale() - 1;
            if (d.signum() != 0 && Math.abs(exponent) > MAX_EXPONENT) {
                throw new Refusal("number beyond 1e±" + MAX_EXPONENT + " (exponent " + exponent + ")");
            }
        }
        if (!n.isContainerNode()) return new Shape(0, scalarBytes(n));
        int depth = 0;
        long bytes = NODE_BYTES;
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if (strict && hasLoneSurrogate(e.getKey())) throw new Refusal("lone surrogate in a key");
                Shape s = seal(e.getValue(), strict);
                depth = Math.max(depth, s.depth());
                bytes = plus(bytes, plus(keyBytes(e.getKey()), s.bytes()));
            }
        } else {
            for (JsonNode e : n) {
                Shape s = seal(e, strict);
                depth = Math.max(depth, s.depth());
                bytes = plus(bytes, s.bytes());
            }
        }
        Shape s = new Shape(depth + 1, bytes);
        if (n instanceof Sealed sealed) sealed.seal(s);
        return s;
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
        if (hasLoneSurrogate(s)) throw new FinchTrap(VmCode.JSON_UNREPRESENTABLE, o, "json-of-string: the string has a lone surrogate, which JSON cannot hold");
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
        reserve(ctx, plus(NODE_BYTES, l.size() * NODE_BYTES), "json-of-list", o);
        ctx.charge(l.size());
        int depth = 0;
        long bytes = NODE_BYTES;
        for (Object e : l) {
            Shape s = shape(ctx, (JsonNode) e);
            depth = Math.max(depth, s.depth());
            bytes = plus(bytes, s.bytes());
        }
        Shape shape = checked(ctx, new Shape(depth + 1, bytes), "json-of-list", o);
        List<JsonNode> children = new ArrayList<>(l.size());
        for (Object e : l) children.add((JsonNode) e);
        return new Arr(NODES, children, shape);
    }

    @Word(name = "json-of-map", category = Category.JSON,
            doc = "A JSON object with the map's entries as members in the map's insertion order; stops the run for a key with a lone surrogate (E-JSON-001), "
                    + "nesting deeper than 512 levels (E-JSON-002) or the memory limit (E-LIMIT-005).")
    @Overload(sig = "map<string,json> -> json")
    public static JsonNode jsonOfMap(Ctx ctx, Map<Object, Object> m, Origin o) {
        reserve(ctx, plus(NODE_BYTES, m.size() * 2L * NODE_BYTES), "json-of-map", o);
        ctx.charge(m.size());
        int depth = 0;
        long bytes = NODE_BYTES;
        for (Map.Entry<Object, Object> e : m.entrySet()) {
            String key = (String) e.getKey();
            if (hasLoneSurrogate(key)) throw new FinchTrap(VmCode.JSON_UNREPRESENTABLE, o, "json-of-map: a key has a lone surrogate, which JSON cannot hold");
            Shape s = shape(ctx, (JsonNode) e.getValue());
            depth = Math.max(depth, s.depth());
            bytes = plus(bytes, plus(keyBytes(key), s.bytes()));
        }
        Shape shape = checked(ctx, new Shape(depth + 1, bytes), "json-of-map", o);
        Map<String, JsonNode> children = new LinkedHashMap<>(Math.max(4, m.size() * 2));
        for (Map.Entry<Object, Object> e : m.entrySet()) children.put((String) e.getKey(), (JsonNode) e.getValue());
        return new Obj(NODES, children, shape);
    }

    private static void reserve(Ctx ctx, long bytes, String word, Origin o) {
        if (bytes > ctx.maxMemoryBytes()) {
            throw new FinchTrap(VmCode.MEMORY_LIMIT, o, word + " would build json of " + (bytes == Long.MAX_VALUE ? "more than 2^63" : bytes)
                    + " bytes (a shared value counted once per use), over the memory limit");
        }
    }

    private static Shape checked(Ctx ctx, Shape s, String word, Origin o) {
        if (s.depth() > MAX_DEPTH) {
            throw new FinchTrap(VmCode.JSON_TOO_DEEP, o, word + " would nest json " + s.depth() + " levels deep; at most " + MAX_DEPTH);
        }
        reserve(ctx, s.bytes(), word, o);
        return s;
    }
}
