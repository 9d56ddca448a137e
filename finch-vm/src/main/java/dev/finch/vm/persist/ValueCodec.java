package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.Duration;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.Money;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.PathValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;

/**
 * Values to JSON and back, driven by their static type (which the frames and the stack always carry), so a
 * suspended run can be resumed in another process. Closures, streams and other run-owned handles do not
 * serialize: {@link NotDurable} says which, and the run cannot be saved.
 */
public final class ValueCodec {
    private ValueCodec() { }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A value that only lives in this process (a closure, a stream, a handle). */
    public static final class NotDurable extends RuntimeException {
        public NotDurable(String message) { super(message, null, false, false); }
    }

    /** A saved value that does not fit its type (a truncated or forged file). */
    public static final class Malformed extends RuntimeException {
        public Malformed(String message) { super(message, null, false, false); }
    }

    /** The saved form of {@code v}, a value of {@code type}; {@link NotDurable} when it has none. */
    public static JsonNode encode(Type type, Object v) {
        try {
            return encodeChecked(type, v);
        } catch (NotDurable e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NotDurable("a value held as " + type + " has no saved form");
        }
    }

    @SuppressWarnings("unchecked")
    private static JsonNode encodeChecked(Type type, Object v) {
        switch (type.kind()) {
            case PRIM -> {
                return switch ((Type.Prim) type) {
                    case INT -> F.numberNode((Long) v);
                    case FLOAT -> F.textNode(Double.toString((Double) v));
                    case BOOL -> F.booleanNode((Boolean) v);
                    case STRING -> F.textNode((String) v);
                    case BYTES -> F.textNode(Base64.getEncoder().encodeToString(((Bytes) v).toArray()));
                    case UNIT -> F.nullNode();
                    case SYMBOL -> F.textNode(((Symbol) v).name());
                    case JSON -> ((JsonNode) v).deepCopy();
                };
            }
            case PATH -> {
                ConcretePath p = ((PathValue) v).path();
                return F.textNode(p.relative());
            }
            case OPTION -> {
                OptionValue o = (OptionValue) v;
                ArrayNode a = F.arrayNode();
                if (o.isSome()) a.add(encode(((Type.OptionT) type).value(), o.value()));
                return a;
            }
            case RESULT -> {
                ResultValue r = (ResultValue) v;
                Type.ResultT rt = (Type.ResultT) type;
                ObjectNode o = F.objectNode();
                o.set(r.isOk() ? "ok" : "err", encode(r.isOk() ? rt.ok() : rt.err(), r.value()));
                return o;
            }
            case LIST -> {
                ArrayNode a = F.arrayNode();
                for (Object e : (ListValue) v) a.add(encode(((Type.ListT) type).element(), e));
                return a;
            }
            case MAP -> {
                Type.MapT mt = (Type.MapT) type;
                ArrayNode a = F.arrayNode();
                for (Map.Entry<Object, Object> e : ((Map<Object, Object>) v).entrySet()) {
                    a.addArray().add(encode(mt.key(), e.getKey())).add(encode(mt.value(), e.getValue()));
                }
                return a;
            }
            case RECORD -> {
                Type.RecordT rt = (Type.RecordT) type;
                RecordValue r = (RecordValue) v;
                ObjectNode o = F.objectNode();
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) o.set(f.getKey(), encode(f.getValue(), r.get(i++)));
                return o;
            }
            case VARIANT -> {
                VariantValue vv = (VariantValue) v;
                var payload = ((Type.VariantT) type).tags().get(vv.tag());
                ObjectNode o = F.objectNode().put("tag", vv.tag());
                if (payload != null && payload.isPresent()) o.set("payload", encode(payload.get(), vv.payload()));
                return o;
            }
            case NAMED -> {
                if (v instanceof Money m) return F.objectNode().put("money", m.micros()).put("unlimited", m.unlimited());
                if (v instanceof Duration d) return F.objectNode().put("duration", d.millis()).put("unlimited", d.unlimited());
                // A tool capability is plain data: it confers nothing (every call is checked at the host boundary).
                if (v instanceof dev.finch.vm.host.ToolCapability c) {
                    return F.objectNode().put("tool", c.grant()).put("instance", c.instance()).put("stateful", c.stateful());
                }
                throw new NotDurable("a value of type " + type + " lives only in this process");
            }
            case VAR -> {
                // A type variable's value in a polymorphic word's frame: record its runtime shape.
                return encodeDynamic(v);
            }
            default -> throw new NotDurable("a value of type " + type + " (a closure, stream, task or handle) lives only in this process");
        }
    }

    /** Values held at a type variable: only the scalar shapes can be recovered without a static type. */
    private static JsonNode encodeDynamic(Object v) {
        if (v instanceof Long l) return F.objectNode().put("int", l);
        if (v instanceof Double d) return F.objectNode().put("float", Double.toString(d));
        if (v instanceof Boolean b) return F.objectNode().put("bool", b);
        if (v instanceof String s) return F.objectNode().put("string", s);
        if (v == Unit.INSTANCE) return F.objectNode().putNull("unit");
        throw new NotDurable("a polymorphic frame holds a structured value whose type is only known to its caller");
    }

    public static Object decode(Type type, JsonNode n) {
        try {
            return decodeChecked(type, n);
        } catch (Malformed | NotDurable e) {
            throw e;
        } catch (RuntimeException e) {
            throw new Malformed("a saved value does not fit type " + type);
        }
    }

    private static Object decodeChecked(Type type, JsonNode n) {
        switch (type.kind()) {
            case PRIM -> {
                return switch ((Type.Prim) type) {
                    case INT -> { require(n.isIntegralNumber() && n.canConvertToLong(), type); yield n.longValue(); }
                    case FLOAT -> { require(n.isTextual(), type); yield Double.parseDouble(n.textValue()); }
                    case BOOL -> { require(n.isBoolean(), type); yield n.booleanValue(); }
                    case STRING -> { require(n.isTextual(), type); yield n.textValue(); }
                    case BYTES -> { require(n.isTextual(), type); yield Bytes.wrap(Base64.getDecoder().decode(n.textValue())); }
                    case UNIT -> { require(n.isNull(), type); yield Unit.INSTANCE; }
                    case SYMBOL -> { require(n.isTextual(), type); yield new Symbol(n.textValue()); }
                    case JSON -> n.deepCopy();
                };
            }
            case PATH -> {
                require(n.isTextual(), type);
                String root = ((Type.PathT) type).root();
                Root r = Root.bySpelling(root).orElseThrow(() -> new Malformed("unknown root " + root));
                var p = ConcretePath.of(r, n.textValue());
                if (!p.isOk()) throw new Malformed("a saved path is not canonical");
                return new PathValue(p.value());
            }
            case OPTION -> {
                require(n.isArray() && n.size() <= 1, type);
                return n.size() == 0 ? OptionValue.NONE : OptionValue.some(decode(((Type.OptionT) type).value(), n.get(0)));
            }
            case RESULT -> {
                require(n.isObject() && n.size() == 1, type);
                Type.ResultT rt = (Type.ResultT) type;
                if (n.has("ok")) return ResultValue.ok(decode(rt.ok(), n.get("ok")));
                require(n.has("err"), type);
                return ResultValue.err(decode(rt.err(), n.get("err")));
            }
            case LIST -> {
                require(n.isArray(), type);
                List<Object> items = new ArrayList<>();
                for (JsonNode e : n) items.add(decode(((Type.ListT) type).element(), e));
                return ListValue.from(items);
            }
            case MAP -> {
                require(n.isArray(), type);
                Type.MapT mt = (Type.MapT) type;
                OrderedPMap<Object, Object> m = OrderedPMap.empty();
                for (JsonNode e : n) {
                    require(e.isArray() && e.size() == 2, type);
                    m = m.plus(decode(mt.key(), e.get(0)), decode(mt.value(), e.get(1)));
                }
                return m;
            }
            case RECORD -> {
                require(n.isObject(), type);
                Type.RecordT rt = (Type.RecordT) type;
                require(n.size() == rt.fields().size(), type);
                Object[] values = new Object[rt.fields().size()];
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                    require(n.has(f.getKey()), type);
                    values[i++] = decode(f.getValue(), n.get(f.getKey()));
                }
                return new RecordValue(values);
            }
            case VARIANT -> {
                require(n.isObject() && n.has("tag"), type);
                String tag = n.get("tag").asText();
                var payload = ((Type.VariantT) type).tags().get(tag);
                require(payload != null, type);
                return new VariantValue(tag, payload.isPresent() ? decode(payload.get(), n.get("payload")) : Unit.INSTANCE);
            }
            case NAMED -> {
                if (n.has("money")) return n.get("unlimited").asBoolean() ? Money.UNLIMITED : Money.ofMicros(n.get("money").longValue());
                if (n.has("duration")) return n.get("unlimited").asBoolean() ? Duration.UNLIMITED : Duration.ofMillis(n.get("duration").longValue());
                if (n.has("tool")) return new dev.finch.vm.host.ToolCapability(n.get("tool").asText(), n.path("instance").asLong(), n.path("stateful").asBoolean());
                throw new Malformed("no saved form for type " + type);
            }
            case VAR -> {
                require(n.isObject() && n.size() == 1, type);
                if (n.has("int")) return n.get("int").longValue();
                if (n.has("float")) return Double.parseDouble(n.get("float").asText());
                if (n.has("bool")) return n.get("bool").asBoolean();
                if (n.has("string")) return n.get("string").asText();
                if (n.has("unit")) return Unit.INSTANCE;
                throw new Malformed("unknown saved shape");
            }
            default -> throw new Malformed("no saved form for type " + type);
        }
    }

    private static void require(boolean ok, Type type) {
        if (!ok) throw new Malformed("a saved value does not fit type " + type);
    }
}
