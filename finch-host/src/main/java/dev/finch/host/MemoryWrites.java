package dev.finch.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.vm.boundary.RunState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The memory writes a run has staged: applied only when the run commits ({@link MemoryHost#apply}), in the order the
 * run made them (the last write of an entry wins), and visible to the run's own reads meanwhile. Saved with a paused
 * run, so a run continued in another process still commits them; a run that fails or is cancelled writes nothing.
 */
public final class MemoryWrites implements RunState {
    /** The most writes one run may stage. */
    public static final int MAX_WRITES = 1_000;

    /**
     * The memory trees: a session's, a project's and the global one — what programs and capabilities name, and what the
     * store keeps entries under ({@code dev.finch.store.Memory.Space}): the one definition of them.
     */
    public enum Tree {
        SESSION, PROJECT, GLOBAL;

        /** The lowercase spelling programs and capabilities use. */
        public String spelling() { return name().toLowerCase(Locale.ROOT); }

        /** The tree spelled {@code s}, if it is one. */
        public static Optional<Tree> bySpelling(String s) {
            for (Tree t : values()) if (t.spelling().equals(s)) return Optional.of(t);
            return Optional.empty();
        }

        @Override public String toString() { return spelling(); }
    }

    /** One staged write: a value, or a deletion ({@code value} null). */
    public record Write(Tree tree, String path, JsonNode value) {
        public boolean deletes() { return value == null; }
    }

    /** The run state's kind: the host words' library registers it, so a restored run gets its staged writes back. */
    public static final Kind<MemoryWrites> KIND = new Kind<>() {
        @Override public String name() { return "memory-writes"; }

        @Override public MemoryWrites fresh() { return new MemoryWrites(); }

        @Override public MemoryWrites restore(JsonNode saved) {
            MemoryWrites w = new MemoryWrites();
            for (Write x : parse(saved)) w.stage(x);
            return w;
        }
    };

    private final Map<String, Write> writes = new LinkedHashMap<>();

    /** Whether a write of {@code path} fits: it replaces a staged one, or fewer than {@link #MAX_WRITES} are staged. */
    /** Whether one more write to {@code path} of {@code tree} fits ({@value #MAX_WRITES} distinct paths per run). */
    public boolean hasRoomFor(Tree tree, String path) { return writes.size() < MAX_WRITES || writes.containsKey(key(tree, path)); }

    /** Stages {@code w}, after the run's earlier writes (a later write of the same entry replaces the earlier one). */
    /** Stages {@code w}, replacing what was staged for its path. */
    public void stage(Write w) {
        String key = key(w.tree(), w.path());
        writes.remove(key);
        writes.put(key, w);
    }

    /** The run's own staged write of {@code path}, if it made one. */
    /** What this run staged for {@code path} of {@code tree}, if anything (a delete too). */
    public Optional<Write> staged(Tree tree, String path) { return Optional.ofNullable(writes.get(key(tree, path))); }

    /** The staged writes of {@code tree} at or under {@code prefix}. */
    /** The staged writes of {@code tree} at {@code prefix} or under it, in the order staged. */
    public List<Write> under(Tree tree, String prefix) {
        List<Write> out = new ArrayList<>();
        for (Write w : writes.values()) {
            if (w.tree() == tree && (prefix.isEmpty() || w.path().equals(prefix) || w.path().startsWith(prefix + "/"))) out.add(w);
        }
        return out;
    }

    @Override public JsonNode save() { return writes.isEmpty() ? null : json(); }

    @Override public JsonNode staged() { return writes.isEmpty() ? null : json(); }

    @Override public void close() { writes.clear(); }

    private ArrayNode json() {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (Write w : writes.values()) {
            ObjectNode o = out.addObject().put("tree", w.tree().spelling()).put("path", w.path());
            if (w.deletes()) o.put("deleted", true);
            else o.set("value", w.value());
        }
        return out;
    }

    /** The writes {@code staged} holds (as {@link #staged()} wrote them), in order; an {@link IllegalArgumentException} when it holds none. */
    public static List<Write> parse(JsonNode staged) {
        if (staged == null || !staged.isArray()) throw new IllegalArgumentException("staged memory writes are a JSON array");
        List<Write> out = new ArrayList<>();
        for (JsonNode n : staged) {
            Tree tree = Tree.bySpelling(n.path("tree").asText()).orElseThrow(() -> new IllegalArgumentException("a staged write names no tree"));
            String path = n.path("path").asText();
            if (path.isEmpty()) throw new IllegalArgumentException("a staged write names no path");
            boolean deleted = n.path("deleted").asBoolean(false);
            if (!deleted && !n.has("value")) throw new IllegalArgumentException("a staged write has no value");
            out.add(new Write(tree, path, deleted ? null : n.get("value")));
        }
        return out;
    }

    private static String key(Tree tree, String path) { return tree.spelling() + '\u0000' + path; }
}
