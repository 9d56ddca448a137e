package dev.finch.vm.value;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ValueNode;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * Managed json, the value ({@code json}): parsed strictly (reliability row 6: duplicate keys, trailing tokens, depth,
 * number length and lone surrogates are refused with an err, never thrown), its numbers held as the json words
 * define them, and its containers remembering their nesting depth and expanded size (a value shared twice counts
 * twice, as writing it out would), so building refuses a value too deep or too large before allocating it, without
 * walking what it contains; json a host made is walked once, a step a node. The json words (finch's standard library)
 * read and build it; the engine parses literals, images and embedder values with it.
 *
 * <p>Numbers are compared by value ({@code 2 = 2.0 = 2e0}). An integer is written as one ({@code 2}). A number written
 * with a fraction or an exponent stays float-like: when it is exactly a float it is held as that float and written
 * as {@code float-to-string} spells it ({@code 2.0}, {@code 1.5}, {@code 1.0E300}, {@code 1.0E-5}); otherwise (more
 * digits than a float keeps, or beyond its range) as the decimal itself, with at least one fraction digit or an
 * exponent ({@code 1.00000000000000000001}, {@code 1E+400}). There is no negative zero ({@code -0.0} is {@code 0.0}).
 */
public final class JsonValues {
    private JsonValues() { }

    /** Deepest nesting json-parse accepts and the json-of words build. */
    public static final int MAX_DEPTH = 512;

    /** Largest decimal exponent (either sign) of a number json-parse accepts. */
    public static final int MAX_EXPONENT = 1000;

    /** What one json node is charged against the memory limit (a string also 2 bytes a char). */
    public static final long NODE_BYTES = Sizes.VALUE;

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
    public record Shape(int depth, long bytes) { }

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
    public static ValueNode floatNumber(BigDecimal v) {
        double d = v.doubleValue();
        if (!Double.isInfinite(d) && new BigDecimal(Double.toString(d)).compareTo(v) == 0) return DoubleNode.valueOf(d + 0.0);
        return DecimalNode.valueOf(floatSpelling(v));
    }

    /**
     * A decimal that is no float's spelling: the shortest decimal with at least one fraction digit, or the exponent
     * form when the integer part would pass 21 digits.
     */
    public static BigDecimal floatSpelling(BigDecimal v) {
        if (v.signum() == 0) return BigDecimal.ZERO.setScale(1);
        BigDecimal s = v.stripTrailingZeros();
        if (s.scale() == 0 || (s.scale() < 0 && s.precision() - (long) s.scale() <= 21)) return s.setScale(1);
        return s;
    }

    private static long plus(long a, long b) { return Sizes.plus(a, b); }

    private static long scalarBytes(JsonNode n) { return Sizes.jsonScalar(n); }

    private static long keyBytes(String key) { return Sizes.jsonKey(key); }

    /** The shape of any json value: remembered for the containers made here, walked (and charged) for others. */
    public static Shape shape(Meter meter, JsonNode n) {
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
            if (meter != null) meter.charge(1);
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

    /** {@code json-parse} charged to the calling thread's meter (what embedder values and images are decoded with). */
    public static Object parse(String text) { return parse(text, Meter.current()); }

    /**
     * Parses strictly, reading the text through a reader that charges {@code meter} as the parser consumes it (a
     * step per 64 chars), so the run's deadline and cancellation are checked inside a long parse; a trap of the
     * meter propagates, every refusal of the text is an err.
     */
    public static Object parse(String text, Meter meter) {
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

    public static boolean hasLoneSurrogate(String s) {
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

    /** An array of {@code children} whose shape is already known ({@code json-of-list}). */
    public static ArrayNode array(List<JsonNode> children, Shape shape) { return new Arr(NODES, children, shape); }

    /** An object of {@code children} whose shape is already known ({@code json-of-map}). */
    public static ObjectNode object(Map<String, JsonNode> children, Shape shape) { return new Obj(NODES, children, shape); }
}
