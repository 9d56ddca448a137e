package dev.finch.norman.harness;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.finch.norman.Askable;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code validate}: reads a model's (or a tool's) JSON answer as a value of an askable type, or says why it is
 * {@code Invalid}. It is the inverse of {@code show} on askable types — {@code validate (show v) τ = v} — and
 * strict, because the text is untrusted (decisions D11): duplicate keys, trailing tokens, unknown or missing
 * fields, a tag that names no constructor, numbers JSON cannot hold as a finite double, and sizes over the type's
 * bounds or the reader's limits are all refused.
 */
public final class Validate {
    /** Nesting, string and number limits: far above any askable answer, far below what would hurt. */
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(128).maxStringLength(1 << 22).maxNumberLength(400).maxDocumentLength(1L << 24).build();
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(LIMITS).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonParser.Feature.ALLOW_COMMENTS)
            .build();

    private Validate() { }

    /** The outcome: a value of the type (a VM value, as {@code show} reads them), or why the text is Invalid. */
    public record Validated(Optional<Object> value, String reason) {
        static Validated valid(Object v) { return new Validated(Optional.of(v), ""); }

        static Validated invalid(String why) { return new Validated(Optional.empty(), why); }

        /** True when the text is a value of the type. */
        public boolean ok() { return value.isPresent(); }
    }

    /** Reads {@code json} as a value of {@code type}. */
    public static Validated validate(String json, Askable type) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Validated.invalid("not JSON: " + e.getOriginalMessage());
        } catch (RuntimeException e) {
            return Validated.invalid("not JSON: " + e.getMessage());
        }
        if (node == null || node.isMissingNode()) return Validated.invalid("not JSON: the text is empty");
        try {
            return Validated.valid(read(node, type, "$", Map.of()));
        } catch (Mismatch m) {
            return Validated.invalid(m.getMessage());
        }
    }

    /** Why a node is not a value of a type, with its JSON path. */
    private static final class Mismatch extends Exception {
        Mismatch(String path, String why) { super(path + ": " + why, null, false, false); }
    }

    /**
     * Reads {@code n} as {@code t}; {@code enclosing} holds the declarations {@code n} is inside, by name, which a
     * recursive type's {@link Askable.Ref} stands for. Each level of a recursive type is a JSON object or array, so
     * the reader's nesting limit (128) bounds how deep this recursion goes, whatever the reply.
     */
    private static Object read(JsonNode n, Askable t, String path, Map<String, Askable> enclosing) throws Mismatch {
        if (t instanceof Askable.Ref ref) {
            Askable decl = enclosing.get(ref.name());
            if (decl == null) throw new Mismatch(path, "the type refers to " + ref.name() + ", which it is not inside");
            t = decl;
        }
        if (t instanceof Askable.Record || t instanceof Askable.Datatype) {
            Map<String, Askable> inner = new java.util.HashMap<>(enclosing);
            inner.put(t instanceof Askable.Record r ? r.name() : ((Askable.Datatype) t).name(), t);
            enclosing = inner;
        }
        if (t instanceof Askable.Text x) {
            if (!n.isTextual()) throw new Mismatch(path, "expected text, found " + kind(n));
            String s = n.textValue();
            if (x.maxBytes().isPresent() && s.getBytes(StandardCharsets.UTF_8).length > x.maxBytes().getAsLong()) {
                throw new Mismatch(path, "text of " + s.getBytes(StandardCharsets.UTF_8).length + " bytes exceeds its bound of " + x.maxBytes().getAsLong());
            }
            return s;
        }
        if (t instanceof Askable.Num) {
            if (!n.isNumber()) throw new Mismatch(path, "expected a number, found " + kind(n));
            double d = n.doubleValue();
            if (!Double.isFinite(d)) throw new Mismatch(path, "the number " + n.asText() + " does not fit a Num");
            return d;
        }
        if (t instanceof Askable.Bool) {
            if (!n.isBoolean()) throw new Mismatch(path, "expected true or false, found " + kind(n));
            return n.booleanValue();
        }
        if (t instanceof Askable.Sym) {
            if (!n.isTextual() || n.textValue().isEmpty()) throw new Mismatch(path, "expected a symbol (a non-empty string), found " + kind(n));
            return new Symbol(n.textValue());
        }
        if (t instanceof Askable.ListOf l) {
            if (!n.isArray()) throw new Mismatch(path, "expected a list, found " + kind(n));
            if (l.maxItems().isPresent() && n.size() > l.maxItems().getAsLong()) {
                throw new Mismatch(path, "a list of " + n.size() + " items exceeds its bound of " + l.maxItems().getAsLong());
            }
            List<Object> items = new ArrayList<>();
            for (int i = 0; i < n.size(); i++) items.add(read(n.get(i), l.element(), path + "[" + i + "]", enclosing));
            return ListValue.from(items);
        }
        if (t instanceof Askable.Record r) {
            if (!n.isObject()) throw new Mismatch(path, "expected a " + r.name() + " object, found " + kind(n));
            return fields(n, r.fields(), r.name(), path, false, enclosing);
        }
        Askable.Datatype d = (Askable.Datatype) t;
        if (!n.isObject()) throw new Mismatch(path, "expected a " + d.name() + " object with a tag, found " + kind(n));
        JsonNode tag = n.get("tag");
        if (tag == null || !tag.isTextual()) throw new Mismatch(path, "a " + d.name() + " needs a \"tag\" naming one of " + d.constructors().keySet());
        Map<String, Askable> fields = d.constructors().get(tag.textValue());
        if (fields == null) throw new Mismatch(path, "\"" + tag.textValue() + "\" is not a constructor of " + d.name() + " " + d.constructors().keySet());
        if (fields.isEmpty()) {
            if (n.size() != 1) throw new Mismatch(path, tag.textValue() + " has no fields, but the object has " + others(n, Map.of()));
            return new VariantValue(tag.textValue(), Unit.INSTANCE);
        }
        return new VariantValue(tag.textValue(), fields(n, fields, tag.textValue(), path, true, enclosing));
    }

    /** Exactly the declared fields (plus the tag of a constructor), read in sorted order as a record value. */
    private static RecordValue fields(JsonNode n, Map<String, Askable> fields, String what, String path, boolean tagged,
                                      Map<String, Askable> enclosing) throws Mismatch {
        int expected = fields.size() + (tagged ? 1 : 0);
        if (n.size() != expected) throw new Mismatch(path, what + " has fields " + fields.keySet() + ", but the object has " + others(n, fields));
        Object[] values = new Object[fields.size()];
        int i = 0;
        for (Map.Entry<String, Askable> f : fields.entrySet()) {
            JsonNode v = n.get(f.getKey());
            if (v == null) throw new Mismatch(path, what + " is missing its field \"" + f.getKey() + "\"");
            values[i++] = read(v, f.getValue(), path + "." + f.getKey(), enclosing);
        }
        return new RecordValue(values);
    }

    private static String others(JsonNode n, Map<String, Askable> fields) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) keys.add(it.next());
        return "keys " + keys;
    }

    private static String kind(JsonNode n) {
        if (n.isNull()) return "null";
        if (n.isObject()) return "an object";
        if (n.isArray()) return "a list";
        if (n.isTextual()) return "text";
        if (n.isNumber()) return "a number";
        if (n.isBoolean()) return "a boolean";
        return n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }
}
