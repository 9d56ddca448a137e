package dev.finch.vm.value;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.ir.type.Type;
import java.util.Map;

/**
 * The bounded D4 display ({@link Values#display}): written until {@code limit} characters, then cut — a container
 * with more to show ends with {@code …} and still closes, a string is cut inside its quotes with {@code …}, json is
 * cut where its text reaches the limit, nesting deeper than {@link #MAX_DEPTH} shows as {@code …} — and a cut
 * display ends with a note of how large the whole value is. Its work is proportional to the limit, whatever the
 * value (a shared structure of 2^30 elements displays as fast as a short list), and it does not recurse deeper than
 * {@link #MAX_DEPTH}, so it is safe on any thread.
 */
final class Display {
    /** Nesting shown before the rest is elided. */
    static final int MAX_DEPTH = 64;

    private final StringBuilder b = new StringBuilder();
    private final int limit;
    private boolean cut;

    private Display(int limit) { this.limit = Math.max(1, limit); }

    static String of(Type type, Object value, int limit) {
        Display d = new Display(limit);
        d.write(type, value, 0);
        if (d.cut) d.b.append(" (display cut at ").append(d.limit).append(" chars: ").append(whole(type, value)).append(')');
        return d.b.toString();
    }

    /** Room for more: otherwise the display is cut here. */
    private boolean room() {
        if (b.length() < limit) return true;
        cut = true;
        return false;
    }

    @SuppressWarnings("unchecked")
    private void write(Type type, Object value, int depth) {
        if (depth > MAX_DEPTH && isContainer(type)) {
            cut = true;
            b.append('…');
            return;
        }
        switch (type.kind()) {
            case PRIM -> {
                switch ((Type.Prim) type) {
                    case INT -> b.append((long) (Long) value);
                    case FLOAT -> b.append(Values.floatText((Double) value));
                    case BOOL -> b.append((boolean) (Boolean) value);
                    case STRING -> string((String) value);
                    case UNIT -> b.append("()");
                    case SYMBOL -> b.append('\'').append(clip(((Symbol) value).name()));
                    case BYTES -> {
                        b.append("#bytes[");
                        java.nio.ByteBuffer data = ((Bytes) value).buffer();
                        for (int i = 0; data.hasRemaining(); i++) {
                            if (i > 0) b.append(' ');
                            if (!room()) { b.append('…'); break; }
                            b.append(data.get() & 0xff);
                        }
                        b.append(']');
                    }
                    case JSON -> {
                        if (!JsonText.write((JsonNode) value, b, Math.max(0, limit - b.length()), Meter.NONE)) {
                            cut = true;
                            b.append('…');
                        }
                    }
                }
            }
            case OPTION -> {
                OptionValue o = (OptionValue) value;
                if (!o.isSome()) {
                    b.append("(none)");
                    return;
                }
                b.append("(some ");
                write(((Type.OptionT) type).value(), o.value(), depth + 1);
                b.append(')');
            }
            case RESULT -> {
                ResultValue r = (ResultValue) value;
                Type.ResultT rt = (Type.ResultT) type;
                b.append(r.isOk() ? "(ok " : "(err ");
                write(r.isOk() ? rt.ok() : rt.err(), r.value(), depth + 1);
                b.append(')');
            }
            case LIST -> {
                b.append('[');
                String sep = "";
                Type element = ((Type.ListT) type).element();
                for (Object e : (ListValue) value) {
                    b.append(sep);
                    sep = " ";
                    if (!room()) { b.append('…'); break; }
                    write(element, e, depth + 1);
                }
                b.append(']');
            }
            case MAP -> {
                Type.MapT mt = (Type.MapT) type;
                b.append("map{");
                for (Map.Entry<Object, Object> e : ((Map<Object, Object>) value).entrySet()) {
                    b.append(' ');
                    if (!room()) { b.append('…'); break; }
                    write(mt.key(), e.getKey(), depth + 1);
                    b.append(' ');
                    write(mt.value(), e.getValue(), depth + 1);
                }
                b.append(" }map");
            }
            case RECORD -> {
                Type.RecordT rt = (Type.RecordT) type;
                RecordValue r = (RecordValue) value;
                b.append('{');
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                    b.append(' ');
                    if (!room()) { b.append('…'); break; }
                    b.append(f.getKey()).append(": ");
                    write(f.getValue(), r.get(i++), depth + 1);
                }
                b.append(rt.fields().isEmpty() ? "}" : " }");
            }
            case VARIANT -> {
                VariantValue v = (VariantValue) value;
                var payload = ((Type.VariantT) type).tags().get(v.tag());
                if (payload == null || payload.isEmpty()) {
                    b.append('(').append(v.tag()).append(')');
                    return;
                }
                b.append('(').append(v.tag()).append(' ');
                write(payload.get(), v.payload(), depth + 1);
                b.append(')');
            }
            case PATH -> {
                PathValue p = (PathValue) value;
                String root = ((Type.PathT) type).root();
                b.append('(').append(root.equals(Type.PathT.WORKSPACE) ? "path" : root + "-path").append(' ');
                string(p.path().relative());
                b.append(')');
            }
            case NAMED -> {
                if (((Type.Named) type).isRecursive()) write(((Type.Named) type).unfold(), value, depth);
                else if (value instanceof Money || value instanceof Duration) b.append(value);
                else handle(type, value);
            }
            case TASK, FIBER, STREAM, RESOURCE, FN, VAR -> handle(type, value);
        }
    }

    private void handle(Type type, Object value) {
        b.append('#').append(type);
        if (value != null) b.append('<').append(clip(String.valueOf(value))).append('>');
    }

    /** A JSON-quoted string, cut inside its quotes when it would pass the limit. */
    private void string(String s) {
        int room = Math.max(0, limit - b.length());
        if (s.length() + 2 <= room) {
            b.append(Values.quote(s));
            return;
        }
        cut = true;
        int end = Math.min(s.length(), room);
        if (end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))) end--;
        String q = Values.quote(s.substring(0, end));
        b.append(q, 0, q.length() - 1).append("…\"");
    }

    private String clip(String s) {
        int room = Math.max(16, limit - b.length());
        if (s.length() <= room) return s;
        cut = true;
        return s.substring(0, room) + "…";
    }

    private static boolean isContainer(Type t) {
        return switch (t.kind()) {
            case OPTION, RESULT, LIST, MAP, RECORD, VARIANT -> true;
            default -> false;
        };
    }

    /** How large the whole value is, for the note of a cut display. */
    private static String whole(Type type, Object value) {
        if (value instanceof ListValue l) return "a list of " + l.size() + (l.size() == 1 ? " element" : " elements");
        if (value instanceof Map<?, ?> m) return "a map of " + m.size() + (m.size() == 1 ? " entry" : " entries");
        if (value instanceof String s) return "a string of " + s.codePointCount(0, s.length()) + " characters";
        if (value instanceof Bytes x) return x.length() + " bytes";
        String kind = type instanceof Type.Prim p ? p.name() : type.kind().name();
        return "a " + kind.toLowerCase(java.util.Locale.ROOT) + " of logical size " + Sizes.of(value) + " bytes";
    }
}
