package dev.finch.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.finch.vm.boundary.HostFailure;
import java.util.List;
import java.util.Optional;

/**
 * What the memory words read: the committed entries of a session's memory trees ({@code session}, {@code project},
 * {@code global}). Writes never pass through here while a run runs: the words stage them in the run
 * ({@link MemoryWrites}), and whoever commits the run applies them ({@link #apply}) together with its commit — a run
 * that fails or is cancelled writes nothing. Paths arrive checked (one concrete entry, canonical {@code a/b}).
 */
public interface MemoryHost {
    /** The committed value at {@code path} of {@code tree}, if there is one. */
    Optional<JsonNode> read(MemoryWrites.Tree tree, String path) throws HostFailure;

    /** The committed paths of {@code tree} at or under {@code prefix} (empty: the whole tree), in order, at most {@code limit}. */
    Listing list(MemoryWrites.Tree tree, String prefix, int limit) throws HostFailure;

    /** The largest value one entry may hold, in bytes of compact JSON. */
    int maxValueBytes();

    /** Applies a committing run's staged writes, all or none. */
    void apply(List<MemoryWrites.Write> writes) throws HostFailure;

    /** What a listing found, in order, and whether more matched. */
    record Listing(List<String> paths, boolean truncated) {
        public Listing { paths = List.copyOf(paths); }
    }
}
