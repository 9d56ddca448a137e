package dev.finch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.host.MemoryCode;
import dev.finch.host.MemoryHost;
import dev.finch.host.MemoryWrites;
import dev.finch.store.Memory;
import dev.finch.vm.boundary.HostFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One session's view of the memory trees: {@code session} is its own (owned by its id), {@code project} its project's
 * (none without a project: {@code E-MEMORY-004}), {@code global} the store's. Reads go to what {@link Remembering}
 * keeps; a run's staged writes are applied when the run commits ({@link Session}).
 */
record SessionMemory(Remembering remembering, String sessionId, String projectId) implements MemoryHost {
    @Override public Optional<JsonNode> read(MemoryWrites.Tree tree, String path) throws HostFailure {
        Memory.Space space = space(tree);
        try {
            return remembering.read(space.at(path));
        } catch (RuntimeException e) {
            throw unavailable("read", e);
        }
    }

    @Override public Listing list(MemoryWrites.Tree tree, String prefix, int limit) throws HostFailure {
        Memory.Space space = space(tree);
        try {
            Memory.Listing l = remembering.list(space, prefix, limit);
            return new Listing(l.paths(), l.truncated());
        } catch (RuntimeException e) {
            throw unavailable("list", e);
        }
    }

    @Override public int maxValueBytes() { return remembering.maxValueBytes(); }

    @Override public void apply(List<MemoryWrites.Write> writes) throws HostFailure {
        List<Map.Entry<Memory.Key, JsonNode>> out = new ArrayList<>(writes.size());
        for (MemoryWrites.Write w : writes) out.add(new java.util.AbstractMap.SimpleEntry<>(space(w.tree()).at(w.path()), w.value()));
        try {
            remembering.apply(out);
        } catch (RuntimeException e) {
            throw unavailable("write", e);
        }
    }

    private Memory.Space space(MemoryWrites.Tree tree) throws HostFailure {
        if (tree == MemoryWrites.Tree.PROJECT && projectId == null) {
            throw new HostFailure(MemoryCode.NO_PROJECT, "this session has no project, so it has no project memory tree");
        }
        return new Memory.Space(tree, switch (tree) {
            case SESSION -> sessionId;
            case PROJECT -> projectId;
            case GLOBAL -> "";
        });
    }

    private static HostFailure unavailable(String what, RuntimeException cause) {
        return new HostFailure(MemoryCode.UNAVAILABLE, "the memory store could not " + what + " (the host has the cause)", cause);
    }
}
