package dev.finch.persist;

import dev.finch.Finch;
import java.nio.charset.StandardCharsets;

/** The image key the persistence tests sign and verify with: every Finch that restores a session's images shares it. */
public final class Images {
    private Images() { }

    public static final byte[] KEY = "finch tests: a 32-byte-or-longer image key".getBytes(StandardCharsets.UTF_8);

    /** A Finch with the default limits that signs and accepts images with {@link #KEY}. */
    public static Finch keyed() { return Finch.builder().imageKey(KEY).build(); }
}
