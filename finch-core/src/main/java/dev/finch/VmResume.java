package dev.finch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.Attempt;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.persist.ValueCodec;
import dev.finch.vm.value.Unit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The contract's {@code VmResume { execution_id, sequence, response }}: a host's answer to the one request a
 * suspended execution waits for, as JSON a remote host can send ({@link #fromJson}, {@link #toJson}) and
 * {@link Session#respond(VmResume)} takes. The response is exactly one of
 * <pre>{@code
 * {"result":{"values":[…]}}       the operation's results, one per type of the request's expected row
 * {"denied":{"reason":"…"}}       the host refused to perform it: the run fails with E-HOST-001
 * {"cancelled":{"reason":"…"}}    the reason is optional: the run ends cancelled
 * }</pre>
 * Each result value is the JSON encoding of a value of its row's type, the same encoding session images use
 * ({@link ValueCodec}; bytes are base64 text, see docs/embedding.md), and is decoded against the pending request's
 * expected row when the session takes the answer; one that does not fit is refused ({@code E-HOST-014}).
 *
 * <p>The text is untrusted input and parsed strictly (decisions D11): one object, no duplicate keys, no trailing
 * text, no unknown fields, at most {@link #MAX_CHARS} characters and {@link #MAX_DEPTH} levels. An optional
 * {@code "protocol"} field must then be {@code FINCH-VM-TYPED/1}. Anything else is a structured refusal
 * ({@code E-HOST-018}), never an exception.
 */
public record VmResume(String executionId, long sequence, Response response) {
    /** Longest VmResume text accepted, in chars (a file's bytes travel as base64 inside it). */
    public static final int MAX_CHARS = 64 << 20;
    /** Deepest nesting accepted (a result value nests as deep as its type). */
    public static final int MAX_DEPTH = 128;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH).maxNumberLength(32).maxStringLength(MAX_CHARS).build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    public VmResume {
        Objects.requireNonNull(executionId, "executionId");
        Objects.requireNonNull(response, "response");
    }

    /** The answer itself: exactly one of a result, a denial or a cancellation. */
    public sealed interface Response { }

    /** The operation's results, encoded: one JSON value per type of the expected row (none for an empty row). */
    public record Result(List<JsonNode> values) implements Response {
        public Result {
            List<JsonNode> copy = new ArrayList<>(values.size());
            for (JsonNode v : values) copy.add(Objects.requireNonNull(v, "value").deepCopy());
            values = List.copyOf(copy);
        }

        /** The values as independent copies (JSON nodes are mutable). */
        @Override public List<JsonNode> values() {
            List<JsonNode> out = new ArrayList<>(values.size());
            for (JsonNode v : values) out.add(v.deepCopy());
            return List.copyOf(out);
        }
    }

    /** The host will not perform the operation. */
    public record Denied(String reason) implements Response {
        public Denied { Objects.requireNonNull(reason, "reason"); }
    }

    /** The host cancelled the request; the reason is optional. */
    public record Cancelled(Optional<String> reason) implements Response {
        public Cancelled { Objects.requireNonNull(reason, "reason"); }
    }

    /** A result answer of {@code values} (each encoded as {@link ValueCodec} does). */
    public static VmResume result(String executionId, long sequence, List<JsonNode> values) {
        return new VmResume(executionId, sequence, new Result(values));
    }

    /** A result answer of typed {@code values}, the awaited row in order (none for a request that answers nothing). */
    public static VmResume result(String executionId, long sequence, dev.finch.vm.Value... values) {
        List<JsonNode> encoded = new java.util.ArrayList<>();
        for (dev.finch.vm.Value v : values) encoded.add(encode(v.type(), dev.finch.vm.TypedValue.of(v).value()));
        return result(executionId, sequence, encoded);
    }

    /** A denial. */
    public static VmResume denied(String executionId, long sequence, String reason) {
        return new VmResume(executionId, sequence, new Denied(reason));
    }

    /** A cancellation; {@code reason} may be null. */
    public static VmResume cancelled(String executionId, long sequence, String reason) {
        return new VmResume(executionId, sequence, new Cancelled(Optional.ofNullable(reason)));
    }

    /**
     * The encoded form of {@code value}, a VM value of {@code type} ({@code Bytes} for bytes, {@code Long} for int,
     * …, see {@link dev.finch.vm.TypedValue}), for a {@link Result}: how a Java host answers over JSON.
     *
     * @throws IllegalArgumentException when the value has no JSON form (a closure, a stream, a handle)
     */
    public static JsonNode encode(Type type, Object value) {
        try {
            return ValueCodec.encode(type, value);
        } catch (ValueCodec.NotDurable e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** The compact JSON text: {@code {"execution_id":…,"sequence":…,"response":{…}}}. */
    public String toJson() { return DiscoveryJson.write(tree()); }

    ObjectNode tree() {
        ObjectNode o = F.objectNode();
        o.put("execution_id", executionId);
        o.put("sequence", sequence);
        ObjectNode r = o.putObject("response");
        if (response instanceof Result res) {
            ArrayNode values = r.putObject("result").putArray("values");
            res.values.forEach(values::add);
        } else if (response instanceof Denied d) {
            r.putObject("denied").put("reason", d.reason());
        } else {
            ObjectNode x = r.putObject("cancelled");
            ((Cancelled) response).reason().ifPresent(why -> x.put("reason", why));
        }
        return o;
    }

    /** Parses a VmResume strictly; a refusal ({@code E-HOST-018}) says what is wrong. Never throws. */
    public static Attempt<VmResume> fromJson(String json) { return parse(json).resume(); }

    /** A parse: the resume, or its refusal together with the execution id when the text named one readably. */
    record Parsed(Optional<String> executionId, Attempt<VmResume> resume) { }

    static Parsed parse(String json) {
        if (json == null) return refused(null, "the VmResume is null");
        if (json.length() > MAX_CHARS) return refused(null, "the VmResume is longer than " + MAX_CHARS + " characters");
        JsonNode root;
        try {
            root = STRICT.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return refused(null, "the VmResume is not valid JSON: " + e.getOriginalMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return refused(null, "the VmResume is not valid JSON");
        }
        if (root == null || !root.isObject()) return refused(null, "a VmResume is one JSON object");
        JsonNode id = root.get("execution_id");
        String executionId = id != null && id.isTextual() && !id.textValue().isEmpty() ? id.textValue() : null;
        Optional<String> unknown = unknownField(root, Set.of("protocol", "execution_id", "sequence", "response"));
        if (unknown.isPresent()) return refused(executionId, "unknown field '" + unknown.get() + "'; a VmResume has execution_id, sequence and response");
        JsonNode protocol = root.get("protocol");
        if (protocol != null && !(protocol.isTextual() && protocol.textValue().equals(Outcome.PROTOCOL))) {
            return refused(executionId, "protocol must be " + Outcome.PROTOCOL + ", not " + protocol);
        }
        if (executionId == null) return refused(null, "execution_id must be a non-empty string");
        JsonNode seq = root.get("sequence");
        if (seq == null || !seq.isIntegralNumber() || !seq.canConvertToLong()) return refused(executionId, "sequence must be an integer");
        JsonNode response = root.get("response");
        if (response == null || !response.isObject() || response.size() != 1) {
            return refused(executionId, "response must be an object with exactly one of result, denied or cancelled");
        }
        String kind = response.fieldNames().next();
        JsonNode body = response.get(kind);
        if (!body.isObject()) return refused(executionId, "response." + kind + " must be an object");
        Response r;
        switch (kind) {
            case "result" -> {
                Optional<String> extra = unknownField(body, Set.of("values"));
                if (extra.isPresent()) return refused(executionId, "unknown field '" + extra.get() + "' in result; it has values");
                JsonNode values = body.get("values");
                if (values == null || !values.isArray()) return refused(executionId, "result.values must be an array");
                List<JsonNode> list = new ArrayList<>();
                values.forEach(list::add);
                r = new Result(list);
            }
            case "denied" -> {
                Optional<String> extra = unknownField(body, Set.of("reason"));
                if (extra.isPresent()) return refused(executionId, "unknown field '" + extra.get() + "' in denied; it has reason");
                JsonNode reason = body.get("reason");
                if (reason == null || !reason.isTextual()) return refused(executionId, "denied.reason must be a string");
                r = new Denied(reason.textValue());
            }
            case "cancelled" -> {
                Optional<String> extra = unknownField(body, Set.of("reason"));
                if (extra.isPresent()) return refused(executionId, "unknown field '" + extra.get() + "' in cancelled; it has an optional reason");
                JsonNode reason = body.get("reason");
                if (reason != null && !reason.isNull() && !reason.isTextual()) return refused(executionId, "cancelled.reason must be a string when present");
                r = new Cancelled(reason == null || reason.isNull() ? Optional.empty() : Optional.of(reason.textValue()));
            }
            default -> {
                return refused(executionId, "response must be result, denied or cancelled, not '" + kind + "'");
            }
        }
        return new Parsed(Optional.of(executionId), Attempt.ok(new VmResume(executionId, seq.longValue(), r)));
    }

    private static Optional<String> unknownField(JsonNode object, Set<String> known) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) return Optional.of(f);
        }
        return Optional.empty();
    }

    private static Parsed refused(String executionId, String why) {
        return new Parsed(Optional.ofNullable(executionId), Attempt.refused(HostCode.MALFORMED_RESUME.at(Origin.UNKNOWN,
                why + "; nothing was dispatched")));
    }

    /**
     * This answer as the VM's response to {@code request} (the one the execution waits for): result values decoded
     * against its expected row, one value per type (unit for an empty row); a refusal ({@code E-HOST-014}) when they
     * do not fit. The caller has checked the sequence.
     */
    Attempt<HostResponse> toHostResponse(EffectRequest request) {
        if (response instanceof Denied d) return Attempt.ok(new HostResponse.Denied(sequence, d.reason()));
        if (response instanceof Cancelled c) return Attempt.ok(new HostResponse.Cancelled(sequence, c.reason().orElse(null)));
        return decode(((Result) response).values, request).map(v -> new HostResponse.Result(sequence, v));
    }

    private Attempt<Object> decode(List<JsonNode> values, EffectRequest request) {
        List<Type> row = request.expectedResult();
        if (values.size() != row.size()) {
            return badResult(request, "request " + request.sequence() + " expects " + row.size() + " result value" + (row.size() == 1 ? "" : "s")
                    + ", not " + values.size(), row.toString(), values.size() + " values");
        }
        if (row.isEmpty()) return Attempt.ok(Unit.INSTANCE);
        if (row.size() > 1) return badResult(request, "request " + request.sequence() + " expects the row " + row + ", which no answer can carry", row.toString(), "");
        Type t = row.get(0);
        try {
            return Attempt.ok(ValueCodec.decode(t, values.get(0)));
        } catch (ValueCodec.Malformed | ValueCodec.NotDurable e) {
            String found = values.get(0).toString();
            return badResult(request, "the result value for request " + request.sequence() + " is not the JSON encoding of a " + t,
                    t.toString(), found.length() > 200 ? found.substring(0, 200) + "…" : found);
        }
    }

    private static Attempt<Object> badResult(EffectRequest request, String message, String expected, String found) {
        Diagnostic d = HostCode.BAD_RESULT.at(request.origin(), message + "; the execution still waits for its result", expected, found);
        return Attempt.refused(d);
    }
}
