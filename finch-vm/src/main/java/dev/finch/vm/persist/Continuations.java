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
import dev.finch.vm.host.EffectJournal;
import dev.finch.vm.host.EffectRequest;
import dev.finch.vm.host.RunHost;
import dev.finch.vm.TypedValue;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.Frame;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
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
    /** 2: a request's arguments are typed values (type and encoded value), no longer display strings. */
    public static final String FORMAT = "finch-continuation/2";
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
     * The closure literals of {@code module} in a fixed order (main's body, then each word's, each depth first,
     * nested literals included), as a continuation names them; {@code make} remakes a closure of one (null when
     * only saving).
     */
    public static ValueCodec.Closures closures(CheckedModule module, java.util.function.BiFunction<CheckedWord, Object[], Object> make) {
        List<CheckedWord> literals = new ArrayList<>();
        java.util.Map<CheckedWord, Integer> index = new java.util.HashMap<>();
        List<CheckedWord> roots = new ArrayList<>();
        roots.add(module.main());
        roots.addAll(module.words());
        for (CheckedWord root : roots) collect(root.body(), literals, index);
        return new ValueCodec.Closures() {
            @Override public int indexOf(CheckedWord body) { return index.getOrDefault(body, -1); }

            @Override public CheckedWord body(int i) { return i >= 0 && i < literals.size() ? literals.get(i) : null; }

            @Override public Object make(CheckedWord body, Object[] captures) {
                if (make == null) throw new Refused("closures are remade only when a run is restored");
                return make.apply(body, captures);
            }
        };
    }

    private static void collect(Checked.CheckedBlock block, List<CheckedWord> literals, java.util.Map<CheckedWord, Integer> index) {
        for (Checked.Node n : block.nodes()) {
            boolean handled = switch (n.kind()) {
                case CLOSURE -> {
                    CheckedWord body = ((Checked.ClosureNode) n).body();
                    index.putIfAbsent(body, literals.size());
                    literals.add(body);
                    collect(body.body(), literals, index);
                    yield true;
                }
                case PUSH, CALL, IF, IF_SOME, IF_OK, LOOP, UNTIL, CASE, LIST, MAP, RECORD, QUOTE, LOCAL_STORE, LOCAL_LOAD, PROPAGATE, CONSTANT -> {
                    for (Checked.CheckedBlock child : Checked.children(n)) collect(child, literals, index);
                    yield true;
                }
            };
        }
    }

    /** Saves the paused run: frames outermost first. */
    public static String save(String executionId, String moduleDigest, Ctx ctx, Type yieldedType) {
        return save(executionId, moduleDigest, ctx, yieldedType, null);
    }

    /** As above, saving the closures of the program's own literals ({@link #closures}). */
    public static String save(String executionId, String moduleDigest, Ctx ctx, Type yieldedType, ValueCodec.Closures closures) {
        ObjectNode doc = F.objectNode();
        doc.put("format", FORMAT);
        doc.put("execution_id", executionId);
        doc.put("module", moduleDigest);
        doc.put("output", ctx.output());
        // The execution's running time so far: its total time limit holds across processes too.
        doc.put("executed_ms", ctx.executedNanos() / 1_000_000);
        if (ctx.awaiting != null) {
            // Paused at task-join: nothing was published; the join runs again on resume (its task in the frame).
            doc.put("awaiting_task", true);
        } else if (ctx.host.pending().isEmpty()) {
            doc.put("yielded_type", yieldedType.toString());
            doc.set("yielded", ValueCodec.encode(yieldedType, ctx.yielded, closures));
        }
        ArrayNode frames = doc.putArray("frames");
        ctx.frames().descendingIterator().forEachRemaining(f -> {
            ObjectNode o = frames.addObject();
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
                    values.add(ValueCodec.encode(f.types().get(i), f.values()[i], closures));
                }
            }
        });
        RunHost h = ctx.host;
        ObjectNode host = doc.putObject("host");
        host.put("sequence", h.sequence());
        h.waiting().ifPresent(w -> host.put("waiting", w.name()));
        h.pending().ifPresent(r -> host.set("pending", RequestJson.encode(r, closures, false)));
        // No grants: a restored run holds its restoring host's, never authority carried in the image.
        ArrayNode journal = host.putArray("journal");
        for (EffectJournal.Entry e : h.journal().entries()) journal.addObject().put("state", e.state().name()).set("request", RequestJson.encode(e.request(), closures, false));
        doc.put("checksum", sha256(canonical(doc)));
        return doc.toString();
    }

    /** What a restore recovers before the run is re-entered. */
    public record Restored(List<Frame> framesOutermostFirst, String output, Type yieldedType, Object yielded,
                           long sequence, List<EffectJournal.Entry> journal, EffectRequest pending,
                           RunHost.Waiting waiting, long executedNanos, boolean awaitingTask) { }

    /** Parses and checks a saved continuation against the program it must belong to. */
    public static Restored restore(String text, String expectedExecutionId, String expectedDigest) {
        return restore(text, expectedExecutionId, expectedDigest, null);
    }

    /** As above, remaking the closures of the program's own literals ({@link #closures}). */
    public static Restored restore(String text, String expectedExecutionId, String expectedDigest, ValueCodec.Closures closures) {
        JsonNode doc;
        try {
            doc = JSON.readTree(text);
        } catch (Exception e) {
            throw new Refused("the continuation is not readable JSON (truncated?)");
        }
        if (doc == null || !doc.isObject()) throw new Refused("the continuation is not a JSON object");
        if (!FORMAT.equals(doc.path("format").asText())) {
            throw new Refused("the continuation has format '" + doc.path("format").asText() + "'; this Finch reads " + FORMAT);
        }
        ObjectNode body = ((ObjectNode) doc).deepCopy();
        String checksum = body.path("checksum").asText();
        body.remove("checksum");
        if (!sha256(canonical(body)).equals(checksum)) throw new Refused("the continuation's checksum does not match: it was truncated or edited");
        if (!expectedExecutionId.equals(doc.path("execution_id").asText())) throw new Refused("the continuation belongs to another execution");
        if (!expectedDigest.equals(doc.path("module").asText())) throw new Refused("the continuation belongs to a different program or Finch version");
        try {
            List<Frame> frames = new ArrayList<>();
            for (JsonNode f : doc.get("frames")) {
                List<Type> types = new ArrayList<>();
                for (JsonNode t : f.get("types")) types.add(TypeSyntax.parse(t.asText()));
                Object[] values = new Object[types.size()];
                JsonNode vs = f.get("values");
                if (vs.size() != types.size()) throw new Refused("a frame's values do not match its types");
                java.util.Set<Integer> unset = new java.util.HashSet<>();
                for (JsonNode u : f.path("unset")) unset.add(u.asInt());
                for (int i = 0; i < values.length; i++) values[i] = unset.contains(i) ? null : ValueCodec.decode(types.get(i), vs.get(i), closures);
                frames.add(new Frame(f.get("word").asText(), f.get("point").asInt(), values, types));
            }
            Type yt = doc.has("yielded_type") ? TypeSyntax.parse(doc.get("yielded_type").asText()) : null;
            Object yielded = yt == null ? null : ValueCodec.decode(yt, doc.get("yielded"), closures);
            JsonNode host = doc.get("host");
            List<EffectJournal.Entry> journal = new ArrayList<>();
            for (JsonNode e : host.get("journal")) journal.add(new EffectJournal.Entry(RequestJson.decode(e.get("request"), closures), EffectJournal.State.valueOf(e.get("state").asText())));
            EffectRequest pending = host.has("pending") ? RequestJson.decode(host.get("pending"), closures) : null;
            RunHost.Waiting waiting = host.has("waiting") ? RunHost.Waiting.valueOf(host.get("waiting").asText()) : null;
            return new Restored(frames, doc.get("output").asText(), yt, yielded, host.get("sequence").asLong(), journal, pending, waiting,
                    doc.path("executed_ms").asLong(0) * 1_000_000, doc.path("awaiting_task").asBoolean(false));
        } catch (Refused r) {
            throw r;
        } catch (RuntimeException e) {
            throw new Refused("the continuation is malformed: " + e.getMessage());
        }
    }

    /** Jackson writes object fields in insertion order, which save and restore preserve. */
    private static String canonical(JsonNode n) { return n.toString(); }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
