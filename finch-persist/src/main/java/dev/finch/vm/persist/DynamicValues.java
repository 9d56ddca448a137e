package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * Values held at a type variable — a polymorphic word's slot — saved without a static type ({@link ValueCodec}'s
 * {@code VAR}): every value Finch makes says what it is, so each is written as its runtime shape
 * ({@code {"int":1}}, {@code {"list":[…]}}, {@code {"record":[…]}}, …), each part again by its shape, and a function,
 * fiber or task by the type it carries.
 */
final class DynamicValues {
    private DynamicValues() { }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** The type a value held at a type variable is written under: its runtime shape says what it is. */
    static final Type DYNAMIC = new Type.Var("?saved");

    /**
     * A value held at a type variable (a polymorphic word's slot), written by its runtime shape — every value Finch
     * makes says what it is — each part again by its shape; a function, fiber or task by the type it carries.
     */
    static JsonNode encode(Object v, ValueCodec.Closures cl) {
        if (v instanceof Long l) return F.objectNode().put("int", l);
        if (v instanceof Double d) return F.objectNode().put("float", Double.toString(d));
        if (v instanceof Boolean b) return F.objectNode().put("bool", b);
        if (v instanceof String s) return F.objectNode().put("string", s);
        if (v == Unit.INSTANCE) return F.objectNode().putNull("unit");
        if (v instanceof Bytes b) return F.objectNode().put("bytes", Base64.getEncoder().encodeToString(b.toArray()));
        if (v instanceof Symbol s) return F.objectNode().put("symbol", s.name());
        if (v instanceof JsonNode j) return F.objectNode().put("json", dev.finch.vm.value.Values.jsonText(j));
        if (v instanceof PathValue p) return F.objectNode().put("path", p.path().relative()).put("root", p.path().root().spelling());
        if (v instanceof OptionValue o) {
            ObjectNode n = F.objectNode();
            ArrayNode a = n.putArray("option");
            if (o.isSome()) a.add(ValueCodec.encodeChecked(DYNAMIC, o.value(), cl));
            return n;
        }
        if (v instanceof ResultValue r) return F.objectNode().set(r.isOk() ? "ok" : "err", ValueCodec.encodeChecked(DYNAMIC, r.value(), cl));
        if (v instanceof ListValue l) {
            ObjectNode n = F.objectNode();
            ArrayNode a = n.putArray("list");
            for (Object e : l) a.add(ValueCodec.encodeChecked(DYNAMIC, e, cl));
            return n;
        }
        if (v instanceof dev.finch.vm.value.MapValue m) {
            ObjectNode n = F.objectNode();
            ArrayNode a = n.putArray("map");
            for (Map.Entry<Object, Object> e : m.entrySet()) a.addArray().add(ValueCodec.encodeChecked(DYNAMIC, e.getKey(), cl)).add(ValueCodec.encodeChecked(DYNAMIC, e.getValue(), cl));
            return n;
        }
        if (v instanceof RecordValue r) {
            ObjectNode n = F.objectNode();
            ArrayNode a = n.putArray("record");
            for (int i = 0; i < r.size(); i++) a.add(ValueCodec.encodeChecked(DYNAMIC, r.get(i), cl));
            return n;
        }
        if (v instanceof VariantValue vv) {
            ObjectNode n = F.objectNode().put("variant", vv.tag());
            n.set("payload", ValueCodec.encodeChecked(DYNAMIC, vv.payload(), cl));
            return n;
        }
        if (v instanceof Money || v instanceof Duration) {
            return F.objectNode().set("named", ValueCodec.encodeChecked(new Type.Named("?", java.util.Optional.empty()), v, cl));
        }
        if (v instanceof dev.finch.vm.value.Closure c) {
            return F.objectNode().put("fn_type", c.type().toString()).set("fn", ValueCodec.encodeChecked(c.type(), c, cl));
        }
        if (v instanceof dev.finch.vm.value.Fiber f) {
            return F.objectNode().put("fiber_type", f.type().toString()).set("fiber_value", ValueCodec.encodeChecked(f.type(), f, cl));
        }
        if (ValueForms.of(v) != null) return F.objectNode().set("hosts", ValueForms.of(v).encode(v));
        if (v instanceof dev.finch.vm.value.StreamValue || v instanceof dev.finch.vm.value.OutputHandle) {
            Type t = v instanceof dev.finch.vm.value.StreamValue ? new Type.StreamT(DYNAMIC) : new Type.ResourceT(DYNAMIC);
            return F.objectNode().put("handle_kind", t.kind().name()).set("handle", ValueCodec.encodeChecked(t, v, cl));
        }
        // A task (a CPU task, a child agent or a step of the run): its value, when it has one, again by its shape.
        return F.objectNode().set("task", ValueCodec.encodeChecked(new Type.TaskT(DYNAMIC), v, cl));
    }

