package dev.finch.ir;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The one content digest Finch computes: SHA-256, written as lowercase hexadecimal. Session images, continuations,
 * vocabulary and schema hashes, context-artifact references and content addresses all use it, so a digest printed by
 * one part is the same text another part computes.
 */
public final class Sha256 {
    private Sha256() { }

    /** The digest of {@code bytes}: 64 lowercase hex digits. */
    public static String hex(byte[] bytes) { return HexFormat.of().formatHex(digest(bytes)); }

    /** The digest of {@code text}'s UTF-8 bytes: 64 lowercase hex digits. */
    public static String hex(String text) { return hex(text.getBytes(StandardCharsets.UTF_8)); }

    /** The digest of {@code bytes}, 32 bytes. */
    public static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
