package dev.finch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.Suspension;
import dev.finch.vm.TypedValue;
import dev.finch.vm.VmState;
import dev.finch.vm.persist.Continuations;
import dev.finch.vm.persist.ValueCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session with a suspended execution (or, from {@link Session#save()}, between submissions: issue 23), as data
 * (issue 6, durable continuations). It keeps the committed submissions (their text, language, source identity and the environment each was verified against), which
 * rebuild the dictionary without running anything; the persistent stack and constants as typed values; and the
 * suspended execution's continuation ({@link Continuations}). Restoring re-lowers and re-verifies deterministically,
 * checks the continuation is bound to exactly that program, and resumes nothing until the host says so.
 */
public final class SessionImage {
    public static final String FORMAT = "finch-session/1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private SessionImage() { }

    /**
     * One submission — or one {@link Session#call}, as the Co-Forth of its single word call — with its text and what it
     * was verified against.
     */
    public record Entry(String text, String language, String sourceId, Environment env, boolean call, CheckedModule module) {
        public Entry(String text, String language, String sourceId, Environment env) { this(text, language, sourceId, env, false, null); }

        /** The entry of a verified submission (or call), keeping its module in memory: its closure literals name saved values. */
        public Entry withModule(CheckedModule m) { return new Entry(text, language, sourceId, env, call, m); }
    }

    /** Why an image cannot be written or read. */
    public static final class ImageException extends RuntimeException {
        public ImageException(String message) { super(message, null, false, false); }
    }

    /** The image of {@code session} with its suspended execution {@code executionId}, or with none when it is null. */
    static String save(Session session, String executionId) {
        Suspension suspension = null;
        Entry entry = null;
        if (executionId != null) {
            suspension = session.suspension(executionId)
                    .orElseThrow(() -> new ImageException("no suspended execution " + executionId + " in session " + session.id()));
            entry = session.inFlight(executionId).orElseThrow(() -> new ImageException("execution " + executionId + " has no recorded source"));
            if (session.baseRevision(executionId).orElse(-1L) != session.vmRevision()) {
                throw new ImageException("the session moved on since execution " + executionId + " was suspended; its image would be stale");
            }
        }
        // The session's earlier submissions, whose closure literals (a fiber's body) saved values may name.
        List<Entry> past = session.history();
        List<CheckedModule> earlier = new ArrayList<>();
        for (Entry e : past) earlier.add(e.module() != null ? e.module() : verify(session.finch(), e));
        String continuation = null;
        if (suspension != null) {
            try {
                continuation = session.finch().vm().save(suspension, earlier);
            } catch (ValueCodec.NotDurable | Continuations.Refused e) {
                throw new ImageException("execution " + executionId + " cannot be saved: " + e.getMessage());
            }
        }
        List<Continuations.Program> programs = new ArrayList<>();
        for (CheckedModule m : earlier) programs.add(new Continuations.Program(m, null));
        // The committed stack beside the paused run: fibers the run changed are saved as they were before it.
        ValueCodec.Closures literals = suspension == null ? Continuations.closures(programs)
                : Continuations.closures(programs, suspension.committedFibers());
        ObjectNode doc = F.objectNode();
        doc.put("format", FORMAT);
        doc.put("session_id", session.id());
        doc.put("vm_revision", session.vmRevision());
        doc.put("manifest_generation", session.manifestGeneration());
        doc.put("vocabulary", session.vocabulary().fingerprint());
        ArrayNode history = doc.putArray("history");
        for (Entry e : past) history.add(entry(e));
        VmState state = session.committedState();
        ArrayNode stack = doc.putArray("stack");
        ObjectNode constants = doc.putObject("constants");
        try {
            for (TypedValue v : state.stack()) stack.add(typed(v, literals));
            state.constants().forEach((n, v) -> constants.set(n, typed(v, literals)));
        } catch (ValueCodec.NotDurable e) {
            throw new ImageException("the session's stack or constants cannot be saved: " + e.getMessage());
        }
        if (suspension == null) {
            doc.putNull("suspended");
        } else {
            ObjectNode susp = doc.putObject("suspended");
            susp.put("execution_id", executionId);
            susp.set("entry", entry(entry));
            susp.put("continuation", continuation);
            susp.put("pause", session.pause(executionId));
        }
        byte[] key = session.finch().imageKey();
        if (key != null) doc.put("mac", hmac(key, doc.toString()));
        else doc.put("checksum", sha256(doc.toString()));
        return doc.toString();
    }

    static Session restore(Finch finch, String image, SessionOptions options, List<Class<?>> sessionWords) {
        if (image == null) throw new IllegalArgumentException("image is null");
        if (options == null) throw new IllegalArgumentException("options is null");
        if (sessionWords == null) throw new IllegalArgumentException("sessionWords is null");
        JsonNode doc;
        try {
            doc = JSON.readTree(image);
        } catch (Exception e) {
            throw new ImageException("the session image is not readable JSON (truncated?)");
        }
        if (doc == null || !doc.isObject() || !FORMAT.equals(doc.path("format").asText())) {
            throw new ImageException("not a session image of format " + FORMAT);
        }
        authenticate(finch, (ObjectNode) doc);
        try {
            Session session = new Session(finch, finch.newSessionId(), options);
            if (!sessionWords.isEmpty()) session.installWords(sessionWords);
            dev.finch.ir.vocab.Vocabulary vocabulary = session.vocabulary();
            if (!vocabulary.fingerprint().equals(doc.path("vocabulary").asText())) {
                throw new ImageException("the session image was saved under another vocabulary: restore it into a Finch with the same "
                        + "words (Finch.builder().words(…)), installing the words the session had installed (Finch.restore(image, words))");
            }
            VmState state = session.committedState();
            List<Entry> entries = new ArrayList<>();
            List<Continuations.Program> programs = new ArrayList<>();
            for (JsonNode h : doc.get("history")) {
                Entry e = entry(h, vocabulary);
                CheckedModule m = verify(finch, e);
                entries.add(e.withModule(m));
                dev.finch.vm.Vm.Rebuilt rebuilt = finch.vm().rebuild(m, state);
                state = rebuilt.state();
                programs.add(rebuilt.program());
            }
            ValueCodec.Closures literals = Continuations.closures(programs);
            List<TypedValue> stack = new ArrayList<>();
            for (JsonNode v : doc.get("stack")) stack.add(typed(v, literals));
            Map<String, TypedValue> constants = new LinkedHashMap<>();
            doc.get("constants").fields().forEachRemaining(f -> constants.put(f.getKey(), typed(f.getValue(), literals)));
            VmState base = new VmState(state.library(), stack, state.words(), constants);
            long revision = doc.get("vm_revision").asLong();
            session.install(base, revision, doc.get("manifest_generation").asLong(), entries);
            JsonNode s = doc.get("suspended");
            if (s == null) throw new ImageException("the session image is malformed: it has no \"suspended\" field");
            if (s.isNull()) return session;                 // an image of a session between submissions (Session.save())
            String executionId = s.get("execution_id").asText();
            Entry entry = entry(s.get("entry"), vocabulary);
            CheckedModule module = verify(finch, entry);
            Suspension suspension = finch.vm().restore(executionId, module, base, session.hostConfig(), s.get("continuation").asText(), programs);
            List<String> inferred = new ArrayList<>();
            module.inferredCapabilities().forEach(c -> inferred.add(c.toString()));
            long pause = s.path("pause").asLong(1);
            if (pause < 1) throw new ImageException("the session image's pause number is not positive");
            session.installSuspended(executionId, suspension, entry, inferred, revision, pause);
            return session;
        } catch (ImageException e) {
            throw e;
        } catch (Continuations.Refused | ValueCodec.Malformed e) {
            throw new ImageException(e.getMessage());
        } catch (RuntimeException e) {
            throw new ImageException("the session image is malformed: " + e);
        }
    }

    private static CheckedModule verify(Finch finch, Entry e) {
        Frontend f = finch.frontend(Language.named(e.language()).orElseThrow(() -> new ImageException("unknown language " + e.language())))
                .orElseThrow(() -> new ImageException("language " + e.language() + " is not available"));
        Lowering l = f.lower(e.text(), e.sourceId(), e.env());
        if (!l.ok()) throw new ImageException("a saved submission no longer lowers: " + l.diagnostics());
        Verification v = Verifier.verify(l.module().orElseThrow(), e.env());
        if (!v.ok()) throw new ImageException("a saved submission no longer verifies: " + v.diagnostics());
        return v.module().orElseThrow();
    }

    private static ObjectNode entry(Entry e) {
        ObjectNode o = F.objectNode();
        o.put("text", e.text());
        o.put("language", e.language());
        o.put("source_id", e.sourceId());
        if (e.call()) o.put("call", true);
        ObjectNode env = o.putObject("env");
        ObjectNode words = env.putObject("words");
        new java.util.TreeMap<>(e.env().words()).forEach((n, t) -> words.put(n, t.toString()));
        ObjectNode consts = env.putObject("constants");
        new java.util.TreeMap<>(e.env().constants()).forEach((n, t) -> consts.put(n, t.toString()));
        ArrayNode stack = env.putArray("stack");
        e.env().stack().forEach(t -> stack.add(t.toString()));
        if (!e.env().pausing().isEmpty()) {
            ArrayNode pausing = env.putArray("pausing");
            new java.util.TreeSet<>(e.env().pausing()).forEach(pausing::add);
        }
        return o;
    }

    private static Entry entry(JsonNode o, dev.finch.ir.vocab.Vocabulary vocabulary) {
        JsonNode env = o.get("env");
        Map<String, Type.Fn> words = new LinkedHashMap<>();
        env.get("words").fields().forEachRemaining(f -> words.put(f.getKey(), TypeSyntax.parseSignature(f.getValue().asText())));
        Map<String, Type> consts = new LinkedHashMap<>();
        env.get("constants").fields().forEachRemaining(f -> consts.put(f.getKey(), TypeSyntax.parse(f.getValue().asText())));
        List<Type> stack = new ArrayList<>();
        env.get("stack").forEach(t -> stack.add(TypeSyntax.parse(t.asText())));
        java.util.Set<String> pausing = new java.util.HashSet<>();
        env.path("pausing").forEach(n -> pausing.add(n.asText()));
        return new Entry(o.get("text").asText(), o.get("language").asText(), o.get("source_id").asText(),
                new Environment(vocabulary, words, consts, stack).withPausing(pausing),
                o.path("call").asBoolean(false), null);
    }

    private static ObjectNode typed(TypedValue v, ValueCodec.Closures literals) {
        ObjectNode o = F.objectNode();
        o.put("type", v.type().toString());
        o.set("value", ValueCodec.encode(v.type(), v.value(), literals));
        return o;
    }

    private static TypedValue typed(JsonNode o, ValueCodec.Closures literals) {
        Type t = TypeSyntax.parse(o.get("type").asText());
        return new TypedValue(t, ValueCodec.decode(t, o.get("value"), literals));
    }

    /**
     * Refuses an image this Finch cannot vouch for: with a key, exactly the images its key signed (HMAC-SHA-256 over the
     * image without its mac, compared in constant time); an unkeyed image's checksum only when the embedder accepts
     * unkeyed images, since anyone can recompute it.
     */
    private static void authenticate(Finch finch, ObjectNode doc) {
        ObjectNode body = doc.deepCopy();
        byte[] key = finch.imageKey();
        if (body.has("mac")) {
            String mac = body.path("mac").asText();
            body.remove("mac");
            if (key == null) throw new ImageException("the session image is signed with a key, and this Finch has none: build it with Finch.builder().imageKey(…)");
            if (!java.security.MessageDigest.isEqual(hmac(key, body.toString()).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    mac.getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
                throw new ImageException("the session image is not authentic: it was edited, truncated, or signed with another key");
            }
            return;
        }
        if (!finch.acceptsUnkeyedImages()) {
            throw new ImageException("the session image is not signed with a key, and this Finch accepts only signed images "
                    + "(Finch.builder().imageKey(…) signs them; acceptUnkeyedImages() accepts unsigned ones from a trusted store)");
        }
        String checksum = body.path("checksum").asText();
        body.remove("checksum");
        if (!sha256(body.toString()).equals(checksum)) throw new ImageException("the session image's checksum does not match: truncated or edited");
    }

    private static String hmac(byte[] key, String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    private static String sha256(String text) { return dev.finch.ir.Sha256.hex(text); }
}
