package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.vm.TypedValue;
import dev.finch.vm.boundary.EffectRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The one JSON form of the contract's event envelope ({@link EffectRequest}): {@code protocol}, {@code execution_id},
 * {@code sequence}, {@code requirement}, {@code operation}, {@code arguments} ({@code [{type, value}…]}, each value as
 * {@link ValueCodec} encodes its type), {@code expected_result} (type spellings) and {@code origin}. A continuation
 * saves it exactly; the portable form a remote host reads adds each argument's {@code display} and writes a value that
 * lives only in this process (a closure, a stream, a handle) as {@code null}.
 */
public final class RequestJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RequestJson() { }

    /**
     * The envelope of {@code r}. {@code portable}: with displays, a process-local value as null; otherwise (a saved
     * continuation) every value must encode, closures through {@code closures}.
     */
    public static ObjectNode encode(EffectRequest r, ValueCodec.Closures closures, boolean portable) {
        ObjectNode o = F.objectNode();
        o.put("protocol", r.protocol());
        o.put("execution_id", r.executionId());
        o.put("sequence", r.sequence());
        o.put("requirement", r.requirement().toString());
        o.put("operation", r.operation());
        ArrayNode args = o.putArray("arguments");
        for (TypedValue v : r.values()) {
            ObjectNode a = args.addObject();
            a.put("type", v.type().toString());
            a.set("value", portable ? portableValue(v) : ValueCodec.encode(v.type(), v.value(), closures));
            if (portable) a.put("display", v.display());
        }
        ArrayNode expected = o.putArray("expected_result");
        r.expectedResult().forEach(t -> expected.add(t.toString()));
        o.putObject("origin").put("source", r.origin().source()).put("line", r.origin().line()).put("column", r.origin().column());
        return o;
    }

    private static JsonNode portableValue(TypedValue v) {
        try {
            return ValueCodec.encode(v.type(), v.value());
        } catch (ValueCodec.NotDurable processLocal) {
            return F.nullNode();
        }
    }

    /** The envelope saved by {@link #encode} (not portable), its values decoded by type. */
    static EffectRequest decode(JsonNode o, ValueCodec.Closures closures) {
        List<TypedValue> args = new ArrayList<>();
        for (JsonNode a : o.get("arguments")) {
            Type t = TypeSyntax.parse(a.get("type").asText());
            args.add(new TypedValue(t, ValueCodec.decode(t, a.get("value"), closures)));
        }
        List<Type> expected = new ArrayList<>();
        o.get("expected_result").forEach(t -> expected.add(TypeSyntax.parse(t.asText())));
        JsonNode origin = o.get("origin");
        Capability req = Capability.parse(o.get("requirement").asText())
                .orElseThrow(() -> new Continuations.Refused("a saved requirement does not parse"));
        return new EffectRequest(o.get("protocol").asText(), o.get("execution_id").asText(), o.get("sequence").asLong(), req,
                o.get("operation").asText(), args, expected,
                Origin.of(origin.get("source").asText(), origin.get("line").asInt(), origin.get("column").asInt()));
    }
}
