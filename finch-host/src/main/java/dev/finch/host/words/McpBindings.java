package dev.finch.host.words;

import dev.finch.host.McpHost;
import dev.finch.host.McpResult;
import dev.finch.host.McpTool;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.word.DataWord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The words an MCP server's tools become (contract: "A discovered tool with an admissible object schema is published
 * as mcp.&lt;server&gt;.&lt;tool&gt; with one typed-record input…"): for each tool, one word
 * {@code mcp.<server>.<tool> : IN -> result<OUT,string> ! {mcp.call(server,tool)}}, where
 * <ul>
 *   <li><b>IN</b> is the record its {@code inputSchema} describes when every property is admissible — {@code string},
 *       {@code integer} (int), {@code number} (float), {@code boolean}, {@code array} of an admissible {@code items},
 *       and nested {@code object}s with {@code properties} (records); a required property is a field of its type, an
 *       optional one a field of {@code option<T>}; every property name a record field name ({@code [A-Za-z_][A-Za-z0-9_]*}).
 *       An object schema with any other property shape ({@code anyOf}, a type list, {@code $ref}, a name with a space…)
 *       takes one managed {@code json} input instead, sent as it is;</li>
 *   <li><b>OUT</b> is the record its {@code outputSchema} describes when that is admissible likewise (the tool's
 *       {@code structuredContent}, checked against it), else {@code json}: the structured content when the tool sends
 *       some, else its {@code content} array;</li>
 *   <li>an {@code isError} result is {@code err} with the tool's text.</li>
 * </ul>
 * A tool whose input schema is not an object schema, or whose server or tool name is not a capability name, has no
 * word (it stays reachable through {@code mcp-call}). Names map by one rule ({@link #wordName}). Each binding carries a
 * schema hash ({@link #schemaHash}) in its overload id, so a changed schema is a new overload.
 */
public final class McpBindings {
    private McpBindings() { }

    /** A record field name both frontends spell. */
    private static final Pattern FIELD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Deepest schema nesting that becomes a type. */
    private static final int MAX_DEPTH = 16;

    /** True when {@code name} can be a parameter of {@code mcp.call(server,tool)}. */
    public static boolean capabilityName(String name) { return dev.finch.capabilities.NamePattern.isName(name); }

    /**
     * The word of {@code tool} on {@code server}: {@code mcp.<server>.<tool>}, where in each part every character other
     * than an ASCII letter, digit, {@code _} or {@code -} becomes {@code _} (so {@code files.read} of server
     * {@code my docs} is {@code mcp.my_docs.files_read}). Two tools of one server that map to one name: the first by
     * tool name keeps the word, the other is reachable through {@code mcp-call} only.
     */
    public static String wordName(String server, String tool) { return "mcp." + part(server) + "." + part(tool); }

    private static String part(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ? c : '_');
        }
        return b.toString();
    }

    /** The SHA-256 of the tool's input and output schemas in canonical JSON (object keys sorted), in hex. */
    public static String schemaHash(McpTool tool) {
        StringBuilder b = new StringBuilder();
        canonical(tool.inputSchema(), b);
        b.append('\n');
        if (tool.outputSchema() != null) canonical(tool.outputSchema(), b);
        return dev.finch.ir.Sha256.hex(b.toString());
    }

    private static void canonical(JsonNode n, StringBuilder b) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            n.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            b.append('{');
            String sep = "";
            for (var e : sorted.entrySet()) {
                b.append(sep).append(JsonNodeFactory.instance.textNode(e.getKey())).append(':');
                canonical(e.getValue(), b);
                sep = ",";
            }
            b.append('}');
        } else if (n.isArray()) {
            b.append('[');
            String sep = "";
            for (JsonNode e : n) { b.append(sep); canonical(e, b); sep = ","; }
            b.append(']');
        } else {
            b.append(n);
        }
    }

    /** The type {@code schema} describes, if it is admissible (see the class comment). */
    public static Optional<Type> typeOf(JsonNode schema) { return Optional.ofNullable(type(schema, 0)); }

    /** The record an object schema describes, if it is one and admissible. */
    private static Type.RecordT objectType(JsonNode schema, int depth) {
        if (!schema.isObject() || !"object".equals(schema.path("type").textValue())) return null;
        JsonNode props = schema.path("properties");
        if (!props.isMissingNode() && !props.isObject()) return null;
        Set<String> required = new LinkedHashSet<>();
        JsonNode req = schema.path("required");
        if (req.isArray()) for (JsonNode r : req) if (r.isTextual()) required.add(r.textValue());
        Map<String, Type> fields = new LinkedHashMap<>();
        for (var e : props.properties()) {
            if (!FIELD.matcher(e.getKey()).matches()) return null;
            Type t = type(e.getValue(), depth + 1);
            if (t == null) return null;
            fields.put(e.getKey(), required.contains(e.getKey()) ? t : new Type.OptionT(t));
        }
        return new Type.RecordT(fields);
    }

    private static Type type(JsonNode schema, int depth) {
        if (depth > MAX_DEPTH || !schema.isObject() || schema.has("$ref") || schema.has("anyOf") || schema.has("oneOf") || schema.has("allOf")) return null;
        JsonNode t = schema.path("type");
        if (!t.isTextual()) return null;
        switch (t.textValue()) {
            case "string": return Type.STRING;
            case "integer": return Type.INT;
            case "number": return Type.FLOAT;
            case "boolean": return Type.BOOL;
            case "array": {
                Type item = type(schema.path("items"), depth + 1);
                return item == null ? null : new Type.ListT(item);
            }
            case "object": return objectType(schema, depth);
            default: return null;
        }
    }

    /** Whether {@code tool} is published as a word: an object input schema and names a grant can spell. */
    public static boolean publishable(McpTool tool) {
        return capabilityName(tool.server()) && capabilityName(tool.name())
                && tool.inputSchema().isObject() && "object".equals(tool.inputSchema().path("type").textValue());
    }

    /** The signature of {@code tool}'s word. */
    public static Type.Fn signature(McpTool tool) {
        Type in = Optional.<Type>ofNullable(objectType(tool.inputSchema(), 0)).orElse(Type.JSON);
        Type out = tool.outputSchema() == null ? Type.JSON : Optional.<Type>ofNullable(objectType(tool.outputSchema(), 0)).orElse(Type.JSON);
        return new Type.Fn(List.of(in), List.of(new Type.ResultT(out, Type.STRING)),
                new java.util.TreeSet<>(List.of(Capability.of("mcp.call", tool.server(), tool.name()))), Optional.empty());
    }

    /** The words of {@code tools}, each calling its tool through {@code host}; see the class comment. */
    public static List<DataWord> words(List<McpTool> tools, McpHost host) {
        Map<String, DataWord> out = new LinkedHashMap<>();
        List<McpTool> sorted = new ArrayList<>(tools);
        sorted.sort(java.util.Comparator.comparing(McpTool::server).thenComparing(McpTool::name));
        for (McpTool t : sorted) {
            if (!publishable(t)) continue;
            String name = wordName(t.server(), t.name());
            if (out.containsKey(name)) continue;
            Type.Fn sig = signature(t);
            String hash = schemaHash(t);
            String doc = (t.description().isBlank() ? "" : t.description().strip() + " ")
                    + "(MCP tool `" + t.name() + "` of server `" + t.server() + "`; schema sha256:" + hash.substring(0, 16) + ")";
            out.put(name, new DataWord(name, doc, sig, name + "#" + hash.substring(0, 16), new Call(t, sig, host)));
        }
        return List.copyOf(out.values());
    }

    /** One tool's word body: the record as JSON arguments, the result as the declared output. */
    private record Call(McpTool tool, Type.Fn sig, McpHost host) implements DataWord.Body {
        @Override public Object call(Object[] inputs, dev.finch.vm.boundary.Watch watch) throws HostFailure {
            Type in = sig.ins().get(0);
            JsonNode args = in.equals(Type.JSON) ? (JsonNode) inputs[0] : toJson(in, inputs[0]);
            if (!args.isObject()) throw new HostFailure(HostCode.BAD_ARGUMENT, "the arguments of MCP tool `" + tool.name() + "` must be a JSON object, not " + args.getNodeType());
            McpResult r = host.call(tool.server(), tool.name(), args, watch);
            if (r.error()) return ResultValue.err(r.text());
            Type out = ((Type.ResultT) sig.outs().get(0)).ok();
            if (out.equals(Type.JSON)) return ResultValue.ok(managed(r.output(), tool.server(), tool.name()));
            if (r.structured() == null) {
                throw new HostFailure(HostCode.MCP_BAD_OUTPUT, "MCP tool `" + tool.name() + "` of `" + tool.server() + "` declares an outputSchema but sent no structured content");
            }
            try {
                return ResultValue.ok(fromJson(out, r.structured(), "structuredContent"));
            } catch (IllegalArgumentException misfit) {
                throw new HostFailure(HostCode.MCP_BAD_OUTPUT, "MCP tool `" + tool.name() + "` of `" + tool.server() + "` answered output that does not fit "
                        + out + ": " + misfit.getMessage());
            }
        }
    }

    /** A tool's JSON as the VM's managed json: read again strictly, so it keeps json's bounds (depth, numbers). */
    static JsonNode managed(JsonNode n, String server, String tool) throws HostFailure {
        ResultValue parsed = (ResultValue) dev.finch.vm.value.JsonValues.parse(n.toString());
        if (!parsed.isOk()) {
            throw new HostFailure(HostCode.MCP_BAD_OUTPUT, "MCP tool `" + tool + "` of `" + server + "` answered JSON Finch does not hold: " + parsed.value());
        }
        return (JsonNode) parsed.value();
    }

    /** A VM value of an admissible type as JSON (a none option field is left out). */
    static JsonNode toJson(Type t, Object v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (t.kind()) {
            case PRIM:
                if (t.equals(Type.STRING)) return f.textNode((String) v);
                if (t.equals(Type.INT)) return f.numberNode((Long) v);
                if (t.equals(Type.FLOAT)) return f.numberNode((Double) v);
                if (t.equals(Type.BOOL)) return f.booleanNode((Boolean) v);
                if (t.equals(Type.JSON)) return (JsonNode) v;
                break;
            case LIST: {
                ArrayNode a = f.arrayNode();
                for (Object x : (ListValue) v) a.add(toJson(((Type.ListT) t).element(), x));
                return a;
            }
            case RECORD: {
                ObjectNode o = f.objectNode();
                RecordValue r = (RecordValue) v;
                int i = 0;
                for (var e : ((Type.RecordT) t).fields().entrySet()) {
                    Object x = r.get(i++);
                    if (e.getValue() instanceof Type.OptionT opt) {
                        OptionValue ov = (OptionValue) x;
                        if (ov.isSome()) o.set(e.getKey(), toJson(opt.value(), ov.value()));
                    } else {
                        o.set(e.getKey(), toJson(e.getValue(), x));
                    }
                }
                return o;
            }
            default:
                break;
        }
        throw new IllegalStateException("not an MCP binding type: " + t);
    }

    /** JSON as a VM value of an admissible type; {@code IllegalArgumentException} naming where it does not fit. */
    static Object fromJson(Type t, JsonNode n, String at) {
        switch (t.kind()) {
            case PRIM:
                if (t.equals(Type.STRING) && n.isTextual()) return n.textValue();
                if (t.equals(Type.INT) && n.isIntegralNumber() && n.canConvertToLong()) return n.longValue();
                if (t.equals(Type.INT) && n.isNumber() && !n.isIntegralNumber() && n.decimalValue().stripTrailingZeros().scale() <= 0 && n.canConvertToLong()) return n.longValue();
                if (t.equals(Type.FLOAT) && n.isNumber()) return n.doubleValue();
                if (t.equals(Type.BOOL) && n.isBoolean()) return n.booleanValue();
                break;
            case LIST:
                if (n.isArray()) {
                    List<Object> items = new ArrayList<>();
                    int i = 0;
                    for (JsonNode x : n) items.add(fromJson(((Type.ListT) t).element(), x, at + "[" + i++ + "]"));
                    return ListValue.from(items);
                }
                break;
            case RECORD:
                if (n.isObject()) {
                    var fields = ((Type.RecordT) t).fields();
                    Object[] values = new Object[fields.size()];
                    int i = 0;
                    for (var e : fields.entrySet()) {
                        JsonNode x = n.get(e.getKey());
                        if (e.getValue() instanceof Type.OptionT opt) {
                            values[i++] = x == null || x.isNull() ? OptionValue.NONE : OptionValue.some(fromJson(opt.value(), x, at + "." + e.getKey()));
                        } else {
                            if (x == null) throw new IllegalArgumentException(at + "." + e.getKey() + " is missing");
                            values[i++] = fromJson(e.getValue(), x, at + "." + e.getKey());
                        }
                    }
                    return new RecordValue(values);
                }
                break;
            default:
                break;
        }
        throw new IllegalArgumentException(at + " is " + n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + ", not " + t);
    }
}
