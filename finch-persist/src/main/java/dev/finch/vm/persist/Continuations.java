package dev.finch.vm.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.checked.Checked;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Checked.CheckedWord;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.print.CoForthPrinter;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.vm.boundary.EffectJournal;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.TypedValue;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.value.Frame;
import dev.finch.vm.runtime.Strands;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The durable form of a suspended run (architecture: "the continuation is data"). It holds only typed values and
 * coordinates: each frame's word, resume point, slot types and values; the run's output so far; constants it
 * defined; and its host boundary (sequence, journal receipts, the request it waits for with its typed
 * arguments), or that it waits at a {@code task-join}. A CPU task is saved as its end once finished, else as its
 * pure closure, which starts again when the restored run first uses the handle. A digest of the module's canonical Co-Forth and signatures binds it to the exact program, and a
 * checksum covers the whole document: a truncated, edited or older-format continuation is refused, never
 * mis-resumed.
 */
public final class Continuations {
    /**
     * 2: a request's arguments are typed values (type and encoded value), no longer display strings. 3: a run paused
     * while concurrent steps were live carries each step's closure and frames, and step handles are saved by id. 4: the
     * constants the run defined before it paused, its open output handles, and every value in one order.
     */
    public static final String FORMAT = "finch-continuation/4";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Continuations() { }

    /** Why a continuation cannot be saved or restored. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) { super(message, null, false, false); }
    }

    /** A digest identifying the exact verified program and the tier of each function. */
    public static String moduleDigest(CheckedModule module, Set<String> interpreted) {
        StringBuilder b = new StringBuilder(CoForthPrinter.print(module.source()));
        b.append('\n').append(module.main().signature());
        for (CheckedWord w : module.words()) b.append('\n').append(w.name()).append(" : ").append(w.signature());
        b.append("\ninterpreted ").append(new java.util.TreeSet<>(interpreted));
        return sha256(b.toString());
    }

