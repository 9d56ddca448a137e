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
     * A model grant's terms, as the program states them: the model id it declares ({@code [id "…"]}, else empty: the
     * grant's name names the model), its prices ({@code [in p]} {@code [out p]}: micro-dollars per input and output
     * token, exact to a millionth of a micro-dollar, so {@code [in 0.25]} is $0.25 a million tokens — held here as
     * micro-dollars per <em>million</em> tokens, a whole number), the ceiling on output tokens ({@code [ceiling n]})
     * and the thinking tokens an ask reserves ({@code [think n]}), each empty when the grant omits it. Under a script
     * the stated terms are the prices, with {@link #DEFAULT_IN}, {@link #DEFAULT_OUT}, {@link #DEFAULT_CEILING} and no
     * thinking for what is omitted; under a host's world ({@code ModelWorld}) the host's prices apply and a stated price
     * may not be lower than the host's, a stated ceiling only narrows the host's. A price is {@code 0..}{@link #MAX_PRICE}
     * per million tokens, a ceiling {@code 1..Long.MAX_VALUE}, think {@code 0..Long.MAX_VALUE} ({@link #refusal}).
     */
    public record Model(Optional<String> id, OptionalLong inPerMillion, OptionalLong outPerMillion, OptionalLong ceiling, OptionalLong think) {
        /** The script's prices for what a grant omits, per million tokens ($3 and $15), and its ceiling. */
        public static final long DEFAULT_IN = 3_000_000, DEFAULT_OUT = 15_000_000, DEFAULT_CEILING = 4096;

        /** The highest price a grant may state, per million tokens: a million dollars a token. */
        public static final long MAX_PRICE = 1_000_000_000_000_000_000L;

        /** Digits a stated price may have after its point: a millionth of a micro-dollar a token. */
        public static final int PRICE_DECIMALS = 6;

        /** @throws IllegalArgumentException for a stated value out of its range ({@link #refusal}) */
        public Model {
            java.util.Objects.requireNonNull(id, "id");
            check("in", inPerMillion);
            check("out", outPerMillion);
            check("ceiling", ceiling);
            check("think", think);
        }

        private static void check(String field, OptionalLong v) {
            if (v.isPresent()) refusal(field, v.getAsLong()).ifPresent(why -> { throw new IllegalArgumentException(why); });
        }

        /** Stated terms from prices per million tokens and a ceiling, all stated, and no thinking. */
        public static Model of(Optional<String> id, long inPerMillion, long outPerMillion, long ceiling) {
            return new Model(id, OptionalLong.of(inPerMillion), OptionalLong.of(outPerMillion), OptionalLong.of(ceiling), OptionalLong.empty());
        }

        /**
         * Why {@code value} cannot be the grant field {@code field} ({@code in} and {@code out} per million tokens,
         * {@code ceiling}, {@code think}), or empty when it can.
         */
        public static Optional<String> refusal(String field, long value) {
            return switch (field) {
                case "in", "out" -> value >= 0 && value <= MAX_PRICE ? Optional.empty() : Optional.of("a price is from 0 to a million dollars a token ("
                        + perToken(MAX_PRICE) + " micro-dollars), not " + perToken(value));
                case "ceiling" -> value >= 1 ? Optional.empty() : Optional.of("a ceiling is a whole number of output tokens, at least 1, not " + value);
                case "think" -> value >= 0 ? Optional.empty() : Optional.of("think is a whole number of tokens, not " + value);
                default -> Optional.of("a model grant has no field " + field);
            };
        }

        /** A price per million tokens written as the grant writes it, in micro-dollars a token ({@code 250000} → {@code 0.25}). */
        public static String perToken(long perMillion) {
            return java.math.BigDecimal.valueOf(perMillion, PRICE_DECIMALS).stripTrailingZeros().toPlainString();
        }

        /**
         * A price as a grant writes it — micro-dollars a token in decimal digits with at most {@link #PRICE_DECIMALS}
         * after an optional point ({@code 3}, {@code 0.25}, {@code 1.125}) — as micro-dollars per million tokens; empty
         * for anything else (a sign, an exponent, a finer fraction, more than {@link #MAX_PRICE}).
         */
        public static OptionalLong price(String text) {
            int dot = text.indexOf('.');
            String whole = dot < 0 ? text : text.substring(0, dot);
            String frac = dot < 0 ? "" : text.substring(dot + 1);
            if (whole.isEmpty() || whole.length() > 13 || frac.length() > PRICE_DECIMALS || (dot >= 0 && frac.isEmpty())
                    || !(whole + frac).chars().allMatch(c -> c >= '0' && c <= '9')) {
                return OptionalLong.empty();
            }
            long v = Long.parseLong(whole) * 1_000_000L + (frac.isEmpty() ? 0 : Long.parseLong(frac + "0".repeat(PRICE_DECIMALS - frac.length())));
            return v <= MAX_PRICE ? OptionalLong.of(v) : OptionalLong.empty();
        }

        /** The terms a model grant declares (the syntax checked them: {@code Syntax}); what it omits is empty. */
        public static Model of(Ast.Grant g) {
            Optional<String> id = Optional.empty();
            OptionalLong in = OptionalLong.empty(), out = OptionalLong.empty(), ceiling = OptionalLong.empty(), think = OptionalLong.empty();
            for (Ast.HostEntry e : g.entries()) {
                if (e.value().isEmpty()) continue;
                Sx v = e.value().get();
                switch (e.key()) {
                    case "id" -> { if (v instanceof Sx.Str s) id = Optional.of(s.value()); }
                    case "in" -> in = stated(v, true);
                    case "out" -> out = stated(v, true);
                    case "ceiling" -> ceiling = stated(v, false);
                    case "think" -> think = stated(v, false);
                    default -> { }
                }
            }
            return new Model(id, in, out, ceiling, think);
        }

        /** The price per million input tokens under a script: the stated one, else {@link #DEFAULT_IN}. */
        public long scriptIn() { return inPerMillion.orElse(DEFAULT_IN); }

        /** The price per million output tokens under a script: the stated one, else {@link #DEFAULT_OUT}. */
        public long scriptOut() { return outPerMillion.orElse(DEFAULT_OUT); }

        /** The ceiling under a script: the stated one, else {@link #DEFAULT_CEILING}. */
        public long scriptCeiling() { return ceiling.orElse(DEFAULT_CEILING); }

        /** The thinking tokens an ask reserves: the stated ones, else none. */
        public long thinkTokens() { return think.orElse(0); }

        /** The value of a numeric grant field, parsed strictly (the syntax refuses what this cannot read). */
        private static OptionalLong stated(Sx v, boolean isPrice) {
            OptionalLong n = v instanceof Sx.Atom a ? (isPrice ? price(a.text()) : wholeNumber(a.text())) : OptionalLong.empty();
            if (n.isEmpty()) throw new IllegalArgumentException("a model grant's numeric field is not " + (isPrice ? "a price" : "a whole number") + ": " + v);
            return n;
        }

        /** {@code text} as a whole number written in decimal digits only, or empty (a sign, a point, too many digits). */
        public static OptionalLong wholeNumber(String text) {
            if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) return OptionalLong.empty();
            try {
                return OptionalLong.of(Long.parseLong(text));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
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
            m.inPerMillion().ifPresent(v -> n.put("in_per_million", v));
            m.outPerMillion().ifPresent(v -> n.put("out_per_million", v));
            m.ceiling().ifPresent(v -> n.put("ceiling", v));
            m.think().ifPresent(v -> n.put("think", v));
        });
        o.set("type", json(type));
        return o.toString();
    }

    /** The key {@link #spell()} wrote, or empty for any other text. */
    public static Optional<SiteKey> parse(String key) {
        try {
            JsonNode o = JSON.readTree(key);
            if (o == null || !o.isObject() || !o.has("type")) return Optional.empty();
            Optional<Model> model = Optional.empty();
            if (o.has("model")) {
                model = model(o.get("model"));
                if (model.isEmpty()) return Optional.empty();
            }
            Optional<Model> terms = model;
            return askable(o.get("type")).map(t -> new SiteKey(t, terms));
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The model terms of a key, strictly: only the fields {@link #spell()} writes, each of its kind — an id a string,
     * the others integral JSON numbers in their range ({@link Model#refusal}). A key is data any program can build
     * (the word {@code model-ask} takes it as text), so a negative price, a fraction or a number past a long is no
     * key at all rather than a default.
     */
    private static Optional<Model> model(JsonNode m) {
        if (!m.isObject()) return Optional.empty();
        Optional<String> id = Optional.empty();
        long[] v = {-1, -1, -1, -1};
        var it = m.fields();
        while (it.hasNext()) {
            var f = it.next();
            JsonNode x = f.getValue();
            int slot = switch (f.getKey()) { case "in_per_million" -> 0; case "out_per_million" -> 1; case "ceiling" -> 2; case "think" -> 4; case "id" -> 3; default -> -1; };
            String field = switch (slot) { case 0 -> "in"; case 1 -> "out"; case 4 -> "think"; default -> f.getKey(); };
            if (slot == 3) {
                if (!x.isTextual()) return Optional.empty();
                id = Optional.of(x.asText());
            } else if (slot < 0 || !x.isIntegralNumber() || !x.canConvertToLong() || Model.refusal(field, x.asLong()).isPresent()) {
                return Optional.empty();
            } else {
                v[slot == 4 ? 3 : slot] = x.asLong();
            }
        }
        return Optional.of(new Model(id, present(v[0]), present(v[1]), present(v[2]), present(v[3])));
    }

    private static OptionalLong present(long v) { return v < 0 ? OptionalLong.empty() : OptionalLong.of(v); }

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
        } else if (t instanceof Askable.Ref r) {
            o.put("kind", "ref").put("name", r.name());
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
        // a bound is a whole number, never negative: a key with another is no key (it would size the reservation)
        JsonNode m = o.get("max");
        if (m != null && (!m.isIntegralNumber() || !m.canConvertToLong() || m.asLong() < 0)) return Optional.empty();
        OptionalLong max = m == null ? OptionalLong.empty() : OptionalLong.of(m.asLong());
        switch (o.path("kind").asText()) {
            case "text": return Optional.of(new Askable.Text(max));
            case "num": return Optional.of(new Askable.Num());
            case "bool": return Optional.of(new Askable.Bool());
            case "sym": return Optional.of(new Askable.Sym());
            case "list": return askable(o.path("of")).map(e -> new Askable.ListOf(e, max));
            case "ref": return o.path("name").isTextual() ? Optional.of(new Askable.Ref(o.path("name").asText())) : Optional.empty();
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
