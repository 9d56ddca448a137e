package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.capabilities.ConcretePath;
import dev.finch.capabilities.Root;
import dev.finch.ir.type.Type;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.Duration;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.Money;
import dev.finch.vm.value.OptionValue;
import dev.finch.vm.value.PathValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.value.Symbol;
import dev.finch.vm.value.Unit;
import dev.finch.vm.value.VariantValue;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Values to JSON and back, driven by their static type (which the frames and the stack always carry), so a
 * suspended run can be resumed in another process. A closure made by a closure literal of the run's own program is
 * saved as which literal and what it captured ({@link Closures}); streams, step handles, execution tokens and
 * closures from elsewhere do not serialize: {@link NotDurable} says which, and the run cannot be saved.
 */
public final class ValueCodec {
    private ValueCodec() { }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A value that only lives in this process (a closure, a stream, a handle). */
    public static final class NotDurable extends RuntimeException {
        public NotDurable(String message) { super(message, null, false, false); }
    }

    /** A saved value that does not fit its type (a truncated or forged file). */
    public static final class Malformed extends RuntimeException {
        public Malformed(String message) { super(message, null, false, false); }
    }

    /** Where a closure literal or a quotation is: its program's id and its place among the program's ({@link Programs}). */
    public record Site(long program, int index) { }

    /**
     * The closure literals and quotations of the programs a saved value may name, by where they are ({@link Programs}):
     * how a closure is saved (its literal's site and its captured values) and remade, and an execution token likewise.
     */
    public interface Closures {
        /** Where closure literal {@code body} is, or null when it is none of the programs'. */
        Site locate(dev.finch.ir.checked.Checked.CheckedWord body);

        /** The closure literal at {@code site}, or null. */
        dev.finch.ir.checked.Checked.CheckedWord body(Site site);

        /** A closure running the literal at {@code site} over {@code captures}. */
        Object make(Site site, Object[] captures);

        /** Where quotation {@code site} is, or null when it is none of the programs'. */
        Site locateQuote(dev.finch.ir.checked.Checked.QuoteNode site);

        /** The execution token of the quotation at {@code site} (remade when restoring), or null. */
        Object quote(Site site);

        /**
         * The handles (fibers, tasks) saved so far, by number — or remade so far, while restoring — so that copies of one
         * handle are saved once and remade as one; null when handles cannot be saved.
         */
        default java.util.Map<Object, Object> handles() { return null; }

        /**
         * The state to save of fiber {@code f}: as it is now, or — for the committed stack beside a paused run that
         * changed it — as it was before that run, since the run's changes are not committed.
         */
        default dev.finch.vm.value.Fiber.Snapshot stateOf(dev.finch.vm.value.Fiber f) { return f.snapshot(); }

        /** The saved form of a handle of the run's own concurrent step ({@code task<T>}), or null when it has none. */
        default JsonNode encodeTask(Type.TaskT type, Object handle) { return null; }

        /** The step handle {@code saved} names in the run being restored, or null when it names none. */
        default Object decodeTask(Type.TaskT type, JsonNode saved) { return null; }
    }

    /** A site as saved: {@code "program"} beside {@code key} (the literal's or quotation's index). */
    private static ObjectNode site(Site at, String key) { return F.objectNode().put("program", at.program()).put(key, at.index()); }

    /** The site saved in {@code n} under {@code key}. */
    private static Site site(JsonNode n, String key) { return new Site(n.path("program").asLong(-1), n.get(key).asInt()); }

    /** The saved form of {@code v}, a value of {@code type}; {@link NotDurable} when it has none. */
    public static JsonNode encode(Type type, Object v) { return encode(type, v, null); }

    /** As {@link #encode(Type, Object)}, saving closures made by the literals {@code closures} knows. */
    public static JsonNode encode(Type type, Object v, Closures closures) {
        try {
            return encodeChecked(type, v, closures);
        } catch (NotDurable e) {
            throw e;
        } catch (RuntimeException e) {
            throw new NotDurable("a value held as " + type + " has no saved form");
        }
    }