    /**
     * Saves the paused run: its frames (outermost first), every concurrent step that paused with it (closure and
     * frames; a handle to a step by its id, an ended step's with its value), the root's results when it had finished
     * main and was draining its steps ({@code mainOuts} types them), and the constants it has defined so far
     * ({@code newConstants}: the module's, by type). Values are written in one fixed order, which {@link #restore}
     * reads in, so a handle met twice (a fiber) is written once and read back as one.
     */
    public static String save(String executionId, String moduleDigest, Ctx ctx, Type yieldedType, Programs programClosures,
                              List<Type> mainOuts, java.util.Map<String, Type> newConstants) {
        ValueCodec.Closures closures = new WithSteps(programClosures, ctx.strands, null);
        ObjectNode doc = F.objectNode();
        doc.put("format", FORMAT);
        doc.put("execution_id", executionId);
        doc.put("module", moduleDigest);
        doc.put("output", ctx.output());
        // The record of its events exactly as the recorder holds it, open output handles included: the restored run goes
        // on replacing and closing them (the host's sink there receives those events for the handle ids the outcome's
        // events show opened), and records and coalesces as it would have here.
        doc.set("output_record", OutputEventJson.encodeRecorder(ctx.outputs().state()));
        doc.put("output_bytes", ctx.outputBytes());
        // The execution's running time so far: its total time limit holds across processes too.
        doc.put("executed_ms", ctx.executedNanos() / 1_000_000);
        if (ctx.cpu != null) doc.put("next_cpu_task", ctx.cpu.nextId());
        Strands strands = ctx.strands;
        // The budget scopes open around the root, as what is left of each (the model host saves them).
        JsonNode rootLocal = saveLocal(ctx, strands.rootLocal(), "the run");
        if (rootLocal != null) doc.set("root_local", rootLocal);
        List<Strands.SavedStep> steps = strands.pausedSteps();
        boolean withSteps = !steps.isEmpty() || strands.rootDraining() || Strands.retrying(ctx);
        if (withSteps) {
            // The ids first: the values below may hold handles of any of them.
            ObjectNode st = doc.putObject("strands");
            st.put("owner", strands.pauseOwnerId());
            st.put("next", strands.nextId());
            st.put("root_retrying", Strands.retrying(ctx));
            st.put("root_draining", strands.rootDraining());
            ArrayNode ids = st.putArray("steps");
            for (Strands.SavedStep step : steps) ids.addObject().put("id", step.id()).put("parent", step.parent());
        }
        // ---- the values, in the order restore reads them ----
        if (ctx.awaiting != null) {
            // Paused at task-join: nothing was published; the join runs again on resume (its task in the frame).
            doc.put("awaiting_task", true);
        } else if (dev.finch.vm.boundary.RunHost.of(ctx).pending().isEmpty()) {
            doc.put("yielded_type", yieldedType.toString());
            doc.set("yielded", ValueCodec.encode(yieldedType, ctx.yielded, closures));
        }
        List<Frame> rootFrames = new ArrayList<>();
        ctx.frames().descendingIterator().forEachRemaining(rootFrames::add);
        doc.set("frames", encodeFrames(rootFrames, closures));
        RunHost h = RunHost.of(ctx);
        ObjectNode host = doc.putObject("host");
        host.put("sequence", h.sequence());
        h.waiting().ifPresent(w -> host.put("waiting", w.name()));
        h.pending().ifPresent(r -> host.set("pending", RequestJson.encode(r, closures, false)));
        // No grants: a restored run holds its restoring host's, never authority carried in the image.
        ArrayNode journal = host.putArray("journal");
        for (EffectJournal.Entry e : h.journal().entries()) journal.addObject().put("state", e.state().name()).set("request", RequestJson.encode(e.request(), closures, false));
        // What the word libraries keep for the run (its open streams, say), each as its kind saves it.
        ObjectNode states = host.putObject("states");
        for (var e : h.states().entrySet()) {
            JsonNode saved = e.getValue().save();
            if (saved != null) states.set(e.getKey(), saved);
        }
        if (withSteps) {
            ArrayNode arr = doc.putArray("step_states");
            for (Strands.SavedStep step : steps) {
                dev.finch.vm.value.Closure c = (dev.finch.vm.value.Closure) step.closure();
                ObjectNode o = arr.addObject();
                JsonNode local = saveLocal(ctx, step.local(), "step#" + step.id());
                if (local != null) o.set("local", local);
                o.put("retrying", step.retrying());
                o.put("closure_type", c.type().toString());
                o.set("closure", ValueCodec.encode(c.type(), c, closures));
                o.set("frames", encodeFrames(step.framesOutermostFirst(), closures));
            }
            if (strands.rootDraining()) {
                // The root had finished main: its results wait for its steps to end.
                ArrayNode out = doc.putArray("root_results");
                for (int i = 0; i < mainOuts.size(); i++) {
                    out.addObject().put("type", mainOuts.get(i).toString()).set("value", ValueCodec.encode(mainOuts.get(i), ctx.stackOut[i], closures));
                }
            }
        }
        // The constants the run has defined so far (a Lisp `define` before the pause): committed with the run.
        ObjectNode constants = null;
        for (var c : new java.util.TreeMap<>(newConstants).entrySet()) {
            Object v = ctx.constants().get(c.getKey());
            if (v == null) continue;
            if (constants == null) constants = doc.putObject("constants");
            constants.set(c.getKey(), ValueCodec.encode(c.getValue(), v, closures));
        }
        // The fibers the run changed, with how each was before: the restored run undoes them if it fails or is dropped.
        if (!ctx.touched().isEmpty()) {
            ArrayNode undo = doc.putArray("fiber_undo");
            for (var e : ctx.touched().entrySet()) {
                dev.finch.vm.value.Fiber f = e.getKey();
                dev.finch.vm.value.Fiber.Snapshot before = e.getValue();
                ObjectNode o = undo.addObject().put("fiber_type", f.type().toString());
                o.set("fiber", ValueCodec.encode(f.type(), f, closures));
                o.put("status", before.status().name());
                o.set("frames", encodeFrames(java.util.Arrays.asList(before.frames()), closures));
                if (before.status() == dev.finch.vm.value.Fiber.Status.DONE) o.set("result", ValueCodec.encode(f.type().result(), before.result(), closures));
            }
        }
        doc.put("checksum", sha256(canonical(doc)));
        return doc.toString();
    }

