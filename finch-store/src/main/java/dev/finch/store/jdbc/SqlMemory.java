package dev.finch.store.jdbc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.finch.store.Memory;
import dev.finch.store.StoreChecks;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import dev.finch.store.StoreLimits;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * {@link Memory} in table {@code finch_memory}, keyed by (tree, owner, path). A listing under a prefix is a range of the
 * key — the prefix itself, and the paths from {@code prefix/} up to but not including {@code prefix0} ({@code 0}
 * follows {@code /}) — which holds because both databases compare these columns by code point.
 */
final class SqlMemory implements Memory {
    /** Values are read back as strictly as untrusted JSON: duplicate keys, trailing tokens and deep nesting refused. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(1000).build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    private final Sql sql;
    private final StoreLimits limits;
    private final Clock clock;

    SqlMemory(Sql sql, StoreLimits limits, Clock clock) {
        this.sql = sql;
        this.limits = limits;
        this.clock = clock;
    }

    @Override public Optional<JsonNode> get(Key key) {
        check(key);
        Optional<String> text = sql.run("read memory " + describe(key), c -> Sql.first(c, rs -> rs.getString(1),
                "SELECT value FROM finch_memory WHERE tree = ? AND owner = ? AND path = ?", tree(key.space()), key.space().owner(), key.path()));
        if (text.isEmpty()) return Optional.empty();
        try {
            return Optional.of(JSON.readTree(text.get()));
        } catch (JsonProcessingException e) {
            throw new StoreException(StoreCode.CORRUPT, "memory " + describe(key) + " does not hold JSON", e);
        }
    }

    @Override public void put(Key key, JsonNode value) {
        check(key);
        if (value == null) throw new StoreException(StoreCode.BAD_KEY, "a memory value is missing (JSON null is NullNode)");
        String text = text(key, value);
        StoreChecks.chars("the value for memory " + describe(key), text, Long.MAX_VALUE);
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxValueBytes()) {
            throw new StoreException(StoreCode.TOO_LARGE, "the value for memory " + describe(key) + " is " + bytes
                    + " bytes of JSON; at most " + limits.maxValueBytes());
        }
        long now = clock.millis();
        Space space = key.space();
        sql.atomic("write memory " + describe(key), c -> {
            boolean known = Sql.first(c, rs -> true, "SELECT 1 FROM finch_memory WHERE tree = ? AND owner = ? AND path = ?",
                    tree(space), space.owner(), key.path()).isPresent();
            if (!known) {
                long count = Sql.first(c, rs -> rs.getLong(1), "SELECT COUNT(*) FROM finch_memory WHERE tree = ? AND owner = ?",
                        tree(space), space.owner()).orElse(0L);
                if (count >= limits.maxEntriesPerTree()) {
                    throw new StoreException(StoreCode.TOO_LARGE, "the " + describe(space) + " already holds " + count
                            + " entries; at most " + limits.maxEntriesPerTree());
                }
            }
            Sql.update(c, "INSERT INTO finch_memory (tree, owner, path, value, updated_at) VALUES (?, ?, ?, ?, ?) "
                    + "ON CONFLICT (tree, owner, path) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    tree(space), space.owner(), key.path(), text, now);
            return null;
        });
    }

    @Override public boolean delete(Key key) {
        check(key);
        return sql.run("delete memory " + describe(key), c -> Sql.update(c,
                "DELETE FROM finch_memory WHERE tree = ? AND owner = ? AND path = ?", tree(key.space()), key.space().owner(), key.path()) == 1);
    }

    @Override public Listing list(Space space, String prefix, int limit) {
        if (space == null) throw new StoreException(StoreCode.BAD_KEY, "a memory tree is missing");
        String p = Memory.canonicalPath(prefix, true);
        StoreChecks.listing(limits, limit);
        List<String> paths = sql.run("list the " + describe(space), c -> p.isEmpty()
                ? Sql.query(c, rs -> rs.getString(1), "SELECT path FROM finch_memory WHERE tree = ? AND owner = ? ORDER BY path LIMIT ?",
                        tree(space), space.owner(), limit + 1)
                : Sql.query(c, rs -> rs.getString(1), "SELECT path FROM finch_memory WHERE tree = ? AND owner = ? "
                        + "AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path LIMIT ?",
                        tree(space), space.owner(), p, p + "/", p + "0", limit + 1));
        boolean truncated = paths.size() > limit;
        return new Listing(truncated ? paths.subList(0, limit) : paths, truncated);
    }

    @Override public int clear(Space space) {
        if (space == null) throw new StoreException(StoreCode.BAD_KEY, "a memory tree is missing");
        return sql.run("clear the " + describe(space), c -> Sql.update(c,
                "DELETE FROM finch_memory WHERE tree = ? AND owner = ?", tree(space), space.owner()));
    }

    private static void check(Key key) {
        if (key == null) throw new StoreException(StoreCode.BAD_KEY, "a memory key is missing");
    }

    private static String text(Key key, JsonNode value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new StoreException(StoreCode.BAD_KEY, "the value for memory " + describe(key) + " cannot be written as JSON", e);
        }
    }

    private static String tree(Space space) { return space.tree().spelling(); }

    private static String describe(Space space) {
        return switch (space.tree()) {
            case SESSION -> "memory of session " + space.owner();
            case PROJECT -> "memory of project " + space.owner();
            case GLOBAL -> "global memory";
        };
    }

    private static String describe(Key key) { return key.path() + " in the " + describe(key.space()); }
}
