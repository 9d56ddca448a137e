package dev.finch.lib;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.JsonValues;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.MapValue;
import dev.finch.vm.value.Meter;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Show;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import dev.finch.vm.value.Work;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inverse of {@link Show} on the types it writes as JSON: reads a JSON value as the value of a type whose
 * {@code show} it is — {@code read (show v) τ = v} — or answers empty when it is not one. Strict, as µNorman's
 * {@code validate} is: a record's object has exactly its fields, a variant's object a {@code tag} naming one of its
 * tags and exactly that tag's fields (a payload that is not a record under {@code value}), a number is finite (and
 * whole, within a long, for an {@code int}), a symbol a non-empty string, {@code unit} {@code null}. What it does not
 * know are µNorman's size bounds ({@code (Text 400)}): those are not part of an IR type.
 *
 * <p>Reading is metered like writing ({@link Work}: a step per {@link Meter#ELEMENTS_PER_STEP} elements) and nests
 * at most {@link JsonValues#MAX_DEPTH} levels, which is as deep as a json value can be. A type without a JSON form —
 * money, durations, functions, handles, a type variable — is refused ({@link Show.Refused}).
 */
public final class ShowReader {
    private ShowReader() { }

    /** {@code json} as a value of {@code type}, charged to the calling thread's meter; empty when it is not one. */
    public static Optional<Object> read(Type type, JsonNode json) { return read(type, json, Meter.current()); }

    /**
     * {@code json} as a value of {@code type}, charged to {@code meter}; empty when it is not one.
     *
     * @throws Show.Refused when {@code type} (or a type inside it) has no JSON form
     */
    public static Optional<Object> read(Type type, JsonNode json, Meter meter) {
        Work work = new Work(meter);
        Object v = new Reader(work).read(type, json, 0);
        work.done();
        return Optional.ofNullable(v);
    }

    /** One reading; {@code null} is "not a value of the type" (no value of a type shown as JSON is null). */
    private static final class Reader {
        private final Work work;

        Reader(Work work) { this.work = work; }

        Object read(Type type, JsonNode n, int depth) {
            work.element();
            if (depth > JsonValues.MAX_DEPTH) return null;
            switch (type.kind()) {
                case PRIM: return prim((Type.Prim) type, n);
                case LIST: {
                    if (!n.isArray()) return null;
                    List<Object> items = new ArrayList<>(n.size());
                    for (JsonNode e : n) {
                        Object v = read(((Type.ListT) type).element(), e, depth + 1);
                        if (v == null) return null;
                        items.add(v);
                    }
                    return ListValue.from(items);
                }
                case RECORD: return n.isObject() ? fields((Type.RecordT) type, n, false, depth) : null;
                case VARIANT: {
                    Type.VariantT vt = (Type.VariantT) type;
                    String tag = tag(n);
                    if (tag == null || !vt.tags().containsKey(tag)) return null;
                    Optional<Type> payload = vt.tags().get(tag);
                    Object p = tagged(payload, n, depth);
                    return p == null ? null : new VariantValue(tag, p);
                }
                case OPTION: {
                    String tag = tag(n);
                    if ("none".equals(tag)) return n.size() == 1 ? OptionValue.NONE : null;
                    if (!"some".equals(tag)) return null;
                    Object p = tagged(Optional.of(((Type.OptionT) type).value()), n, depth);
                    return p == null ? null : OptionValue.some(p);
                }
                case RESULT: {
                    Type.ResultT rt = (Type.ResultT) type;
                    String tag = tag(n);
                    if (!"ok".equals(tag) && !"err".equals(tag)) return null;
                    Object p = tagged(Optional.of(tag.equals("ok") ? rt.ok() : rt.err()), n, depth);
                    return p == null ? null : tag.equals("ok") ? ResultValue.ok(p) : ResultValue.err(p);
                }
                case MAP: return map((Type.MapT) type, n, depth);
                case NAMED: {
                    Type.Named named = (Type.Named) type;
                    if (named.isRecursive()) return read(named.unfold(), n, depth + 1);
                    throw new Show.Refused("a value of type " + type + " is not read back from JSON");
                }
                case FN: throw new Show.Refused("a function has no written form, so none is read back");
                case VAR: throw new Show.Refused("the type to read is not fixed here (a type variable): write it where the reading is used");
                default: throw new Show.Refused("a value of type " + type + " has no written form (authority and handles never come from text)");
            }
        }

        private static Object prim(Type.Prim p, JsonNode n) {
            switch (p) {
                case STRING: return n.isTextual() ? n.textValue() : null;
                case FLOAT: {
                    if (!n.isNumber()) return null;
                    double d = n.doubleValue();
                    return Double.isFinite(d) ? d : null;
                }
                case INT: return n.isNumber() && n.canConvertToExactIntegral() && n.canConvertToLong() ? n.longValue() : null;
                case BOOL: return n.isBoolean() ? n.booleanValue() : null;
                case SYMBOL: return n.isTextual() && !n.textValue().isEmpty() ? new Symbol(n.textValue()) : null;
                case UNIT: return n.isNull() ? Unit.INSTANCE : null;
                case JSON: return n;
                default: throw new Show.Refused("bytes have no written form, so none is read back");
            }
        }

        /** The {@code tag} of a tagged object, or null when {@code n} is not one. */
        private static String tag(JsonNode n) {
            JsonNode t = n.isObject() ? n.get("tag") : null;
            return t != null && t.isTextual() ? t.textValue() : null;
        }

        /** A tagged object's payload: nothing, a record's fields beside the tag, else {@code value}. */
        private Object tagged(Optional<Type> payload, JsonNode n, int depth) {
            if (payload.isEmpty() || payload.get() == Type.UNIT) return n.size() == 1 ? Unit.INSTANCE : null;
            Type pt = payload.get();
            if (pt instanceof Type.RecordT rt) return rt.fields().containsKey("tag") ? null : fields(rt, n, true, depth);
            JsonNode v = n.get("value");
            return n.size() == 2 && v != null ? read(pt, v, depth + 1) : null;
        }

        /** Exactly the record's fields (and the tag, when tagged), in the record's (sorted) order. */
        private Object fields(Type.RecordT rt, JsonNode n, boolean tagged, int depth) {
            if (n.size() != rt.fields().size() + (tagged ? 1 : 0)) return null;
            Object[] values = new Object[rt.fields().size()];
            int i = 0;
            for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                JsonNode v = n.get(f.getKey());
                if (v == null) return null;
                Object r = read(f.getValue(), v, depth + 1);
                if (r == null) return null;
                values[i++] = r;
            }
            return new RecordValue(values);
        }

        /** A map with string keys is an object; any other a list of [key, value] pairs. */
        private Object map(Type.MapT mt, JsonNode n, int depth) {
            Map<Object, Object> out = new LinkedHashMap<>();
            if (mt.key() == Type.STRING) {
                if (!n.isObject()) return null;
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Object v = read(mt.value(), e.getValue(), depth + 1);
                    if (v == null) return null;
                    out.put(e.getKey(), v);
                }
                return MapValue.from(out);
            }
            if (!n.isArray()) return null;
            for (JsonNode pair : n) {
                if (!pair.isArray() || pair.size() != 2) return null;
                Object k = read(mt.key(), pair.get(0), depth + 1);
                Object v = k == null ? null : read(mt.value(), pair.get(1), depth + 1);
                if (v == null || out.containsKey(k)) return null;
                out.put(k, v);
            }
            return MapValue.from(out);
        }
    }
}
