package dev.finch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.boundary.EffectRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON forms of outcomes, check results and awaited host requests (decisions D4). The serializers are attached
 * to the types, so any {@link ObjectMapper} writes them the same way; they are written field by field so the key
 * order and the snake_case spelling are the protocol's, not a reflection of Java names.
 */
public final class FinchJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private FinchJson() { }

    /** One line of compact JSON for an outcome. */
    public static String write(Outcome outcome) { return writeValue(outcome); }

    /**
     * One line of compact JSON for an awaited host request (the contract's event envelope):
     * {@code {"protocol","execution_id","sequence","requirement","operation","arguments":[{"type","value","display"}…],
     * "expected_result":["<type>"…],"origin":{"source","line","column"}}}. Each argument's {@code value} is the JSON
     * encoding of the value of its type that session images and {@link VmResume} results use ({@link dev.finch.vm.persist.ValueCodec}:
     * bytes as base64 text, float as its decimal text, json as its compact text, …); it is {@code null} for a value
     * that lives only in this process (a closure, a stream, a handle), whose {@code display} is then all there is.
     */
    public static String write(EffectRequest request) { return DiscoveryJson.write(tree(request)); }

    /** The request of {@link #write(EffectRequest)} as a tree. */
    static ObjectNode tree(EffectRequest r) { return dev.finch.vm.persist.RequestJson.encode(r, null, true); }

    /** One line of compact JSON for a check result. */
    public static String write(CheckResult result) { return writeValue(result); }

    private static String writeValue(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            // Only strings, numbers and lists are written: a failure here is a defect, not a program's doing.
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the D4 outcome object. */
    public static final class OutcomeSerializer extends StdSerializer<Outcome> {
        private static final long serialVersionUID = 1L;

        public OutcomeSerializer() { super(Outcome.class); }

        @Override public void serialize(Outcome o, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeStringField("protocol", o.protocol());
            g.writeStringField("execution_id", o.executionId());
            g.writeStringField("source_id", o.sourceId());
            g.writeStringField("language", o.language());
            g.writeStringField("status", o.status().spelling());
            g.writeStringField("output", o.output());
            // D4, extended: the response's events in order (say chunks and output-handle events).
            g.writeFieldName("events");
            p.defaultSerializeValue(dev.finch.vm.persist.OutputEventJson.encode(o.events()), g);
            g.writeArrayFieldStart("stack");
            for (StackEntry e : o.stack()) {
                g.writeStartObject();
                g.writeStringField("type", e.type());
                g.writeStringField("display", e.display());
                g.writeEndObject();
            }
            g.writeEndArray();
            strings(g, "inferred_capabilities", o.inferredCapabilities());
            strings(g, "required_capabilities", o.requiredCapabilities());
            diagnostics(g, o.diagnostics());
            g.writeNumberField("vm_revision", o.vmRevision());
            g.writeNumberField("manifest_generation", o.manifestGeneration());
            // D4, extended: an outcome that leaves the execution waiting says what it waits for.
            if (o.status() == Outcome.Status.SUSPENDED || o.status() == Outcome.Status.REFUSED) {
                g.writeFieldName("yielded");
                if (o.yielded().isPresent()) {
                    g.writeStartObject();
                    g.writeStringField("type", o.yielded().get().type());
                    g.writeStringField("display", o.yielded().get().display());
                    g.writeEndObject();
                } else {
                    g.writeNull();
                }
                g.writeFieldName("pending_request");
                if (o.pendingRequest().isPresent()) {
                    ObjectNode r = tree(o.pendingRequest().get().request());
                    r.put("awaiting", o.pendingRequest().get().awaiting().spelling());
                    p.defaultSerializeValue(r, g);
                } else {
                    g.writeNull();
                }
                // Issue 15: what it waits for, in one word (yield, request or task).
                g.writeStringField("waiting", o.waiting().orElseThrow().spelling());
            }
            g.writeEndObject();
        }
    }

    /** Writes the {@code check --json} object of decisions D2. */
    public static final class CheckResultSerializer extends StdSerializer<CheckResult> {
        private static final long serialVersionUID = 1L;

        public CheckResultSerializer() { super(CheckResult.class); }

        @Override public void serialize(CheckResult r, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeStringField("status", r.status().spelling());
            g.writeStringField("language", r.language());
            g.writeArrayFieldStart("definitions");
            for (CheckResult.Definition d : r.definitions()) {
                g.writeStartObject();
                g.writeStringField("name", d.name());
                g.writeStringField("signature", d.signature());
                g.writeEndObject();
            }
            g.writeEndArray();
            strings(g, "inferred_capabilities", r.inferredCapabilities());
            diagnostics(g, r.diagnostics());
            g.writeEndObject();
        }
    }

    private static void strings(JsonGenerator g, String field, List<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String s : values) g.writeString(s);
        g.writeEndArray();
    }

    private static void diagnostics(JsonGenerator g, List<Diagnostic> diagnostics) throws IOException {
        g.writeArrayFieldStart("diagnostics");
        for (Diagnostic d : diagnostics) {
            g.writeStartObject();
            g.writeStringField("phase", d.phase().spelling());
            g.writeStringField("code", d.code());
            g.writeStringField("message", d.message());
            g.writeObjectFieldStart("origin");
            g.writeStringField("source", d.origin().source());
            g.writeNumberField("line", d.origin().line());
            g.writeNumberField("column", d.origin().column());
            g.writeEndObject();
            g.writeStringField("expected", d.expected());
            g.writeStringField("found", d.found());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
