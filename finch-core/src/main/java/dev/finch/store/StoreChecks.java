package dev.finch.store;

/**
 * The checks every store applies to its keys and sizes before it touches its database, so that each store accepts
 * and refuses exactly the same calls, with the same codes.
 */
public final class StoreChecks {
    private StoreChecks() { }

    /**
     * {@code id}, when it is 1 to {@value StoreLimits#MAX_ID_CHARS} characters with no control character or lone
     * surrogate; else {@code E-STORE-004}. {@code what} names it ("a session id").
     */
    public static String id(String what, String id) {
        if (id == null || id.isEmpty()) throw new StoreException(StoreCode.BAD_KEY, what + " is empty");
        if (id.length() > StoreLimits.MAX_ID_CHARS) {
            throw new StoreException(StoreCode.BAD_KEY, what + " is " + id.length() + " characters long; at most " + StoreLimits.MAX_ID_CHARS);
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1));
            if (Character.isISOControl(c) || Character.isSurrogate(c) && !pair) {
                throw new StoreException(StoreCode.BAD_KEY, what + " holds a control character or a lone surrogate at index " + i);
            }
            if (pair) i++;
        }
        return id;
    }

    /** {@code n}, when it is at least 1; else {@code E-STORE-004}. */
    public static long positive(String what, long n) {
        if (n < 1) throw new StoreException(StoreCode.BAD_KEY, what + " is " + n + "; it counts from 1");
        return n;
    }

    /** {@code limit}, when it is 1 ({@code E-STORE-004} below) to {@link StoreLimits#maxListing()} ({@code E-STORE-003} above). */
    public static int listing(StoreLimits limits, int limit) {
        if (limit < 1) throw new StoreException(StoreCode.BAD_KEY, "a listing asks for " + limit + " entries; at least 1");
        if (limit > limits.maxListing()) {
            throw new StoreException(StoreCode.TOO_LARGE, "a listing asks for " + limit + " entries; at most " + limits.maxListing());
        }
        return limit;
    }

    /**
     * {@code text}, when it is present ({@code E-STORE-004}), at most {@code max} characters long ({@code E-STORE-003}),
     * and text every database keeps as it is: no NUL character and no lone surrogate ({@code E-STORE-004}; PostgreSQL
     * stores neither, so no store accepts them).
     */
    public static String chars(String what, String text, long max) {
        if (text == null) throw new StoreException(StoreCode.BAD_KEY, what + " is missing");
        if (text.length() > max) throw new StoreException(StoreCode.TOO_LARGE, what + " is " + text.length() + " characters long; at most " + max);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) throw new StoreException(StoreCode.BAD_KEY, what + " holds a NUL character at index " + i + ", which a store does not keep");
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    throw new StoreException(StoreCode.BAD_KEY, what + " holds a lone surrogate at index " + i + ", which a store does not keep");
                }
            }
        }
        return text;
    }

    /** {@code note} (null allowed), when it is at most {@value StoreLimits#MAX_NOTE_CHARS} characters long ({@code E-STORE-003}). */
    public static String note(String what, String note) {
        return note == null ? null : chars(what, note, StoreLimits.MAX_NOTE_CHARS);
    }
}
