package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code show}: the canonical text of a value. Askable values become exactly the JSON a model's answer is
 * validated against — object keys sorted, a variant's tag under the key {@code tag}, numbers in shortest form
 * ({@code 2}, not {@code 2.0}) — so equal values always give identical text. Money, durations and ∞ use µNorman's
 * literal syntax, bare at the top level and as strings when nested. Functions, capabilities and other handles
 * have no written form, and a payload field named {@code tag} would overwrite the discriminator: both refuse.
 *
 * <p>Writing is metered ({@link Meter}): each element written is charged, so the run's limits are checked while a
 * large value is written, and the text is refused (the meter's E-LIMIT-005) as soon as it would pass the run's
 * memory limit — before it exists, whatever the value shares.
 */
public final class Show {
    private Show() { }

    /** Why a value cannot be shown. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) { super(message, null, false, false); }
    }

    /** The written form of {@code value}, charged to the calling thread's meter. */
    public static String show(Type type, Object value) { return show(type, value, Meter.current()); }

    /** The written form of {@code value}, charged to {@code meter} and bounded by its memory limit. */
    public static String show(Type type, Object value, Meter meter) {
        if (value instanceof Money || value instanceof Duration) return value.toString();
        Out out = new Out(meter);
        out.write(type, value);
        out.check();
        out.work.done();
        return out.b.toString();
    }

    /** One {@code show}: the text, its work, and the chars it may write. */
    private static final class Out {
        /** Chars written between checks of the limit. */
        private static final int CHECK_EVERY = 1 << 12;

        final StringBuilder b = new StringBuilder();
        final Work work;
        final long maxChars;
        private long checked;

        Out(Meter meter) {
            this.work = new Work(meter);
            this.maxChars = Math.min(Integer.MAX_VALUE - 8L, meter.maxBytes() / 2);
        }

        /** Charges what the text grew by since the last check and refuses a text over the limit. */
        void check() {
            work.chars(b.length() - checked);
            checked = b.length();
            if (b.length() > maxChars) throw work.meter().overLimit("show would write more than " + maxChars + " chars");
        }

        @SuppressWarnings("unchecked")
        void write(Type type, Object value) {
            work.element();
            if (b.length() - checked > CHECK_EVERY) check();
            switch (type.kind()) {
                case PRIM -> {
                    switch ((Type.Prim) type) {
                        case INT -> b.append((long) (Long) value);
                        case FLOAT -> b.append(number((Double) value));
                        case BOOL -> b.append((boolean) (Boolean) value);
                        case STRING -> string((String) value);
                        case SYMBOL -> b.append(Values.quote(((Symbol) value).name()));
                        case UNIT -> b.append("null");
                        case JSON -> json((JsonNode) value);
                        case BYTES -> throw new Refused("bytes have no written form; decode them with bytes-to-string first");
                    }
                }
                case LIST -> {
                    b.append('[');
                    String sep = "";
                    for (Object e : (ListValue) value) { b.append(sep); write(((Type.ListT) type).element(), e); sep = ","; }
                    b.append(']');
                }
                case RECORD -> {
                    Type.RecordT rt = (Type.RecordT) type;
                    RecordValue r = (RecordValue) value;
                    b.append('{');
                    int i = 0;
                    String sep = "";
                    for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                        b.append(sep).append(Values.quote(f.getKey())).append(':');
                        write(f.getValue(), r.get(i++));
                        sep = ",";
                    }
                    b.append('}');
                }
                case VARIANT -> {
                    VariantValue v = (VariantValue) value;
                    Optional<Type> payload = ((Type.VariantT) type).tags().get(v.tag());
                    tagged(v.tag(), payload == null ? Optional.empty() : payload, v.payload());
                }
                case OPTION -> {
                    OptionValue o = (OptionValue) value;
                    tagged(o.isSome() ? "some" : "none", o.isSome() ? Optional.of(((Type.OptionT) type).value()) : Optional.empty(), o.value());
                }
                case RESULT -> {
                    ResultValue r = (ResultValue) value;
                    Type.ResultT rt = (Type.ResultT) type;
                    tagged(r.isOk() ? "ok" : "err", Optional.of(r.isOk() ? rt.ok() : rt.err()), r.value());
                }
                case MAP -> {
                    Type.MapT mt = (Type.MapT) type;
                    Map<Object, Object> m = (Map<Object, Object>) value;
                    if (mt.key() == Type.STRING) {
                        TreeMap<String, Object> sorted = new TreeMap<>();
                        m.forEach((k, v) -> sorted.put((String) k, v));
                        work.elements(m.size());
                        b.append('{');
                        String sep = "";
                        for (var e : sorted.entrySet()) {
                            b.append(sep).append(Values.quote(e.getKey())).append(':');
                            write(mt.value(), e.getValue());
                            sep = ",";
                        }
                        b.append('}');
                        return;
                    }
                    b.append('[');
                    String sep = "";
                    for (var e : m.entrySet()) {
                        b.append(sep).append('[');
                        write(mt.key(), e.getKey());
                        b.append(',');
                        write(mt.value(), e.getValue());
                        b.append(']');
                        sep = ",";
                    }
                    b.append(']');
                }
                case NAMED -> {
                    if (((Type.Named) type).isRecursive()) write(((Type.Named) type).unfold(), value);
                    else if (value instanceof Money || value instanceof Duration) b.append(Values.quote(value.toString()));
                    else throw new Refused("a value of type " + type + " has no written form");
                }
                case FN -> throw new Refused("a function has no written form");
                case PATH, TASK, FIBER, STREAM, RESOURCE, VAR -> throw new Refused("a value of type " + type + " has no written form (authority and handles never reach a prompt)");
            }
        }

        private void string(String s) {
            if (b.length() + (long) s.length() > maxChars) throw work.meter().overLimit("show would write more than " + maxChars + " chars");
            b.append(Values.quote(s));
        }

        /** A tagged value: its payload's record fields and {@code tag}, keys sorted; else {@code {"tag":…,"value":…}}. */
        private void tagged(String tag, Optional<Type> payloadType, Object payload) {
            if (payloadType.isEmpty() || payloadType.get() == Type.UNIT) {
                b.append("{\"tag\":").append(Values.quote(tag)).append('}');
                return;
            }
            Type pt = payloadType.get();
            if (pt instanceof Type.RecordT rt) {
                if (rt.fields().containsKey("tag")) throw new Refused("constructor " + tag + " has a field named tag, which would overwrite its discriminator");
                // The fields and the tag, all keys sorted: each field's position in the record, or -1 for the tag.
                TreeMap<String, Integer> keys = new TreeMap<>();
                int i = 0;
                for (String f : rt.fields().keySet()) keys.put(f, i++);
                keys.put("tag", -1);
                java.util.List<Type> types = java.util.List.copyOf(rt.fields().values());
                RecordValue r = (RecordValue) payload;
                b.append('{');
                String sep = "";
                for (var e : keys.entrySet()) {
                    b.append(sep).append(Values.quote(e.getKey())).append(':');
                    if (e.getValue() < 0) b.append(Values.quote(tag));
                    else write(types.get(e.getValue()), r.get(e.getValue()));
                    sep = ",";
                }
                b.append('}');
                return;
            }
            b.append("{\"tag\":").append(Values.quote(tag)).append(",\"value\":");
            write(pt, payload);
            b.append('}');
        }

        /** Json with object keys sorted. */
        private void json(JsonNode n) {
            work.element();
            if (b.length() - checked > CHECK_EVERY) check();
            if (n.isObject()) {
                TreeMap<String, JsonNode> sorted = new TreeMap<>();
                n.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
                b.append('{');
                String sep = "";
                for (var e : sorted.entrySet()) {
                    b.append(sep).append(Values.quote(e.getKey())).append(':');
                    json(e.getValue());
                    sep = ",";
                }
                b.append('}');
            } else if (n.isArray()) {
                b.append('[');
                String sep = "";
                for (JsonNode e : n) { b.append(sep); json(e); sep = ","; }
                b.append(']');
            } else {
                b.append(Values.jsonText(n));
            }
        }
    }

    /** Shortest form: integral values without a fraction. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw new Refused("JSON has no spelling for " + d);
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d);
    }
}
