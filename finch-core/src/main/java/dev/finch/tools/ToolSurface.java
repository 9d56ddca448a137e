package dev.finch.tools;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.Discovery;
import dev.finch.DiscoveryJson;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.LanguageDefinition;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.WordInfo;
import dev.finch.WordSummary;
import dev.finch.vm.OutputSink;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The contract's tools for a model provider, over one session: {@code get_vm_state}, {@code get_language_definition},
 * {@code search_word}, {@code inspect_word} (read-only discovery) and {@code submit_program}; with
 * {@link #withVmResume()}, also {@code vm_resume} for a remote host answering a deferred-host session's requests. An embedder declares
 * {@link #tools()} to its provider and passes each tool call to {@link #handle}, which returns the JSON text to hand
 * back to the model and never throws: a call that cannot be routed (unknown tool, malformed or invalid arguments)
 * gets {@code {"error":{"code":"E-TOOL-…","message":…,"tool":…}}}; a program's own failure is an ordinary outcome.
 *
 * <pre>{@code
 * ToolSurface tools = ToolSurface.of(session);
 * provider.declare(tools.tools());                       // name, description, JSON Schema each
 * String reply = tools.handle(call.name(), call.argumentsJson(), call.id());   // call id = source identity
 * }</pre>
 *
 * Arguments are parsed strictly (decisions D11): one object, no duplicate keys, no trailing text, bounded size
 * and depth, no unknown fields. The source identity of a submitted program is attached here, by the host, never
 * taken from the arguments. Immutable and thread-safe; the session itself runs one submission at a time.
 */
public final class ToolSurface {
    /** Longest program text {@code submit_program} accepts, in chars. */
    public static final int MAX_SOURCE_CHARS = 1 << 20;
    /** Longest arguments text accepted before parsing, in chars. */
    static final int MAX_ARGUMENT_CHARS = MAX_SOURCE_CHARS + (64 << 10);

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(16).maxNumberLength(32).maxStringLength(MAX_ARGUMENT_CHARS).build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    private final Session session;
    private final OutputSink sink;
    private final Supplier<String> sourceIds;
    private final int maxUnitYieldResumes;
    private final boolean vmResume;
    /** What {@code get_language_definition} answers when the call names no detail. */
    private final LanguageDefinition.Detail languageDetail;
    private final Map<String, Tool> tools;

    private ToolSurface(Session session, OutputSink sink, Supplier<String> sourceIds, int maxUnitYieldResumes, boolean vmResume,
                        LanguageDefinition.Detail languageDetail) {
        this.session = Objects.requireNonNull(session, "session");
        this.sink = sink == null ? OutputSink.NONE : sink;
        this.sourceIds = Objects.requireNonNull(sourceIds, "sourceIds");
        this.maxUnitYieldResumes = maxUnitYieldResumes;
        this.vmResume = vmResume;
        this.languageDetail = Objects.requireNonNull(languageDetail, "languageDetail");
        this.tools = declare();
    }

    /**
     * The tool surface of {@code session}. Programs submitted without an explicit source identity get
     * {@code tool:submit_program#N}; {@code say} output is not streamed (it is in the outcome); a plain unit
     * {@code yield} is resumed at once, up to 10,000 times per call (the contract's interactive rule).
     */
    public static ToolSurface of(Session session) {
        AtomicLong n = new AtomicLong();
        return new ToolSurface(session, OutputSink.NONE, () -> "tool:submit_program#" + n.incrementAndGet(), 10_000, false,
                LanguageDefinition.Detail.PRIMER);
    }

    /** This surface, streaming the {@code say} chunks of submitted programs to {@code out} as they run. */
    public ToolSurface withSink(OutputSink out) { return new ToolSurface(session, out, sourceIds, maxUnitYieldResumes, vmResume, languageDetail); }

    /** This surface, taking the source identity of calls that state none from {@code ids}. */
    public ToolSurface withSourceIds(Supplier<String> ids) { return new ToolSurface(session, sink, ids, maxUnitYieldResumes, vmResume, languageDetail); }

    /** This surface, resuming at most {@code max} unit yields per call (0: report every yield as suspended). */
    public ToolSurface withUnitYieldResumes(int max) {
        if (max < 0) throw new IllegalArgumentException("max must not be negative");
        return new ToolSurface(session, sink, sourceIds, max, vmResume, languageDetail);
    }

    /**
     * This surface with one more tool, {@code vm_resume}: the contract's {@code VmResume {execution_id, sequence,
     * response}}, for the host that performs a deferred-host session's requests remotely and answers them through
     * these tools (the {@code pending_request} of a suspended outcome says what to perform). Not offered by default:
     * a model that could answer its own program's effect requests would stand in for the host that performs them.
     */
    public ToolSurface withVmResume() { return new ToolSurface(session, sink, sourceIds, maxUnitYieldResumes, true, languageDetail); }

    /**
     * This surface, answering {@code get_language_definition} calls that name no {@code detail} at {@code detail}
     * (by default {@link LanguageDefinition.Detail#PRIMER}: the primer, a quarter of the full text, is what a model
     * needs on every turn; {@code search_word} and {@code inspect_word} answer the rest).
     */
    public ToolSurface withLanguageDetail(LanguageDefinition.Detail detail) {
        return new ToolSurface(session, sink, sourceIds, maxUnitYieldResumes, vmResume, detail);
    }

    /** The session the tools act on. */
    public Session session() { return session; }

    /** The tools, in a fixed order, each with its JSON Schema. */
    public List<ToolSpec> tools() {
        List<ToolSpec> out = new ArrayList<>();
        for (Tool t : tools.values()) out.add(new ToolSpec(t.name(), t.description(), DiscoveryJson.write(schema(t))));
        return out;
    }

    /** The tools as one JSON array of {@code {name, description, input_schema}}. */
    public String toolsJson() {
        ArrayNode a = F.arrayNode();
        for (Tool t : tools.values()) {
            ObjectNode o = a.addObject();
            o.put("name", t.name());
            o.put("description", t.description());
            o.set("input_schema", schema(t));
        }
        return DiscoveryJson.write(a);
    }

    /** Handles one tool call; a submitted program gets the next source identity from this surface. Never throws. */
    public String handle(String toolName, String jsonArguments) { return handle(toolName, jsonArguments, null); }

    /**
     * Handles one tool call with the host-attached source identity of a submitted program (for example the
     * provider's tool-call id; null: the surface's own). Returns JSON text; never throws.
     */
    public String handle(String toolName, String jsonArguments, String sourceId) {
        String name = toolName == null ? "" : toolName;
        try {
            Tool tool = tools.get(name);
            if (tool == null) {
                return error(ToolCode.UNKNOWN_TOOL, name, "no tool named '" + name + "'; the tools are " + String.join(", ", tools.keySet()), null);
            }
            Object parsed = parse(jsonArguments);
            if (parsed instanceof String problem) return error(ToolCode.MALFORMED_ARGUMENTS, name, problem, null);
            ObjectNode args = (ObjectNode) parsed;
            Optional<String> invalid = validate(tool, args);
            if (invalid.isPresent()) return error(ToolCode.INVALID_ARGUMENTS, name, invalid.get(), null);
            return tool.handler().handle(args, sourceId);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            // A defect of ours, never the caller's: one error object, nothing escapes to the provider loop.
            dev.finch.vm.boundary.HostText.log("tool " + name + " failed", e);
            return error(ToolCode.INTERNAL, name, "internal error: Finch could not answer this call (the host's log has the cause)", null);
        }
    }

    // ------------------------------------------------------------------------------------------- the tools

    /** Handles validated arguments. */
    private interface Handler {
        String handle(ObjectNode args, String sourceId);
    }

    private enum ParamType { STRING, INTEGER, OBJECT }

    /** One argument: its JSON type, whether it is required, its bounds; the schema and the validation both come from it. */
    private record Param(String name, ParamType type, boolean required, String description, long min, long max, List<String> values) {
        static Param string(String name, boolean required, String description, int minLength, int maxLength, String... values) {
            return new Param(name, ParamType.STRING, required, description, minLength, maxLength, List.of(values));
        }

        static Param integer(String name, boolean required, String description, long min, long max) {
            return new Param(name, ParamType.INTEGER, required, description, min, max, List.of());
        }

        static Param object(String name, boolean required, String description) {
            return new Param(name, ParamType.OBJECT, required, description, 0, 0, List.of());
        }
    }

    private record Tool(String name, String description, List<Param> params, Handler handler) { }

    private Map<String, Tool> declare() {
        Map<String, Tool> m = new LinkedHashMap<>();
        add(m, new Tool("get_vm_state",
                "The session's committed VM state: the stack bottom to top (the last entry is the top) with types and "
                        + "displays, vm_revision, manifest_generation, and the persisted definitions (with signatures) and "
                        + "constants. Call it before composing positional stack operations and state the observed "
                        + "vm_revision and manifest_generation when you submit.",
                List.of(), (a, id) -> DiscoveryJson.write(DiscoveryJson.tree(session.getVmState()))));
        add(m, new Tool("get_language_definition",
                "The language: by default (detail primer) the essentials of Lisp and Co-Forth — grammar in brief, types, "
                        + "idioms, the rules that surprise, the words to start with; language norman gives µNorman's primer. "
                        + "detail full gives the complete grammar of all three languages, every syntax form and every core "
                        + "word. Look up anything else with search_word and inspect_word.",
                List.of(Param.string("language", false, "lisp, forth or norman: only that language's part (and the shared parts).",
                        1, 16, "lisp", "forth", "norman"),
                        Param.string("detail", false, "primer (the default: the essentials) or full (everything).", 1, 16, "primer", "full")),
                this::language));
        add(m, new Tool("search_word",
                "Search core words, this session's definitions and constants, and source syntax (such as while or "
                        + "define) by name or by what they do (e.g. 'uppercase', 'split string', 'sort by key', 'read csv'), "
                        + "best match first; each hit has its signature (or form) and doc. Follow with inspect_word.",
                List.of(Param.string("query", true, "A name or a few words of what you need, e.g. 'string length' or 'read csv'.", 1, 200),
                        Param.integer("limit", false, "The most hits to return (default 20).", 1, 200)),
                this::search));
        add(m, new Tool("inspect_word",
                "One name in detail: a core word's signature and documentation, a persisted definition's signature and "
                        + "canonical Co-Forth source, a constant's type and value, or source syntax of Lisp, Co-Forth or µNorman "
                        + "with its form, meaning and an example in each language that has it (source syntax has no runtime "
                        + "signature). Inspect definitions instead of inventing words.",
                List.of(Param.string("name", true, "The word, definition, constant or syntax name, e.g. 'list-get', 'while' or 'datatype'.", 1, 200),
                        Param.string("language", false, "lisp, forth or norman: that language's form first when several have one.",
                                1, 16, "lisp", "forth", "norman")),
                this::inspect));
        add(m, new Tool("submit_program",
                "Run one Lisp, Co-Forth or µNorman program in this session. The result is the outcome object: status "
                        + "(completed, failed, suspended, cancelled), output (the say text), stack (bottom to top), "
                        + "diagnostics (phase, code, origin, expected, found), vm_revision, manifest_generation; a "
                        + "suspended outcome also has yielded and pending_request (what it waits for). Use say "
                        + "for text meant for the person; do not wrap the program in Markdown. Only a completed program "
                        + "commits its stack and definitions.",
                List.of(Param.string("source", true, "The program text.", 1, MAX_SOURCE_CHARS),
                        Param.string("language", false, "lisp, forth or norman; when omitted: lisp exactly when the first "
                                + "non-whitespace character is '(', else forth.", 1, 16, "lisp", "forth", "norman"),
                        Param.integer("expected_vm_revision", false, "The vm_revision observed with get_vm_state; a stale one is refused.", 0, Long.MAX_VALUE),
                        Param.integer("expected_manifest_generation", false, "The manifest_generation observed with get_vm_state; a stale one is refused.", 0, Long.MAX_VALUE)),
                this::submit));
        if (vmResume) {
            add(m, new Tool("vm_resume",
                    "Answer the request a suspended execution waits for (its pending_request, awaiting result) with the "
                            + "contract's VmResume: response is exactly one of {\"result\":{\"values\":[...]}} (one JSON-encoded "
                            + "value per type of expected_result, the encoding of the request's argument values: bytes as "
                            + "base64), {\"denied\":{\"reason\":\"...\"}} or {\"cancelled\":{\"reason\":\"...\"}}. The result is "
                            + "the outcome object; a stale or wrong answer is status refused, and the execution still waits.",
                    List.of(Param.string("execution_id", true, "The suspended execution's execution_id.", 1, 200),
                            Param.integer("sequence", true, "The pending_request's sequence.", 0, Long.MAX_VALUE),
                            Param.object("response", true, "Exactly one of result {values}, denied {reason}, cancelled {reason?}.")),
                    this::vmResume));
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    private static void add(Map<String, Tool> m, Tool t) { m.put(t.name(), t); }

    private String language(ObjectNode args, String sourceId) {
        Language language = args.hasNonNull("language") ? Language.named(args.get("language").textValue()).orElseThrow() : null;
        LanguageDefinition.Detail detail = args.hasNonNull("detail")
                ? LanguageDefinition.Detail.named(args.get("detail").textValue()).orElseThrow() : languageDetail;
        return DiscoveryJson.write(DiscoveryJson.tree(Discovery.languageDefinition(session.vocabulary(), language, detail)));
    }

    private String search(ObjectNode args, String sourceId) {
        String query = args.get("query").textValue();
        int limit = args.hasNonNull("limit") ? (int) args.get("limit").longValue() : 20;
        List<WordSummary> hits = session.searchWord(query);
        return DiscoveryJson.write(DiscoveryJson.searchTree(query, hits, limit));
    }

    private String inspect(ObjectNode args, String sourceId) {
        String name = args.get("name").textValue();
        Language language = args.hasNonNull("language") ? Language.named(args.get("language").textValue()).orElseThrow() : null;
        Optional<WordInfo> info = language == null ? session.inspectWord(name) : session.inspectWord(name, language);
        if (info.isPresent()) return DiscoveryJson.write(DiscoveryJson.tree(info.get()));
        return error(ToolCode.UNKNOWN_WORD, "inspect_word", dev.finch.Discovery.notFound(session.vocabulary(), name, language), session.suggestWords(name, 5));
    }

    private String submit(ObjectNode args, String sourceId) {
        String source = args.get("source").textValue();
        Language language = args.hasNonNull("language") ? Language.named(args.get("language").textValue()).orElseThrow() : null;
        OptionalLong revision = args.hasNonNull("expected_vm_revision") ? OptionalLong.of(args.get("expected_vm_revision").longValue()) : OptionalLong.empty();
        OptionalLong generation = args.hasNonNull("expected_manifest_generation")
                ? OptionalLong.of(args.get("expected_manifest_generation").longValue()) : OptionalLong.empty();
        String id = sourceId != null ? sourceId : sourceIds.get();
        return settled(session.submit(new Submission(source, language, id, revision, generation, sink)));
    }

    private String vmResume(ObjectNode args, String sourceId) {
        // The arguments are the VmResume itself: the session parses it as strictly as any VmResume text.
        return settled(session.respond(DiscoveryJson.write(args)));
    }

    /**
     * The outcome as JSON, after resuming plain unit yields (the contract's interactive rule) and waiting for the CPU
     * tasks a run joins (a scheduler suspension, not a pause for the provider).
     */
    private String settled(Outcome first) {
        Outcome o = session.awaitTasks(first);
        for (int i = 0; i < maxUnitYieldResumes && o instanceof Outcome.Suspended s && s.isUnitYield(); i++) {
            o = session.awaitTasks(session.resume(o.executionId()));
        }
        return FinchJson.write(o);
    }

    // ------------------------------------------------------------------------------------------- schema

    private static ObjectNode schema(Tool t) {
        ObjectNode s = F.objectNode();
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        ArrayNode required = F.arrayNode();
        for (Param p : t.params()) {
            ObjectNode ps = props.putObject(p.name());
            ps.put("type", p.type().name().toLowerCase(java.util.Locale.ROOT));
            ps.put("description", p.description());
            if (p.type() == ParamType.STRING) {
                if (!p.values().isEmpty()) {
                    ArrayNode e = ps.putArray("enum");
                    p.values().forEach(e::add);
                } else {
                    ps.put("minLength", p.min());
                    ps.put("maxLength", p.max());
                }
            } else if (p.type() == ParamType.INTEGER) {
                ps.put("minimum", p.min());
                if (p.max() != Long.MAX_VALUE) ps.put("maximum", p.max());
            }
            if (p.required()) required.add(p.name());
        }
        if (!required.isEmpty()) s.set("required", required);
        s.put("additionalProperties", false);
        return s;
    }

    /** The arguments object, or a String saying why the text is not one strict JSON object. */
    private static Object parse(String json) {
        // Providers send "" or nothing for a tool without parameters: that is the empty object.
        if (json == null || json.isBlank()) return F.objectNode();
        if (json.length() > MAX_ARGUMENT_CHARS) return "the arguments are longer than " + MAX_ARGUMENT_CHARS + " characters";
        JsonNode node;
        try {
            node = STRICT.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "the arguments are not valid JSON: " + e.getOriginalMessage();
        }
        if (node == null || !node.isObject()) return "the arguments must be one JSON object, not " + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        return node;
    }

    private static Optional<String> validate(Tool t, ObjectNode args) {
        Map<String, Param> known = new LinkedHashMap<>();
        for (Param p : t.params()) known.put(p.name(), p);
        for (Iterator<String> it = args.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.containsKey(f)) {
                return Optional.of("unknown field '" + f + "'" + (known.isEmpty() ? "; " + t.name() + " takes no arguments"
                        : "; the fields are " + String.join(", ", known.keySet())));
            }
        }
        for (Param p : t.params()) {
            JsonNode v = args.get(p.name());
            if (v == null || v.isNull()) {
                if (p.required()) return Optional.of("'" + p.name() + "' is required");
                continue;
            }
            if (p.type() == ParamType.STRING) {
                if (!v.isTextual()) return Optional.of("'" + p.name() + "' must be a string, not " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
                String s = v.textValue();
                if (!p.values().isEmpty()) {
                    if (!p.values().contains(s)) return Optional.of("'" + p.name() + "' must be one of " + String.join(", ", p.values()) + ", not '" + s + "'");
                } else if (s.length() < p.min() || s.length() > p.max()) {
                    return Optional.of("'" + p.name() + "' must have " + p.min() + " to " + p.max() + " characters, not " + s.length());
                }
            } else if (p.type() == ParamType.OBJECT) {
                if (!v.isObject()) return Optional.of("'" + p.name() + "' must be an object, not " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
            } else {
                if (!v.isIntegralNumber() || !v.canConvertToLong()) return Optional.of("'" + p.name() + "' must be an integer");
                long n = v.longValue();
                if (n < p.min() || n > p.max()) return Optional.of("'" + p.name() + "' must be between " + p.min() + " and " + p.max() + ", not " + n);
            }
        }
        return Optional.empty();
    }

    private static String error(ToolCode code, String tool, String message, List<String> suggestions) {
        ObjectNode o = F.objectNode();
        ObjectNode e = o.putObject("error");
        e.put("code", code.code());
        e.put("message", message);
        e.put("tool", tool);
        if (suggestions != null) {
            ArrayNode s = e.putArray("suggestions");
            suggestions.forEach(s::add);
        }
        return DiscoveryJson.write(o);
    }
}
