package dev.finch.norman.providers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.norman.Askable;
import java.util.Map;

/**
 * A compact JSON Schema of an askable type: the shape {@code validate} accepts (strict JSON of the type), stated to a
 * model so it can answer in it. Text is a string ({@code maxLength} is the bound in UTF-8 bytes — the prompt says
 * so, because JSON Schema counts characters), Num a number, Bool a boolean, Sym a non-empty string, a list an array
 * ({@code maxItems} its bound), a record an object with exactly its fields, and a datatype one of its constructors,
 * each an object with a {@code "tag"} naming it plus exactly its fields. It is a statement to the model, not the
 * check: the reply is still validated against the type.
 */
public final class AskableSchema {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AskableSchema() { }

    /** The schema of {@code type} as compact JSON text (no whitespace; record fields in their sorted order). */
    public static String of(Askable type) { return node(type).toString(); }

    /**
     * The schema of {@code type} as a JSON tree. A recursive datatype or record is stated once under {@code $defs}
     * (by its name) and referred to with {@code {"$ref":"#/$defs/Name"}} wherever it occurs, itself included.
     */
    public static ObjectNode node(Askable type) {
        Map<String, ObjectNode> defs = new java.util.TreeMap<>();
        ObjectNode n = node(type, defs);
        if (!defs.isEmpty()) {
            ObjectNode d = n.putObject("$defs");
            defs.forEach(d::set);
        }
        return n;
    }

    private static ObjectNode node(Askable type, Map<String, ObjectNode> defs) {
        ObjectNode n = JSON.createObjectNode();
        if (type instanceof Askable.Ref r) return n.put("$ref", "#/$defs/" + r.name());
        String declared = type instanceof Askable.Record r ? r.name() : type instanceof Askable.Datatype d ? d.name() : null;
        if (declared != null && Askable.refersTo(declared, type, true)) {
            if (!defs.containsKey(declared)) {
                defs.put(declared, JSON.createObjectNode()); // placeholder while its body is made
                defs.put(declared, body(type, defs));
            }
            return n.put("$ref", "#/$defs/" + declared);
        }
        return body(type, defs);
    }

    private static ObjectNode body(Askable type, Map<String, ObjectNode> defs) {
        ObjectNode n = JSON.createObjectNode();
        if (type instanceof Askable.Text t) {
            n.put("type", "string");
            if (t.maxBytes().isPresent()) n.put("maxLength", t.maxBytes().getAsLong());
        } else if (type instanceof Askable.Num) {
            n.put("type", "number");
        } else if (type instanceof Askable.Bool) {
            n.put("type", "boolean");
        } else if (type instanceof Askable.Sym) {
            n.put("type", "string");
            n.put("minLength", 1);
        } else if (type instanceof Askable.ListOf l) {
            n.put("type", "array");
            n.set("items", node(l.element(), defs));
            if (l.maxItems().isPresent()) n.put("maxItems", l.maxItems().getAsLong());
        } else if (type instanceof Askable.Record r) {
            object(n, null, r.fields(), defs);
        } else {
            Askable.Datatype d = (Askable.Datatype) type;
            ArrayNode one = n.putArray("oneOf");
            d.constructors().forEach((tag, fields) -> object(one.addObject(), tag, fields, defs));
        }
        return n;
    }

    /** An object with exactly {@code fields} (and a {@code "tag"} of the constant {@code tag} when not null). */
    private static void object(ObjectNode n, String tag, Map<String, Askable> fields, Map<String, ObjectNode> defs) {
        n.put("type", "object");
        ObjectNode props = n.putObject("properties");
        ArrayNode required = JSON.createArrayNode();
        if (tag != null) {
            props.putObject("tag").put("const", tag);
            required.add("tag");
        }
        fields.forEach((name, t) -> {
            props.set(name, node(t, defs));
            required.add(name);
        });
        n.set("required", required);
        n.put("additionalProperties", false);
    }
}
