package dev.finch.norman.harness;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.host.MemoryHost;
import dev.finch.host.MemoryWrites;
import dev.finch.store.StoreLimits;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The memory of one world of µNorman test runs ({@link ScriptedModels#memory()}): the three trees — {@code session},
 * {@code project}, {@code global} — in this world only, empty when it is made. A test's memory calls go to Finch's
 * memory words as they do anywhere (the harness grants the file's memory grants their trees); the words read what this
 * world holds, and a run's staged writes are applied here when it commits, so a test's later runs in the same world
 * (a {@code catch} handler, a pattern's matcher) see them, the next test does not, and a failed run writes nothing.
 * Values are bounded as a store bounds them ({@link StoreLimits#DEFAULTS}).
 */
public final class WorldMemory implements MemoryHost {
    private final Map<MemoryWrites.Tree, TreeMap<String, JsonNode>> trees = new EnumMap<>(MemoryWrites.Tree.class);

    /** An empty memory. */
    public WorldMemory() {
        for (MemoryWrites.Tree t : MemoryWrites.Tree.values()) trees.put(t, new TreeMap<>());
    }

    @Override public synchronized Optional<JsonNode> read(MemoryWrites.Tree tree, String path) { return Optional.ofNullable(trees.get(tree).get(path)); }

    @Override public synchronized Listing list(MemoryWrites.Tree tree, String prefix, int limit) {
        List<String> out = new ArrayList<>();
        for (String path : trees.get(tree).keySet()) {
            if (!(prefix.isEmpty() || path.equals(prefix) || path.startsWith(prefix + "/"))) continue;
            if (out.size() == limit) return new Listing(out, true);
            out.add(path);
        }
        return new Listing(out, false);
    }

    @Override public int maxValueBytes() { return StoreLimits.DEFAULTS.maxValueBytes(); }

    @Override public synchronized void apply(List<MemoryWrites.Write> writes) {
        for (MemoryWrites.Write w : writes) {
            if (w.deletes()) trees.get(w.tree()).remove(w.path());
            else trees.get(w.tree()).put(w.path(), w.value());
        }
    }

    /** What each tree holds, in order: {@code session {a={"x":1}}, project {}, global {}}. */
    @Override public synchronized String toString() {
        StringBuilder b = new StringBuilder();
        for (var e : trees.entrySet()) {
            if (b.length() > 0) b.append(", ");
            b.append(e.getKey().spelling()).append(' ').append(e.getValue());
        }
        return b.toString();
    }
}
