package dev.finch.norman;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an ask or call site tells the host binding about itself: the answer's askable type and, for an ask, the
 * terms of the model grant it asks (model id and prices). The lowering spells it as the {@code key} argument of the
 * words {@code model-ask} and {@code tool-call} ({@link #spell()}: canonical JSON), so a binding needs nothing but
 * the call itself — no side table from the program — and the same compiled program works with any host: the test
 * harness, an embedder's VM run, a session.
 *
 * @param type  the answer's (or the tool result's) askable type, bounds included
 * @param model for an ask, the grant's model terms; empty for a tool call
 */
public record SiteKey(Askable type, Optional<Model> model) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The key of a kernel's {@code fork} call, which asks for a new instance rather than a typed result. */
    public static final String FORK = "fork";

    /**
     * A model grant's terms: the model id it declares ({@code [id "…"]}, else empty: the binding's default), prices in
     * micro-dollars per input and output token ({@code [in n]} {@code [out n]}, default 3 and 15) and the ceiling on
     * output tokens ({@code [ceiling n]}, default 4096).
     */
    public record Model(Optional<String> id, long in, long out, long ceiling) {
        public static final long DEFAULT_IN = 3, DEFAULT_OUT = 15, DEFAULT_CEILING = 4096;

        /** The terms a model grant declares, with the defaults for what it omits. */
        public static Model of(Ast.Grant g) {
            Optional<String> id = Optional.empty();
            long in = DEFAULT_IN, out = DEFAULT_OUT, ceiling = DEFAULT_CEILING;
            for (Ast.HostEntry e : g.entries()) {
                if (e.value().isEmpty()) continue;
                Sx v = e.value().get();
                switch (e.key()) {
                    case "id" -> { if (v instanceof Sx.Str s) id = Optional.of(s.value()); }
                    case "in" -> in = number(v, in);
                    case "out" -> out = number(v, out);
                    case "ceiling" -> ceiling = number(v, ceiling);
                    default -> { }
                }
            }
            return new Model(id, in, out, ceiling);
        }

        private static long number(Sx v, long fallback) {
            if (!(v instanceof Sx.Atom a)) return fallback;
            try {
                return Long.parseLong(a.text());
            } catch (NumberFormatException e) {
                return fallback;
            }
        }
    }

    /** The key of a tool call's result type. */
    public static SiteKey call(Askable type) { return new SiteKey(type, Optional.empty()); }

    /** The key of an ask of a model grant with {@code terms}. */
    public static SiteKey ask(Askable type, Model terms) { return new SiteKey(type, Optional.of(terms)); }

    /** The canonical JSON spelling: {@code {"type":…}} plus {@code "model":{…}} for an ask. */
    public String spell() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        model.ifPresent(m -> {
            ObjectNode n = o.putObject("model");
            m.id().ifPresent(id -> n.put("id", id));
            n.put("in", m.in()).put("out", m.out()).put("ceiling", m.ceiling());
        });
        o.set("type", json(type));
        return o.toString();
    }

    /** The key {@link #spell()} wrote, or empty for any other text. */
    public static Optional<SiteKey> parse(String key) {
        try {
            JsonNode o = JSON.readTree(key);
            if (o == null || !o.isObject() || !o.has("type")) return Optional.empty();
            Optional<Model> model = Optional.ofNullable(o.get("model")).map(m -> new Model(
                    m.has("id") ? Optional.of(m.get("id").asText()) : Optional.empty(),
                    m.path("in").asLong(Model.DEFAULT_IN), m.path("out").asLong(Model.DEFAULT_OUT), m.path("ceiling").asLong(Model.DEFAULT_CEILING)));
            return askable(o.get("type")).map(t -> new SiteKey(t, model));
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static JsonNode json(Askable t) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (t instanceof Askable.Text x) {
            o.put("kind", "text");
            if (x.maxBytes().isPresent()) o.put("max", x.maxBytes().getAsLong());
        } else if (t instanceof Askable.Num) {
            o.put("kind", "num");
        } else if (t instanceof Askable.Bool) {
            o.put("kind", "bool");
        } else if (t instanceof Askable.Sym) {
            o.put("kind", "sym");
        } else if (t instanceof Askable.ListOf l) {
            o.put("kind", "list");
            o.set("of", json(l.element()));
            if (l.maxItems().isPresent()) o.put("max", l.maxItems().getAsLong());
        } else if (t instanceof Askable.Record r) {
            o.put("kind", "record").put("name", r.name());
            o.set("fields", fields(r.fields()));
        } else {
            Askable.Datatype d = (Askable.Datatype) t;
            o.put("kind", "datatype").put("name", d.name());
            ObjectNode cs = o.putObject("constructors");
            d.constructors().forEach((c, f) -> cs.set(c, fields(f)));
        }
        return o;
    }

    private static ObjectNode fields(Map<String, Askable> fields) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        fields.forEach((n, t) -> o.set(n, json(t)));
        return o;
    }

    private static Optional<Askable> askable(JsonNode o) {
        OptionalLong max = o.has("max") ? OptionalLong.of(o.get("max").asLong()) : OptionalLong.empty();
        switch (o.path("kind").asText()) {
            case "text": return Optional.of(new Askable.Text(max));
            case "num": return Optional.of(new Askable.Num());
            case "bool": return Optional.of(new Askable.Bool());
            case "sym": return Optional.of(new Askable.Sym());
            case "list": return askable(o.path("of")).map(e -> new Askable.ListOf(e, max));
            case "record": return fields(o.path("fields")).map(f -> new Askable.Record(o.path("name").asText(), f));
            case "datatype": {
                Map<String, Map<String, Askable>> cs = new LinkedHashMap<>();
                var it = o.path("constructors").fields();
                while (it.hasNext()) {
                    var c = it.next();
                    Optional<Map<String, Askable>> f = fields(c.getValue());
                    if (f.isEmpty()) return Optional.empty();
                    cs.put(c.getKey(), f.get());
                }
                return Optional.of(new Askable.Datatype(o.path("name").asText(), cs));
            }
            default: return Optional.empty();
        }
    }

    private static Optional<Map<String, Askable>> fields(JsonNode o) {
        if (!o.isObject()) return Optional.empty();
        Map<String, Askable> out = new LinkedHashMap<>();
        var it = o.fields();
        while (it.hasNext()) {
            var f = it.next();
            Optional<Askable> t = askable(f.getValue());
            if (t.isEmpty()) return Optional.empty();
            out.put(f.getKey(), t.get());
        }
        return Optional.of(out);
    }
}
