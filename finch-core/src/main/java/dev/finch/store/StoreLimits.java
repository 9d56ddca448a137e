package dev.finch.store;

/**
 * The bounds a store enforces on what it keeps; a value over one is refused with {@code E-STORE-003} and nothing is
 * written. Ids (at most {@value #MAX_ID_CHARS} characters) and memory paths (at most {@value #MAX_PATH_BYTES} UTF-8
 * bytes) have fixed bounds, the same in every store.
 *
 * @param maxValueBytes     a memory value's compact JSON text, in UTF-8 bytes
 * @param maxEntriesPerTree the entries of one memory tree of one owner (a session's, a project's, the global one)
 * @param maxListing        the paths one memory listing may return (a caller asks for at most this many)
 * @param maxImageChars     a session image's text, in characters
 * @param maxResultChars    the encoding of an acknowledged effect's result, in characters
 * @param maxGrantsPerScope the grants remembered for one project, or globally (revoked ones included)
 * @param maxSchedules      the schedules the store keeps
 */
public record StoreLimits(int maxValueBytes, int maxEntriesPerTree, int maxListing, long maxImageChars, long maxResultChars,
                          int maxGrantsPerScope, int maxSchedules) {
    /** The longest id (a session, execution or project id, a memory tree's owner), in characters. */
    public static final int MAX_ID_CHARS = 200;
    /** The longest memory path, in UTF-8 bytes. */
    public static final int MAX_PATH_BYTES = 1024;
    /** The longest text of a journal entry other than a result: a requirement, an operation, a reason, a failure's message. */
    public static final int MAX_NOTE_CHARS = 8192;

    /** 64 KiB values, 10,000 entries a tree, listings of 1,000, 64 Mi-character images, 16 Mi-character results, 1,000 grants, 1,000 schedules. */
    public static final StoreLimits DEFAULTS = new StoreLimits(64 * 1024, 10_000, 1_000, 64L << 20, 16L << 20, 1_000, 1_000);

    public StoreLimits {
        if (maxValueBytes < 1 || maxEntriesPerTree < 1 || maxListing < 1 || maxImageChars < 1 || maxResultChars < 1 || maxGrantsPerScope < 1
                || maxSchedules < 1) {
            throw new IllegalArgumentException("every store limit is at least 1");
        }
    }

    /** These limits with another bound on a memory value. */
    public StoreLimits withMaxValueBytes(int bytes) {
        return new StoreLimits(bytes, maxEntriesPerTree, maxListing, maxImageChars, maxResultChars, maxGrantsPerScope, maxSchedules);
    }

    /** These limits with another bound on the entries of one memory tree. */
    public StoreLimits withMaxEntriesPerTree(int entries) {
        return new StoreLimits(maxValueBytes, entries, maxListing, maxImageChars, maxResultChars, maxGrantsPerScope, maxSchedules);
    }

    /** These limits with another bound on a listing. */
    public StoreLimits withMaxListing(int paths) {
        return new StoreLimits(maxValueBytes, maxEntriesPerTree, paths, maxImageChars, maxResultChars, maxGrantsPerScope, maxSchedules);
    }

    /** These limits with another bound on a session image. */
    public StoreLimits withMaxImageChars(long chars) {
        return new StoreLimits(maxValueBytes, maxEntriesPerTree, maxListing, chars, maxResultChars, maxGrantsPerScope, maxSchedules);
    }

    /** These limits with another bound on an effect's result. */
    public StoreLimits withMaxResultChars(long chars) {
        return new StoreLimits(maxValueBytes, maxEntriesPerTree, maxListing, maxImageChars, chars, maxGrantsPerScope, maxSchedules);
    }

    /** These limits with another bound on the grants of one scope. */
    public StoreLimits withMaxGrantsPerScope(int grants) {
        return new StoreLimits(maxValueBytes, maxEntriesPerTree, maxListing, maxImageChars, maxResultChars, grants, maxSchedules);
    }

    /** These limits with another bound on the schedules a store keeps. */
    public StoreLimits withMaxSchedules(int schedules) {
        return new StoreLimits(maxValueBytes, maxEntriesPerTree, maxListing, maxImageChars, maxResultChars, maxGrantsPerScope, schedules);
    }
}
