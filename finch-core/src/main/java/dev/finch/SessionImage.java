package dev.finch;

import dev.finch.vm.persist.DurableRuns;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.Frontend;
import dev.finch.ir.Lowering;
import dev.finch.ir.checked.Checked.CheckedModule;
import dev.finch.ir.checked.Environment;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.type.TypeSyntax;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CompiledWord;
import dev.finch.vm.engine.Suspension;
import dev.finch.vm.TypedValue;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.persist.Continuations;
import dev.finch.vm.persist.Programs;
import dev.finch.vm.persist.ValueCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session as data (issue 6, durable continuations; issue 33, images that hold what the session holds): its
 * definitions ({@link SessionHistory}: the submissions its dictionary was built from that it still needs, each with
 * only its part of the session), its stack and constants as typed values, and — saved with {@link Session#save(String)}
 * — one suspended execution's continuation ({@link Continuations}); or none, between submissions
 * ({@link Session#save()}). Signed with the Finch's image key (or checksummed, for a Finch that accepts unkeyed images).
 *
 * <p>Restoring reads the image and nothing more: each definition is verified and compiled again when first needed
 * (an image of another build of Finch has every definition rebuilt at restore, which refuses one that no longer
 * rebuilds the same way); the suspended execution's program is verified, bound to its continuation by digest, and
 * nothing resumes until the host says so. Values are written in one order and read in the same — the stack, the
 * constants, then the continuation — so a handle the paused run and the stack share (a fiber) is one handle after a
 * restore as before it.
 *
 * <p>Format {@code finch-session/2}: {@code {"format","engine","session_id","vm_revision","manifest_generation",
 * "vocabulary","definitions":[…],"stack":[{"type","value"}…],"constants":{name:{"type","value"}},"suspended":null |
 * {"execution_id","entry":{"text","language","source_id"[,"call":true,"stack":[types]]},"continuation","pause"},
 * "mac"|"checksum"}}. Images of format {@code finch-session/1} are still read (every definition verified again).
 */
public final class SessionImage {
    public static final String FORMAT = "finch-session/2";
    /** The first format: every committed submission with the whole session it was verified against. */
    static final String FORMAT_1 = "finch-session/1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private SessionImage() { }

    /**
     * Why an image cannot be written or read ({@code E-SESSION-010}): nothing was saved or restored. The message says
     * what in Finch's words; the original failure, if any, is the cause.
     */
    public static final class ImageException extends RuntimeException {
        public ImageException(String message) { super(message, null, false, false); }

        public ImageException(String message, Throwable cause) { super(message, cause, false, false); }

        /** The stable code: {@code E-SESSION-010}. */
        public String code() { return SessionCode.IMAGE.code(); }

        /** This refusal as a diagnostic. */
        public Diagnostic diagnostic() { return SessionCode.IMAGE.at(Origin.of("<image>", 0, 0), getMessage()); }
    }

    // --------------------------------------------------------------------------------------------------- save

    /** The image of {@code session} with its suspended execution {@code executionId}, or with none when it is null. */
    static String save(Session session, String executionId) {
        Suspension suspension = null;
        SessionHistory.Submitted entry = null;
        if (executionId != null) {
            suspension = session.suspension(executionId)
                    .orElseThrow(() -> new ImageException("no suspended execution " + executionId + " in session " + session.id()));
            entry = session.inFlight(executionId).orElseThrow(() -> new ImageException("execution " + executionId + " has no recorded source"));
            if (session.baseRevision(executionId).orElse(-1L) != session.vmRevision()) {
                throw new ImageException("the session moved on since execution " + executionId + " was suspended; its image would be stale");
            }
        }
        SessionHistory history = session.history();
        Programs programs = history.programs();
        VmState state = session.committedState();
        ArrayNode stack = F.arrayNode();
        ObjectNode constants = F.objectNode();
        String continuation = null;
        try {
            // The stack and constants first, then the paused run: they share one table of handles, so a fiber both hold
            // is saved once (as it is now: the paused run's changes show there, as they do in place).
            for (TypedValue v : state.stack()) stack.add(typed(v, programs));
            for (var c : new java.util.TreeMap<>(state.constants()).entrySet()) constants.set(c.getKey(), typed(c.getValue(), programs));
            if (suspension != null) continuation = DurableRuns.save(suspension, programs);
        } catch (ValueCodec.NotDurable | Continuations.Refused e) {
            throw new ImageException((suspension == null ? "the session's stack or constants" : "execution " + executionId)
                    + " cannot be saved: " + e.getMessage(), e);
        }
        Set<Long> named = new java.util.HashSet<>(programs.named());
        named.remove(Programs.RUN);
        ObjectNode doc = F.objectNode();
        doc.put("format", FORMAT);
        doc.put("engine", EngineFingerprint.of());
        doc.put("session_id", session.id());
        // Whose session memory tree the session reads: its own id, or the first saved session's when it was restored.
        doc.put("memory_owner", session.memoryOwner());
        doc.put("vm_revision", session.vmRevision());
        doc.put("manifest_generation", session.manifestGeneration());
        doc.put("vocabulary", session.vocabulary().fingerprint());
        doc.set("definitions", history.write(named, entry == null ? Set.of() : history.usedBy(entry.module())));
        doc.set("stack", stack);
        doc.set("constants", constants);
        if (suspension == null) {
            doc.putNull("suspended");
        } else {
            ObjectNode susp = doc.putObject("suspended");
            susp.put("execution_id", executionId);
            ObjectNode e = susp.putObject("entry");
            e.put("text", entry.text()).put("language", entry.language()).put("source_id", entry.sourceId());
            if (entry.call()) {
                // A call runs on its arguments, not on the session's stack: their types are its stack.
                e.put("call", true);
                ArrayNode types = e.putArray("stack");
                entry.env().stack().forEach(t -> types.add(t.toString()));
            }
            susp.put("continuation", continuation);
            susp.put("pause", session.pause(executionId));
        }
        byte[] key = session.finch().imageKey();
        if (key != null) doc.put("mac", hmac(key, doc.toString()));
        else doc.put("checksum", sha256(doc.toString()));
        return doc.toString();
    }

    private static ObjectNode typed(TypedValue v, ValueCodec.Closures programs) {
        ObjectNode o = F.objectNode();
        o.put("type", v.type().toString());
        o.set("value", ValueCodec.encode(v.type(), v.value(), programs));
        return o;
    }

    // ------------------------------------------------------------------------------------------------ restore

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
        String format = doc == null ? "" : doc.path("format").asText();
        if (!doc.isObject() || !FORMAT.equals(format) && !FORMAT_1.equals(format)) {
            throw new ImageException("not a session image of format " + FORMAT + " (nor " + FORMAT_1 + ")");
        }
        authenticate(finch, (ObjectNode) doc);
        try {
            Session session = new Session(finch, finch.newSessionId(), options, true);
            // The restored session keeps the session memory tree of the one saved (an older image: its saving session's).
            JsonNode owner = doc.has("memory_owner") ? doc.get("memory_owner") : doc.get("session_id");
            if (owner != null && owner.isTextual() && !owner.asText().isEmpty()) session.memoryOwner(owner.asText());
            if (!sessionWords.isEmpty()) session.installWords(sessionWords);
            dev.finch.ir.vocab.Vocabulary vocabulary = session.vocabulary();
            if (!vocabulary.fingerprint().equals(doc.path("vocabulary").asText())) {
                throw new ImageException("the session image was saved under another vocabulary: restore it into a Finch with the same "
                        + "words (Finch.builder().words(…)), installing the words the session had installed (Finch.restore(image, words))");
            }
            SessionHistory history = session.history();
            Map<String, CompiledWord> dictionary;
            if (FORMAT_1.equals(format)) {
                List<SessionHistory.Submitted> entries = new ArrayList<>();
                for (JsonNode h : doc.get("history")) entries.add(format1Entry(h, vocabulary));
                dictionary = history.readFormat1(entries);
            } else {
                // An image this build wrote is rebuilt as it is used; any other, now (refused if it does not rebuild).
                String engine = doc.path("engine").asText();
                boolean eager = finch.verifiesRestoredHistory() || engine.equals(EngineFingerprint.UNKNOWN) || !engine.equals(EngineFingerprint.of());
                dictionary = history.read(doc.get("definitions"), eager);
            }
            Programs programs = history.programs();
            List<TypedValue> stack = new ArrayList<>();
            for (JsonNode v : doc.get("stack")) stack.add(typed(v, programs));
            Map<String, TypedValue> constants = new LinkedHashMap<>();
            for (var it = doc.get("constants").fields(); it.hasNext(); ) {
                var f = it.next();
                constants.put(f.getKey(), typed(f.getValue(), programs));
            }
            VmState base = new VmState(session.committedState().library(), stack, dictionary, constants);
            long revision = doc.get("vm_revision").asLong();
            session.install(base, revision, doc.get("manifest_generation").asLong());
            JsonNode s = doc.get("suspended");
            if (s == null) throw new ImageException("the session image is malformed: it has no \"suspended\" field");
            if (s.isNull()) return session;                 // an image of a session between submissions (Session.save())
            String executionId = s.get("execution_id").asText();
            SessionHistory.Submitted entry = suspended(finch, s.get("entry"), base);
            // The paused run schedules from its own program's words too, as it did in place.
            var host = session.hostConfig(new SessionSchedules(session, base, entry.module()));
            Suspension suspension = DurableRuns.restore(finch.vm(), executionId, entry.module(), base.withStack(entry.call() ? List.of() : stack),
                    host, s.get("continuation").asText(), programs);
            List<String> inferred = new ArrayList<>();
            entry.module().inferredCapabilities().forEach(c -> inferred.add(c.toString()));
            long pause = s.path("pause").asLong(1);
            if (pause < 1) throw new ImageException("the session image's pause number is not positive");
            session.installSuspended(executionId, suspension, entry, inferred, revision, pause);
            return session;
        } catch (ImageException e) {
            throw e;
        } catch (CompiledWord.Unavailable e) {
            throw new ImageException(e.getMessage(), e);
        } catch (Continuations.Refused | ValueCodec.Malformed | SessionHistory.Unrebuildable e) {
            throw new ImageException(e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ImageException("the session image is malformed", e);
        }
    }

    /** The suspended submission, verified against the restored session as it was verified then. */
    private static SessionHistory.Submitted suspended(Finch finch, JsonNode e, VmState base) {
        Environment env = base.environment();
        boolean call = e.path("call").asBoolean(false);
        if (call) {
            List<Type> types = new ArrayList<>();
            for (JsonNode t : e.path("stack")) types.add(TypeSyntax.parse(t.asText()));
            env = env.withStack(types);
        }
        String text = e.get("text").asText();
        String language = e.get("language").asText();
        String sourceId = e.get("source_id").asText();
        return new SessionHistory.Submitted(text, language, sourceId, env, call, verify(finch, text, language, sourceId, env));
    }

    private static CheckedModule verify(Finch finch, String text, String language, String sourceId, Environment env) {
        Frontend f = finch.frontend(Language.named(language).orElseThrow(() -> new ImageException("unknown language " + language)))
                .orElseThrow(() -> new ImageException("language " + language + " is not available"));
        Lowering l = f.lower(text, sourceId, env);
        if (!l.ok()) throw new ImageException("the suspended submission no longer lowers: " + l.diagnostics());
        Verification v = Verifier.verify(l.module().orElseThrow(), env);
        if (!v.ok()) throw new ImageException("the suspended submission no longer verifies: " + v.diagnostics());
        return v.module().orElseThrow();
    }

    /** An entry of a format-1 image: its text and the whole session it was verified against. */
    private static SessionHistory.Submitted format1Entry(JsonNode o, dev.finch.ir.vocab.Vocabulary vocabulary) {
        JsonNode env = o.get("env");
        Map<String, Type.Fn> words = new LinkedHashMap<>();
        env.get("words").fields().forEachRemaining(f -> words.put(f.getKey(), TypeSyntax.parseSignature(f.getValue().asText())));
        Map<String, Type> consts = new LinkedHashMap<>();
        env.get("constants").fields().forEachRemaining(f -> consts.put(f.getKey(), TypeSyntax.parse(f.getValue().asText())));
        List<Type> stack = new ArrayList<>();
        env.get("stack").forEach(t -> stack.add(TypeSyntax.parse(t.asText())));
        java.util.Set<String> pausing = new java.util.HashSet<>();
        env.path("pausing").forEach(n -> pausing.add(n.asText()));
        return new SessionHistory.Submitted(o.get("text").asText(), o.get("language").asText(), o.get("source_id").asText(),
                new Environment(vocabulary, words, consts, stack).withPausing(pausing), o.path("call").asBoolean(false), null);
    }

    private static TypedValue typed(JsonNode o, ValueCodec.Closures programs) {
        Type t = TypeSyntax.parse(o.get("type").asText());
        return new TypedValue(t, ValueCodec.decode(t, o.get("value"), programs));
    }

    // ------------------------------------------------------------------------------------------ authenticity

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
