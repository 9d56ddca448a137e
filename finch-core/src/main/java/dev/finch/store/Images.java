package dev.finch.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Session images by session id ({@link dev.finch.SessionImage}). The store keeps the text as it is given: an image is
 * already signed with the Finch's image key, which authenticates it when it is restored, so the store need not. Each
 * session id has at most one image; every write of it gets the next version (1 for the first), so a writer can replace
 * an image only if nobody wrote it since it read it ({@link #replace}).
 */
public interface Images {
    /** A stored image. */
    record Stored(String sessionId, long version, Instant savedAt, String image) {
        public Stored {
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(savedAt, "savedAt");
            Objects.requireNonNull(image, "image");
        }
    }

    /** What a listing says of an image, without its text. */
    record Entry(String sessionId, long version, Instant savedAt, long chars) {
        public Entry {
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(savedAt, "savedAt");
        }
    }

    /** Saves {@code image} as the image of {@code sessionId}, whatever was there; its new version. */
    long put(String sessionId, String image);

    /**
     * Saves {@code image} only if the stored image of {@code sessionId} still has {@code expectedVersion} ({@code 0}:
     * only if there is none); true when it was saved, false when another writer got there first (nothing written).
     */
    boolean replace(String sessionId, long expectedVersion, String image);

    /** The image of {@code sessionId}, if one is stored. */
    Optional<Stored> get(String sessionId);

    /** Deletes the image of {@code sessionId}; true when there was one. */
    boolean delete(String sessionId);

    /**
     * At most {@code limit} images (no more than {@link StoreLimits#maxListing()}), in order of session id (by code
     * point), starting after {@code afterSessionId} (null: from the first) — so a caller pages through all of them.
     */
    List<Entry> list(String afterSessionId, int limit);
}