    /** A strand's host-private state as its model host saves it; null for none; NotDurable when it cannot be saved. */
    private static JsonNode saveLocal(Ctx ctx, Object local, String whose) {
        if (local == null) return null;
        dev.finch.vm.boundary.StrandStates models = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(dev.finch.vm.boundary.StrandStates.class);
        try {
            if (models == null) throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.NO_BINDING, "no host of the run keeps it");
            return models.saveLocal(local);
        } catch (dev.finch.vm.boundary.HostFailure e) {
            throw new ValueCodec.NotDurable(whose + " holds its host's per-step state (an open budget scope), which cannot be saved: " + e.getMessage());
        }
    }

    /** A strand's host-private state rebuilt by the restoring run's model host. */
    private static Object restoreLocal(Ctx ctx, JsonNode saved) {
        dev.finch.vm.boundary.StrandStates models = dev.finch.vm.boundary.RunHost.of(ctx).config().binding(dev.finch.vm.boundary.StrandStates.class);
        try {
            if (models == null) throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.NO_BINDING, "the restoring run has no host that keeps it");
            return models.restoreLocal(saved);
        } catch (dev.finch.vm.boundary.HostFailure e) {
            throw new Refused("the continuation holds a budget scope its restoring host cannot rebuild: " + e.getMessage());
        }
    }

    private static ArrayNode encodeFrames(List<Frame> outermostFirst, ValueCodec.Closures closures) {
        ArrayNode frames = F.arrayNode();
        for (Frame f : outermostFirst) frames.add(ValueCodec.encodeFrame(f, closures));
        return frames;
    }

    private static List<Frame> decodeFrames(JsonNode saved, ValueCodec.Closures closures) {
        List<Frame> frames = new ArrayList<>();
        for (JsonNode f : saved) frames.add(ValueCodec.decodeFrame(f, closures));
        return frames;
    }

    /**
     * The program's closures, plus the handles of the run's own steps: saved by id, an ended step's with its value;
     * restored as the steps rebuilt from the continuation ({@code known}, by id).
     */
    private static final class WithSteps implements ValueCodec.Closures {
        private final ValueCodec.Closures base;
        private final Strands strands;
        private final java.util.Map<Long, Strands.Strand> known;

        WithSteps(ValueCodec.Closures base, Strands strands, java.util.Map<Long, Strands.Strand> known) {
            this.base = base;
            this.strands = strands;
            this.known = known;
        }

        @Override public ValueCodec.Site locate(CheckedWord body) { return base.locate(body); }

        @Override public CheckedWord body(ValueCodec.Site at) { return base.body(at); }

        @Override public Object make(ValueCodec.Site at, Object[] captures) { return base.make(at, captures); }

        @Override public ValueCodec.Site locateQuote(Checked.QuoteNode site) { return base.locateQuote(site); }

        @Override public Object quote(ValueCodec.Site at) { return base.quote(at); }

        @Override public java.util.Map<Object, Object> handles() { return base.handles(); }

        @Override public dev.finch.vm.value.Fiber.Snapshot stateOf(dev.finch.vm.value.Fiber f) { return base.stateOf(f); }

        @Override public JsonNode encodeTask(Type.TaskT type, Object handle) {
            Strands.Strand s = strands.handle(handle);
            if (s == null) return null;
            ObjectNode o = F.objectNode().put("step", s.id());
            if (s.isDone()) o.set("value", ValueCodec.encode(type.value(), s.result(), this));
            return o;
        }

        @Override public Object decodeTask(Type.TaskT type, JsonNode saved) {
            if (known == null || !saved.has("step")) return null;
            long id = saved.get("step").asLong();
            Strands.Strand s = known.get(id);
            if (s != null) return s;
            if (!saved.has("value")) return null;
            s = strands.restoreDoneStep(id, ValueCodec.decode(type.value(), saved.get("value"), this));
            known.put(id, s);
            return s;
        }
    }

    /** What a restore recovers before the run is re-entered. */
    public record Restored(List<Frame> framesOutermostFirst, String output, Type yieldedType, Object yielded,
                           long sequence, List<EffectJournal.Entry> journal, EffectRequest pending,
                           RunHost.Waiting waiting, long executedNanos, boolean awaitingTask,
                           dev.finch.vm.OutputRecorder.State outputRecord, long outputBytes, java.util.Map<String, Object> constants) { }

    /**
     * Parses and checks a saved continuation against the program it must belong to, remaking the closures of the
     * program's own literals ({@link Programs}) and rebuilding on {@code ctx} (the restored run's root context, its host
     * installed) the concurrent steps the run had when it paused: each with its closure and frames, the pause's owner,
     * and the root's results when it was draining (typed by {@code mainOuts}). {@code newConstants} types the
     * constants the run had defined.
     */
    public static Restored restore(String text, String expectedExecutionId, String expectedDigest, Programs programClosures,
                                   Ctx ctx, List<Type> mainOuts, java.util.Map<String, Type> newConstants) {
        JsonNode doc;
        try {
            doc = JSON.readTree(text);
        } catch (Exception e) {
            throw new Refused("the continuation is not readable JSON (truncated?)");
        }
        if (doc == null || !doc.isObject()) throw new Refused("the continuation is not a JSON object");
        if (!FORMAT.equals(doc.path("format").asText())) {
            throw new Refused("the continuation has format '" + doc.path("format").asText() + "'; this Finch reads " + FORMAT
                    + " (a run paused by an earlier Finch is continued or cancelled with that version)");
        }
        ObjectNode body = ((ObjectNode) doc).deepCopy();
        String checksum = body.path("checksum").asText();
        body.remove("checksum");
        if (!sha256(canonical(body)).equals(checksum)) throw new Refused("the continuation's checksum does not match: it was truncated or edited");
        if (!expectedExecutionId.equals(doc.path("execution_id").asText())) throw new Refused("the continuation belongs to another execution");
        if (!expectedDigest.equals(doc.path("module").asText())) throw new Refused("the continuation belongs to a different program or Finch version");
        try {
            if (doc.has("root_local")) ctx.strands.restoreRootLocal(restoreLocal(ctx, doc.get("root_local")));
            if (ctx.cpu != null) ctx.cpu.restoreNextId(doc.path("next_cpu_task").asLong(1));
            // Handles of the run's own steps may be saved even when none paused with it (an ended step's, with its value).
            java.util.Map<Long, Strands.Strand> known = new java.util.HashMap<>();
            ValueCodec.Closures closures = new WithSteps(programClosures, ctx.strands, known);
            JsonNode st = doc.get("strands");
            List<Strands.Strand> rebuilt = new ArrayList<>();
            // Every paused step first: the values below (theirs and the root's) may hold each other's handles.
            if (st != null) for (JsonNode step : st.get("steps")) rebuilt.add(ctx.strands.restorePausedStep(step.get("id").asLong(), step.get("parent").asLong(), known));
            // ---- the values, in the order save wrote them ----
            Type yt = doc.has("yielded_type") ? TypeSyntax.parse(doc.get("yielded_type").asText()) : null;
            Object yielded = yt == null ? null : ValueCodec.decode(yt, doc.get("yielded"), closures);
            List<Frame> frames = decodeFrames(doc.get("frames"), closures);
            JsonNode host = doc.get("host");
            EffectRequest pending = host.has("pending") ? RequestJson.decode(host.get("pending"), closures) : null;
            List<EffectJournal.Entry> journal = new ArrayList<>();
            for (JsonNode e : host.get("journal")) journal.add(new EffectJournal.Entry(RequestJson.decode(e.get("request"), closures), EffectJournal.State.valueOf(e.get("state").asText())));
            RunHost.Waiting waiting = host.has("waiting") ? RunHost.Waiting.valueOf(host.get("waiting").asText()) : null;
            java.util.Map<String, dev.finch.vm.boundary.RunState> runStates = new java.util.LinkedHashMap<>();
            for (var it = host.path("states").fields(); it.hasNext(); ) {
                var e = it.next();
                dev.finch.vm.boundary.RunState.Kind<?> kind = null;
                for (var k : dev.finch.vm.word.Extensions.all(dev.finch.vm.boundary.RunState.Kind.class)) if (k.name().equals(e.getKey())) kind = k;
                if (kind == null) throw new Refused("the continuation holds run state '" + e.getKey() + "', which no word library here keeps");
                runStates.put(e.getKey(), kind.restore(e.getValue()));
            }
            ((RunHost) ctx.host).restoreStates(runStates);
            if (st != null) {
                JsonNode states = doc.get("step_states");
                if (states == null || states.size() != rebuilt.size()) throw new Refused("the continuation's steps do not match their states");
                int k = 0;
                for (JsonNode step : states) {
                    Object local = step.has("local") ? restoreLocal(ctx, step.get("local")) : null;
                    Type ct = TypeSyntax.parse(step.get("closure_type").asText());
                    Object closure = ValueCodec.decode(ct, step.get("closure"), closures);
                    ctx.strands.restoreStep(rebuilt.get(k++), closure, decodeFrames(step.get("frames"), closures), step.get("retrying").asBoolean(), local);
                }
                JsonNode results = doc.get("root_results");
                boolean draining = st.path("root_draining").asBoolean(false);
                if (draining != (results != null)) throw new Refused("the continuation's results do not match its steps");
                if (results != null) {
                    if (results.size() != mainOuts.size()) throw new Refused("the continuation's results do not match the program's");
                    ctx.stackOut = new Object[mainOuts.size()];
                    for (int i = 0; i < mainOuts.size(); i++) ctx.stackOut[i] = ValueCodec.decode(mainOuts.get(i), results.get(i).get("value"), closures);
                }
                ctx.strands.restorePause(st.get("owner").asLong(), st.get("next").asLong(), draining, st.get("root_retrying").asBoolean());
            }
            java.util.Map<String, Object> constants = new java.util.LinkedHashMap<>();
            JsonNode saved = doc.path("constants");
            for (var c : new java.util.TreeMap<>(newConstants).entrySet()) {
                if (saved.has(c.getKey())) constants.put(c.getKey(), ValueCodec.decode(c.getValue(), saved.get(c.getKey()), closures));
            }
            if (saved.size() != constants.size()) throw new Refused("the continuation holds a constant its program does not define");
            for (JsonNode o : doc.path("fiber_undo")) {
                Type.FiberT type = (Type.FiberT) TypeSyntax.parse(o.get("fiber_type").asText());
                dev.finch.vm.value.Fiber f = (dev.finch.vm.value.Fiber) ValueCodec.decode(type, o.get("fiber"), closures);
                dev.finch.vm.value.Fiber.Status status = dev.finch.vm.value.Fiber.Status.valueOf(o.get("status").asText());
                Object result = status == dev.finch.vm.value.Fiber.Status.DONE ? ValueCodec.decode(type.result(), o.get("result"), closures) : null;
                ctx.touched(f, new dev.finch.vm.value.Fiber.Snapshot(status, decodeFrames(o.get("frames"), closures).toArray(new Frame[0]), result));
            }
            return new Restored(frames, doc.get("output").asText(), yt, yielded, host.get("sequence").asLong(), journal, pending, waiting,
                    doc.path("executed_ms").asLong(0) * 1_000_000, doc.path("awaiting_task").asBoolean(false),
                    OutputEventJson.decodeRecorder(doc.get("output_record")), doc.path("output_bytes").asLong(0), constants);
        } catch (Refused r) {
            throw r;
        } catch (RuntimeException e) {
            throw new Refused("the continuation is malformed: " + e.getMessage());
        }
    }

    /** Jackson writes object fields in insertion order, which save and restore preserve. */
    private static String canonical(JsonNode n) { return n.toString(); }

    private static String sha256(String s) { return dev.finch.ir.Sha256.hex(s); }

}