    static Object decode(JsonNode n, ValueCodec.Closures cl) {
        if (!n.isObject() || n.size() < 1) throw new ValueCodec.Malformed("a saved value of a polymorphic slot has no shape");
        if (n.has("int")) { ValueCodec.require(n.get("int").canConvertToLong(), DYNAMIC); return n.get("int").longValue(); }
        if (n.has("float")) return Double.parseDouble(n.get("float").asText());
        if (n.has("bool")) return n.get("bool").asBoolean();
        if (n.has("string")) return n.get("string").asText();
        if (n.has("unit")) return Unit.INSTANCE;
        if (n.has("bytes")) return Bytes.wrap(Base64.getDecoder().decode(n.get("bytes").asText()));
        if (n.has("symbol")) return new Symbol(n.get("symbol").asText());
        if (n.has("json")) return ValueCodec.decodeChecked(Type.Prim.JSON, n.get("json"), cl);
        if (n.has("path")) return ValueCodec.decodeChecked(new Type.PathT(n.path("root").asText()), n.get("path"), cl);
        if (n.has("option")) {
            JsonNode a = n.get("option");
            ValueCodec.require(a.isArray() && a.size() <= 1, DYNAMIC);
            return a.size() == 0 ? OptionValue.NONE : OptionValue.some(ValueCodec.decodeChecked(DYNAMIC, a.get(0), cl));
        }
        if (n.has("ok")) return ResultValue.ok(ValueCodec.decodeChecked(DYNAMIC, n.get("ok"), cl));
        if (n.has("err")) return ResultValue.err(ValueCodec.decodeChecked(DYNAMIC, n.get("err"), cl));
        if (n.has("list")) {
            List<Object> items = new ArrayList<>();
            for (JsonNode e : n.get("list")) items.add(ValueCodec.decodeChecked(DYNAMIC, e, cl));
            return ListValue.from(items);
        }
        if (n.has("map")) {
            dev.finch.vm.value.MapValue m = dev.finch.vm.value.MapValue.empty();
            for (JsonNode e : n.get("map")) {
                ValueCodec.require(e.isArray() && e.size() == 2, DYNAMIC);
                m = m.plus(ValueCodec.decodeChecked(DYNAMIC, e.get(0), cl), ValueCodec.decodeChecked(DYNAMIC, e.get(1), cl));
            }
            return m;
        }
        if (n.has("record")) {
            List<Object> values = new ArrayList<>();
            for (JsonNode e : n.get("record")) values.add(ValueCodec.decodeChecked(DYNAMIC, e, cl));
            return new RecordValue(values.toArray());
        }
        if (n.has("variant")) return new VariantValue(n.get("variant").asText(), ValueCodec.decodeChecked(DYNAMIC, n.get("payload"), cl));
        if (n.has("hosts")) {
            Object v = ValueForms.decodeAny(n.get("hosts"));
            if (v == null) throw new ValueCodec.Malformed("a saved value of a polymorphic slot names a form no word library here saves");
            return v;
        }
        if (n.has("named")) return ValueCodec.decodeChecked(new Type.Named("?", java.util.Optional.empty()), n.get("named"), cl);
        if (n.has("fn")) return ValueCodec.decodeChecked(dev.finch.ir.type.TypeSyntax.parse(n.path("fn_type").asText()), n.get("fn"), cl);
        if (n.has("fiber_value")) return ValueCodec.decodeChecked(dev.finch.ir.type.TypeSyntax.parse(n.path("fiber_type").asText()), n.get("fiber_value"), cl);
        if (n.has("handle")) {
            Type t = "STREAM".equals(n.path("handle_kind").asText()) ? new Type.StreamT(DYNAMIC) : new Type.ResourceT(DYNAMIC);
            return ValueCodec.decodeChecked(t, n.get("handle"), cl);
        }
        if (n.has("task")) return ValueCodec.decodeChecked(new Type.TaskT(DYNAMIC), n.get("task"), cl);
        throw new ValueCodec.Malformed("a saved value of a polymorphic slot has an unknown shape");
    }

}
