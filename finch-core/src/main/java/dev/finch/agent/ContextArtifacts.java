package dev.finch.agent;

import dev.finch.host.AgentCode;
import dev.finch.host.AgentHost;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The immutable context artifacts a host registered for child agents (contract: "Hosts register immutable bounded
 * UTF-8 artifacts and receive the computed {kind,id,sha256} reference"). A program names one by its reference in
 * {@code agent-spawn-with}'s {@code context-refs}; creating the child resolves every reference and recomputes its
 * digest over the stored bytes before a task is allocated, and the child receives the verified contents in its data
 * context. An artifact cannot be replaced: registering the same kind and id again with other content is refused.
 * Thread-safe.
 */
public final class ContextArtifacts {
    /** The largest artifact, in UTF-8 bytes. */
    public static final int MAX_BYTES = 1 << 20;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:/-]{1,128}");

    private record Key(String kind, String id) { }

    private record Artifact(byte[] utf8, String sha256) { }

    private final Map<Key, Artifact> artifacts = new ConcurrentHashMap<>();

    /**
     * Registers {@code text} as the artifact {@code kind}/{@code id} and answers its reference.
     *
     * @throws IllegalArgumentException for a malformed kind or id, text over {@link #MAX_BYTES} bytes or with an unpaired
     *         surrogate (not UTF-8 text), or other content under a kind and id already registered
     */
    public AgentHost.ContextRef register(String kind, String id, String text) {
        if (kind == null || !NAME.matcher(kind).matches()) throw new IllegalArgumentException("bad context kind: " + kind);
        if (id == null || !NAME.matcher(id).matches()) throw new IllegalArgumentException("bad context id: " + id);
        byte[] utf8 = strictUtf8(text);
        if (utf8.length > MAX_BYTES) throw new IllegalArgumentException("a context artifact is at most " + MAX_BYTES + " bytes, not " + utf8.length);
        Artifact a = new Artifact(utf8, sha256(utf8));
        Artifact before = artifacts.putIfAbsent(new Key(kind, id), a);
        if (before != null && !before.sha256().equals(a.sha256())) {
            throw new IllegalArgumentException("context artifact " + kind + ":" + id + " is already registered with other content; artifacts are immutable");
        }
        return new AgentHost.ContextRef(kind, id, a.sha256());
    }

    /** A verified artifact: its reference and its text. */
    public record Verified(AgentHost.ContextRef ref, String text) { }

    /**
     * Resolves and verifies every reference: each must be registered, and the digest recomputed over its stored bytes
     * must equal the reference's.
     */
    List<Verified> verify(List<AgentHost.ContextRef> refs) throws AgentHost.Refusal {
        List<Verified> out = new java.util.ArrayList<>();
        for (AgentHost.ContextRef r : refs) {
            Artifact a = artifacts.get(new Key(r.kind(), r.id()));
            if (a == null) throw new AgentHost.Refusal(AgentCode.CONTEXT_REF, "no context artifact " + r.kind() + ":" + r.id() + " is registered on this host");
            String actual = sha256(a.utf8());
            if (!actual.equals(r.sha256())) {
                throw new AgentHost.Refusal(AgentCode.CONTEXT_REF, "context artifact " + r.kind() + ":" + r.id() + " hashes to " + actual
                        + ", not to the reference's " + r.sha256());
            }
            out.add(new Verified(r, new String(a.utf8(), StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static byte[] strictUtf8(String text) {
        if (text == null) throw new IllegalArgumentException("no text");
        try {
            return toArray(StandardCharsets.UTF_8.newEncoder().encode(java.nio.CharBuffer.wrap(text)));
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("context text is not valid Unicode (an unpaired surrogate)");
        }
    }

    private static byte[] toArray(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** The lowercase hexadecimal SHA-256 of {@code bytes}. */
    static String sha256(byte[] bytes) { return dev.finch.ir.Sha256.hex(bytes); }
}