    @SuppressWarnings("unchecked")
    static JsonNode encodeChecked(Type type, Object v, Closures cl) {
        return switch (type.kind()) {
            case PRIM -> {
                yield switch ((Type.Prim) type) {
                    case INT -> F.numberNode((Long) v);
                    case FLOAT -> F.textNode(Double.toString((Double) v));
                    case BOOL -> F.booleanNode((Boolean) v);
                    case STRING -> F.textNode((String) v);
                    case BYTES -> F.textNode(Base64.getEncoder().encodeToString(((Bytes) v).toArray()));
                    case UNIT -> F.nullNode();
                    case SYMBOL -> F.textNode(((Symbol) v).name());
                    // As its compact text: a number keeps its exact spelling (1.00000000000000000001, 2.0) through any
                    // JSON reader the image passes, and the image's checksum is over text that reads back the same.
                    case JSON -> F.textNode(dev.finch.vm.value.Values.jsonText((JsonNode) v));
                };
            }
            case PATH -> {
                ConcretePath p = ((PathValue) v).path();
                yield F.textNode(p.relative());
            }
            case OPTION -> {
                OptionValue o = (OptionValue) v;
                ArrayNode a = F.arrayNode();
                if (o.isSome()) a.add(encodeChecked(((Type.OptionT) type).value(), o.value(), cl));
                yield a;
            }
            case RESULT -> {
                ResultValue r = (ResultValue) v;
                Type.ResultT rt = (Type.ResultT) type;
                ObjectNode o = F.objectNode();
                o.set(r.isOk() ? "ok" : "err", encodeChecked(r.isOk() ? rt.ok() : rt.err(), r.value(), cl));
                yield o;
            }
            case LIST -> {
                ArrayNode a = F.arrayNode();
                for (Object e : (ListValue) v) a.add(encodeChecked(((Type.ListT) type).element(), e, cl));
                yield a;
            }
            case MAP -> {
                Type.MapT mt = (Type.MapT) type;
                ArrayNode a = F.arrayNode();
                for (Map.Entry<Object, Object> e : ((Map<Object, Object>) v).entrySet()) {
                    a.addArray().add(encodeChecked(mt.key(), e.getKey(), cl)).add(encodeChecked(mt.value(), e.getValue(), cl));
                }
                yield a;
            }
            case RECORD -> {
                Type.RecordT rt = (Type.RecordT) type;
                RecordValue r = (RecordValue) v;
                ObjectNode o = F.objectNode();
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) o.set(f.getKey(), encodeChecked(f.getValue(), r.get(i++), cl));
                yield o;
            }
            case VARIANT -> {
                VariantValue vv = (VariantValue) v;
                var payload = ((Type.VariantT) type).tags().get(vv.tag());
                ObjectNode o = F.objectNode().put("tag", vv.tag());
                if (payload != null && payload.isPresent()) o.set("payload", encodeChecked(payload.get(), vv.payload(), cl));
                yield o;
            }
            case NAMED -> {
                if (((Type.Named) type).isRecursive()) yield encodeChecked(((Type.Named) type).unfold(), v, cl);
                if (v instanceof Money m) yield F.objectNode().put("money", m.micros()).put("unlimited", m.unlimited());
                if (v instanceof Duration d) yield F.objectNode().put("duration", d.millis()).put("unlimited", d.unlimited());
                // A host family's value (a capability: plain data, it confers nothing) is saved by its library's form.
                ValueForms form = ValueForms.of(v);
                if (form != null) yield form.encode(v);
                throw new NotDurable("a value of type " + type + " lives only in this process");
            }
            // A type variable's value in a polymorphic word's frame: its runtime shape says what it is.
            case VAR -> DynamicValues.encode(v, cl);
            case FN -> {
                // A closure literal's closure: which literal, and what it captured (typed by the literal's locals).
                if (cl != null && v instanceof dev.finch.vm.value.Closure c && c.body() != null) {
                    Site at = cl.locate(c.body());
                    if (at != null) {
                        ObjectNode o = site(at, "closure");
                        ArrayNode caps = o.putArray("captures");
                        List<String> names = c.body().captures();
                        for (int k = 0; k < names.size(); k++) {
                            Type t = c.body().locals().get(names.get(k));
                            if (t == null) throw new NotDurable("a closure captures `" + names.get(k) + "` of no known type");
                            caps.add(encodeChecked(t, c.captures()[k], cl));
                        }
                        yield o;
                    }
                }
                // An execution token of a quotation in the program: which quotation.
                if (cl != null && v instanceof dev.finch.vm.value.Closure c && c.site() != null) {
                    Site at = cl.locateQuote(c.site());
                    if (at != null) yield site(at, "quote");
                }
                throw new NotDurable("a value of type " + type + " (a function made outside this session's programs) lives only in this process");
            }
            case TASK -> {
                // A step of the run itself is saved with it (by its id).
                JsonNode step = cl == null ? null : cl.encodeTask((Type.TaskT) type, v);
                if (step != null) yield step;
                // Any other task is one handle however many places hold it: saved once, then referred to by number.
                java.util.Map<Object, Object> seen = cl == null ? null : cl.handles();
                Object number = seen == null ? null : seen.get(v);
                if (number != null) yield F.objectNode().put("task_ref", (Integer) number);
                ObjectNode task = encodeTask((Type.TaskT) type, v, cl);
                if (seen != null) {
                    int n = seen.size();
                    seen.put(v, n);
                    task.put("handle", n);
                }
                yield task;
            }
            case FIBER -> encodeFiber((Type.FiberT) type, v, cl);
            case STREAM -> {
                // A run-owned stream: which stream of which run; the run's host saves where each open one had got to. Only
                // with its run or session: alone (a host's answer from another process) it names nothing there.
                if (cl == null) throw new NotDurable("a value of type " + type + " (a stream) lives only in the process that opened it");
                dev.finch.vm.value.StreamValue sv = (dev.finch.vm.value.StreamValue) v;
                yield F.objectNode().put("stream", sv.id()).put("owner", sv.owner()).put("kind", sv.kind());
            }
            case RESOURCE -> {
                if (cl == null) throw new NotDurable("a value of type " + type + " (a handle) lives only in the process that made it");
                yield encodeResource(type, v);
            }
        };
    }

    /** A child agent's or a CPU task's saved form (the handle's number is added by the caller). */
    private static ObjectNode encodeTask(Type.TaskT type, Object v, Closures cl) {
        // A child agent: its task id, owner, request and (once ended) result.
        ValueForms form = ValueForms.of(v);
        if (form != null) return (ObjectNode) form.encode(v);
        // A CPU task: its end once finished; else its (pure, so deterministic) closure, started again on restore.
        if (!(v instanceof dev.finch.vm.runtime.CpuTasks.Task task)) {
            throw new NotDurable("a value of type " + type + " (a task that is not a step of this run) lives only in this process");
        }
        Type value = type.value();
        dev.finch.vm.runtime.CpuTasks.Saved saved = task.saved();
        ObjectNode o = F.objectNode().put("id", task.id());
        if (saved instanceof dev.finch.vm.runtime.CpuTasks.Saved.Restart r) {
            o.put("cpu_task", "restart").set("closure", encodeChecked(new Type.Fn(List.of(), List.of(value), new java.util.TreeSet<>(),
                    java.util.Optional.empty()), r.closure(), cl));
        } else if (saved instanceof dev.finch.vm.runtime.CpuTasks.Saved.Done d) {
            o.put("cpu_task", "done").set("value", encodeChecked(value, d.value(), cl));
        } else if (saved instanceof dev.finch.vm.runtime.CpuTasks.Saved.Failed f) {
            dev.finch.ir.diag.Diagnostic d = f.diagnostic();
            ObjectNode fail = o.put("cpu_task", "failed").putObject("failure");
            fail.put("code", d.code()).put("message", d.message()).put("source", d.origin().source())
                    .put("line", d.origin().line()).put("column", d.origin().column());
        } else {
            o.put("cpu_task", "cancelled");
        }
        return o;
    }

    /** A child agent, a step of the run or a CPU task, as {@link #encodeTask} (or a step's codec) saved it. */
    private static Object decodeTask(Type.TaskT type, JsonNode n, Closures cl) {
        if (n.isObject() && !n.has("cpu_task") && !n.has("step")) {
            Object hosts = ValueForms.decodeAny(n);
            if (hosts != null) return hosts;
        }
        if (!n.has("cpu_task")) {
            // A step of the run itself, by its id.
            Object handle = cl == null ? null : cl.decodeTask(type, n);
            if (handle == null) throw new Malformed("no saved form for type " + type);
            return handle;
        }
        require(n.isObject(), type);
        Type value = type.value();
        dev.finch.vm.runtime.CpuTasks.Saved saved = switch (n.get("cpu_task").asText()) {
            case "restart" -> new dev.finch.vm.runtime.CpuTasks.Saved.Restart(decodeChecked(new Type.Fn(List.of(), List.of(value),
                    new java.util.TreeSet<>(), java.util.Optional.empty()), n.get("closure"), cl));
            case "done" -> new dev.finch.vm.runtime.CpuTasks.Saved.Done(decodeChecked(value, n.get("value"), cl));
            case "failed" -> {
                JsonNode f = n.get("failure");
                require(f != null && f.isObject(), type);
                yield new dev.finch.vm.runtime.CpuTasks.Saved.Failed(new dev.finch.ir.diag.Diagnostic(dev.finch.ir.diag.Phase.EXECUTE,
                        f.get("code").asText(), f.get("message").asText(), dev.finch.ir.diag.Origin.of(f.get("source").asText(),
                        f.get("line").asInt(), f.get("column").asInt()), null, null));
            }
            case "cancelled" -> new dev.finch.vm.runtime.CpuTasks.Saved.Cancelled();
            default -> throw new Malformed("unknown saved task state");
        };
        return dev.finch.vm.runtime.CpuTasks.Task.restored(saved, n.path("id").asLong(0));
    }

    /**
     * A resource: an output handle (which handle of which run; the run saves which are open), or a host family's (a
     * grant listed by {@code capability-list}: plain data, revalidated wherever it is used), saved by its library's form.
     */
    private static JsonNode encodeResource(Type type, Object v) {
        if (v instanceof dev.finch.vm.value.OutputHandle h) return F.objectNode().put("output", h.id()).put("owner", h.owner());
        ValueForms form = ValueForms.of(v);
        if (form != null) return form.encode(v);
        throw new NotDurable("a value of type " + type + " lives only in this process");
    }

    private static Object decodeResource(Type type, JsonNode n) {
        require(n.isObject(), type);
        if (n.has("output")) return new dev.finch.vm.value.OutputHandle(n.path("owner").asText(), n.get("output").asLong());
        Object hosts = ValueForms.decodeAny(n);
        if (hosts != null) return hosts;
        throw new Malformed("no saved form for type " + type);
    }

    /**
     * A fiber of the run's own program: its number (a copy met later is saved as {@code fiber_ref}), its status, its
     * body's closure, the frames its body left at its last yield (innermost first) and its result once done.
     */
    private static JsonNode encodeFiber(Type.FiberT type, Object v, Closures cl) {
        java.util.Map<Object, Object> seen = cl == null ? null : cl.handles();
        if (!(v instanceof dev.finch.vm.value.Fiber f) || seen == null) {
            throw new NotDurable("a fiber is saved only with the paused run that made it (not on a session's stack)");
        }
        Object number = seen.get(f);
        if (number != null) return F.objectNode().put("fiber_ref", (Integer) number);
        int n = seen.size();
        seen.put(f, n);
        dev.finch.vm.value.Fiber.Snapshot state = cl.stateOf(f);
        ObjectNode o = F.objectNode().put("fiber", n).put("status", state.status().name());
        o.set("body", encodeChecked(f.body().type(), f.body(), cl));
        ArrayNode frames = o.putArray("frames");
        for (dev.finch.vm.value.Frame fr : state.frames()) frames.add(encodeFrame(fr, cl));
        if (state.status() == dev.finch.vm.value.Fiber.Status.DONE) o.set("result", encodeChecked(type.result(), state.result(), cl));
        return o;
    }

    private static Object decodeFiber(Type.FiberT type, JsonNode n, Closures cl) {
        java.util.Map<Object, Object> made = cl == null ? null : cl.handles();
        require(made != null && n.isObject(), type);
        if (n.has("fiber_ref")) {
            Object f = made.get(n.get("fiber_ref").asInt());
            require(f != null, type);
            return f;
        }
        int number = n.path("fiber").asInt(-1);
        require(number == made.size(), type);
        dev.finch.vm.value.Fiber.Status status;
        try {
            status = dev.finch.vm.value.Fiber.Status.valueOf(n.path("status").asText());
        } catch (IllegalArgumentException e) {
            throw new Malformed("a saved fiber has no known status");
        }
        JsonNode body = n.get("body");
        require(body != null && body.has("closure"), type);
        var lit = cl.body(site(body, "closure"));
        require(lit != null, type);
        Object closure = decodeChecked(lit.signature(), body, cl);
        List<dev.finch.vm.value.Frame> frames = new ArrayList<>();
        for (JsonNode fr : n.path("frames")) frames.add(decodeFrame(fr, cl));
        Object result = status == dev.finch.vm.value.Fiber.Status.DONE ? decodeChecked(type.result(), n.get("result"), cl) : null;
        var f = dev.finch.vm.value.Fiber.restored((dev.finch.vm.value.Closure) closure, type, status,
                frames.toArray(new dev.finch.vm.value.Frame[0]), result);
        made.put(number, f);
        return f;
    }

    /** One saved activation: which word, which resume point, and its typed slots (a slot not yet stored is null). */
    public static ObjectNode encodeFrame(dev.finch.vm.value.Frame f, Closures closures) {
        ObjectNode o = F.objectNode();
        o.put("word", f.word());
        o.put("point", f.point());
        ArrayNode types = o.putArray("types");
        ArrayNode values = o.putArray("values");
        ArrayNode unset = o.putArray("unset");
        for (int i = 0; i < f.values().length; i++) {
            types.add(f.types().get(i).toString());
            // A slot the word has not stored into yet (a local assigned later) holds nothing: saved as such.
            if (f.values()[i] == null) {
                values.add(F.nullNode());
                unset.add(i);
            } else {
                values.add(encode(f.types().get(i), f.values()[i], closures));
            }
        }
        return o;
    }

    /** The activation {@link #encodeFrame} saved. */
    public static dev.finch.vm.value.Frame decodeFrame(JsonNode f, Closures closures) {
        List<Type> types = new ArrayList<>();
        for (JsonNode t : f.get("types")) types.add(dev.finch.ir.type.TypeSyntax.parse(t.asText()));
        Object[] values = new Object[types.size()];
        JsonNode vs = f.get("values");
        if (vs == null || vs.size() != types.size()) throw new Malformed("a frame's values do not match its types");
        java.util.Set<Integer> unset = new java.util.HashSet<>();
        for (JsonNode u : f.path("unset")) unset.add(u.asInt());
        for (int i = 0; i < values.length; i++) values[i] = unset.contains(i) ? null : decode(types.get(i), vs.get(i), closures);
        return new dev.finch.vm.value.Frame(f.get("word").asText(), f.get("point").asInt(), values, types);
    }

    public static Object decode(Type type, JsonNode n) { return decode(type, n, null); }

    /** As {@link #decode(Type, JsonNode)}, remaking closures of the literals {@code closures} knows. */
    public static Object decode(Type type, JsonNode n, Closures closures) {
        try {
            return decodeChecked(type, n, closures);
        } catch (Malformed | NotDurable e) {
            throw e;
        } catch (RuntimeException e) {
            throw new Malformed("a saved value does not fit type " + type);
        }
    }

    static Object decodeChecked(Type type, JsonNode n, Closures cl) {
        return switch (type.kind()) {
            case PRIM -> {
                yield switch ((Type.Prim) type) {
                    case INT -> { require(n.isIntegralNumber() && n.canConvertToLong(), type); yield n.longValue(); }
                    case FLOAT -> { require(n.isTextual(), type); yield Double.parseDouble(n.textValue()); }
                    case BOOL -> { require(n.isBoolean(), type); yield n.booleanValue(); }
                    case STRING -> { require(n.isTextual(), type); yield n.textValue(); }
                    case BYTES -> { require(n.isTextual(), type); yield Bytes.wrap(Base64.getDecoder().decode(n.textValue())); }
                    case UNIT -> { require(n.isNull(), type); yield Unit.INSTANCE; }
                    case SYMBOL -> { require(n.isTextual(), type); yield new Symbol(n.textValue()); }
                    case JSON -> {
                        require(n.isTextual(), type);
                        Object parsed = dev.finch.vm.value.JsonValues.parse(n.textValue());
                        require(parsed instanceof dev.finch.vm.value.ResultValue r && r.isOk(), type);
                        yield ((dev.finch.vm.value.ResultValue) parsed).value();
                    }
                };
            }
            case PATH -> {
                require(n.isTextual(), type);
                String root = ((Type.PathT) type).root();
                Root r = Root.bySpelling(root).orElseThrow(() -> new Malformed("unknown root " + root));
                var p = ConcretePath.of(r, n.textValue());
                if (!p.isOk()) throw new Malformed("a saved path is not canonical");
                yield new PathValue(p.value());
            }
            case OPTION -> {
                require(n.isArray() && n.size() <= 1, type);
                yield n.size() == 0 ? OptionValue.NONE : OptionValue.some(decodeChecked(((Type.OptionT) type).value(), n.get(0), cl));
            }
            case RESULT -> {
                require(n.isObject() && n.size() == 1, type);
                Type.ResultT rt = (Type.ResultT) type;
                if (n.has("ok")) yield ResultValue.ok(decodeChecked(rt.ok(), n.get("ok"), cl));
                require(n.has("err"), type);
                yield ResultValue.err(decodeChecked(rt.err(), n.get("err"), cl));
            }
            case LIST -> {
                require(n.isArray(), type);
                List<Object> items = new ArrayList<>();
                for (JsonNode e : n) items.add(decodeChecked(((Type.ListT) type).element(), e, cl));
                yield ListValue.from(items);
            }
            case MAP -> {
                require(n.isArray(), type);
                Type.MapT mt = (Type.MapT) type;
                dev.finch.vm.value.MapValue m = dev.finch.vm.value.MapValue.empty();
                for (JsonNode e : n) {
                    require(e.isArray() && e.size() == 2, type);
                    m = m.plus(decodeChecked(mt.key(), e.get(0), cl), decodeChecked(mt.value(), e.get(1), cl));
                }
                yield m;
            }
            case RECORD -> {
                require(n.isObject(), type);
                Type.RecordT rt = (Type.RecordT) type;
                require(n.size() == rt.fields().size(), type);
                Object[] values = new Object[rt.fields().size()];
                int i = 0;
                for (Map.Entry<String, Type> f : rt.fields().entrySet()) {
                    require(n.has(f.getKey()), type);
                    values[i++] = decodeChecked(f.getValue(), n.get(f.getKey()), cl);
                }
                yield new RecordValue(values);
            }
            case VARIANT -> {
                require(n.isObject() && n.has("tag"), type);
                String tag = n.get("tag").asText();
                var payload = ((Type.VariantT) type).tags().get(tag);
                require(payload != null, type);
                yield new VariantValue(tag, payload.isPresent() ? decodeChecked(payload.get(), n.get("payload"), cl) : Unit.INSTANCE);
            }
            case NAMED -> {
                if (((Type.Named) type).isRecursive()) yield decodeChecked(((Type.Named) type).unfold(), n, cl);
                if (n.has("money")) yield n.get("unlimited").asBoolean() ? Money.UNLIMITED : Money.ofMicros(n.get("money").longValue());
                if (n.has("duration")) yield n.get("unlimited").asBoolean() ? Duration.UNLIMITED : Duration.ofMillis(n.get("duration").longValue());
                Object hosts = ValueForms.decodeAny(n);
                if (hosts != null) yield hosts;
                throw new Malformed("no saved form for type " + type);
            }
            case VAR -> DynamicValues.decode(n, cl);
            case FN -> {
                if (n.isObject() && n.has("quote") && cl != null) {
                    Object quote = cl.quote(site(n, "quote"));
                    require(quote != null, type);
                    yield quote;
                }
                require(n.isObject() && n.has("closure") && cl != null, type);
                Site at = site(n, "closure");
                var lit = cl.body(at);
                require(lit != null && lit.captures().size() == n.path("captures").size(), type);
                Object[] caps = new Object[lit.captures().size()];
                for (int k = 0; k < caps.length; k++) {
                    Type t = lit.locals().get(lit.captures().get(k));
                    require(t != null, type);
                    caps[k] = decodeChecked(t, n.get("captures").get(k), cl);
                }
                yield cl.make(at, caps);
            }
            case TASK -> {
                java.util.Map<Object, Object> made = cl == null ? null : cl.handles();
                if (n.isObject() && n.has("task_ref")) {
                    Object task = made == null ? null : made.get(n.get("task_ref").asInt());
                    require(task != null, type);
                    yield task;
                }
                Object task = decodeTask((Type.TaskT) type, n, cl);
                if (n.has("handle")) {
                    require(made != null && n.get("handle").asInt() == made.size(), type);
                    made.put(made.size(), task);
                }
                yield task;
            }
            case FIBER -> decodeFiber((Type.FiberT) type, n, cl);
            case STREAM -> {
                require(cl != null && n.isObject() && n.has("stream"), type);
                yield new dev.finch.vm.value.StreamValue(n.path("owner").asText(), n.get("stream").asLong(), n.path("kind").asText());
            }
            case RESOURCE -> {
                require(cl != null, type);
                yield decodeResource(type, n);
            }
        };
    }

    static void require(boolean ok, Type type) {
        if (!ok) throw new Malformed("a saved value does not fit type " + type);
    }
}
