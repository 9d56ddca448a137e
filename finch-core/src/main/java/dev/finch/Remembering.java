package dev.finch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.Scope;
import dev.finch.store.FinchStore;
import dev.finch.store.Memory;
import dev.finch.store.RememberedGrants;
import dev.finch.store.StoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * What a {@link Finch} remembers beyond one session: {@code project} and {@code global} grants (and their
 * revocations) and the memory trees. With a store ({@link Finch.Builder#store}) both live in it and outlive the
 * process; without one they live as long as this {@code Finch} — shared by its sessions, gone with the process.
 */
sealed interface Remembering permits Remembering.Stored, Remembering.Local {
    /** The grants in force for a session of {@code projectId} (null: no project): the global ones and the project's. */
    List<Grant> grants(String projectId);

    /** Remembers {@code grant} (of project or global scope) for {@code projectId}. */
    void remember(String projectId, Grant grant);

    /** Revokes a remembered grant by id; true when one was in force. */
    boolean revoke(String projectId, String grantId);

    /** The committed value at {@code key}. */
    Optional<JsonNode> read(Memory.Key key);

    /** The committed paths of {@code space} at or under {@code prefix}. */
    Memory.Listing list(Memory.Space space, String prefix, int limit);

    /** Applies {@code writes} (a null value deletes), all or none. */
    void apply(List<Map.Entry<Memory.Key, JsonNode>> writes);

    /** The largest value one entry may hold, in bytes of compact JSON. */
    int maxValueBytes();

    /** Through a store: what it keeps outlives the process and is shared with every process on it. */
    record Stored(FinchStore store) implements Remembering {
        @Override public List<Grant> grants(String projectId) {
            List<Grant> out = new ArrayList<>();
            for (var r : store.grants().active(Scope.GLOBAL, null)) out.add(r.grant());
            if (projectId != null) for (var r : store.grants().active(Scope.PROJECT, projectId)) out.add(r.grant());
            return out;
        }

        @Override public void remember(String projectId, Grant grant) {
            store.grants().remember(new RememberedGrants.Remembered(grant.scope() == Scope.GLOBAL ? null : projectId, grant, Instant.now()));
        }

        @Override public boolean revoke(String projectId, String grantId) {
            boolean any = store.grants().revoke(RememberedGrants.Key.global(grantId), Instant.now());
            if (projectId != null) any |= store.grants().revoke(RememberedGrants.Key.project(projectId, grantId), Instant.now());
            return any;
        }

        @Override public Optional<JsonNode> read(Memory.Key key) { return store.memory().get(key); }

        @Override public Memory.Listing list(Memory.Space space, String prefix, int limit) {
            return store.memory().list(space, prefix, Math.min(limit, store.limits().maxListing()));
        }

        @Override public void apply(List<Map.Entry<Memory.Key, JsonNode>> writes) {
            store.transaction(tx -> {
                for (var w : writes) {
                    if (w.getValue() == null) tx.memory().delete(w.getKey());
                    else tx.memory().put(w.getKey(), w.getValue());
                }
                return null;
            });
        }

        @Override public int maxValueBytes() { return store.limits().maxValueBytes(); }
    }

    /** In this Finch only: shared by its sessions, gone with the process. */
    final class Local implements Remembering {
        private static final int MAX_VALUE_BYTES = 64 * 1024;
        private final Map<String, Grant> global = new ConcurrentHashMap<>();
        private final Map<String, Map<String, Grant>> projects = new ConcurrentHashMap<>();
        private final ConcurrentSkipListMap<String, JsonNode> memory = new ConcurrentSkipListMap<>();

        @Override public List<Grant> grants(String projectId) {
            List<Grant> out = new ArrayList<>(global.values());
            if (projectId != null) out.addAll(projects.getOrDefault(projectId, Map.of()).values());
            return out;
        }

        @Override public void remember(String projectId, Grant grant) {
            if (grant.scope() == Scope.GLOBAL) global.put(grant.id(), grant);
            else projects.computeIfAbsent(projectId, p -> new ConcurrentHashMap<>()).put(grant.id(), grant);
        }

        @Override public boolean revoke(String projectId, String grantId) {
            boolean any = global.remove(grantId) != null;
            if (projectId != null) any |= projects.getOrDefault(projectId, new ConcurrentHashMap<>()).remove(grantId) != null;
            return any;
        }

        @Override public Optional<JsonNode> read(Memory.Key key) { return Optional.ofNullable(memory.get(flat(key.space(), key.path()))); }

        @Override public Memory.Listing list(Memory.Space space, String prefix, int limit) {
            String base = flat(space, "");
            List<String> out = new ArrayList<>();
            boolean truncated = false;
            for (String k : memory.tailMap(base).keySet()) {
                if (!k.startsWith(base)) break;
                String path = k.substring(base.length());
                if (!(prefix.isEmpty() || path.equals(prefix) || path.startsWith(prefix + "/"))) continue;
                if (out.size() == limit) {
                    truncated = true;
                    break;
                }
                out.add(path);
            }
            return new Memory.Listing(out, truncated);
        }

        @Override public synchronized void apply(List<Map.Entry<Memory.Key, JsonNode>> writes) {
            for (var w : writes) {
                String k = flat(w.getKey().space(), w.getKey().path());
                if (w.getValue() == null) memory.remove(k);
                else memory.put(k, w.getValue());
            }
        }

        @Override public int maxValueBytes() { return MAX_VALUE_BYTES; }

        private static String flat(Memory.Space space, String path) { return space.tree().spelling() + '\u0000' + space.owner() + '\u0000' + path; }
    }

    /** Whether {@code e} is the store's failure (reported to programs as E-MEMORY-005, the cause to the host). */
    static boolean isStoreFailure(RuntimeException e) { return e instanceof StoreException; }
}
