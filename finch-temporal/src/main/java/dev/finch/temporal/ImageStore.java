package dev.finch.temporal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the workers keep session images, so that a workflow's history need not: the workflow holds and passes only what
 * {@link #put} answers (a reference), and every step resolves it with {@link #get}. {@link #inline()} (the default) keeps
 * the image itself in the history — simplest, bounded by Temporal's payload limit; a store of your own (a blob store, a
 * table) keeps only a reference there, so a session's history grows by a few dozen bytes a step whatever its image size.
 *
 * <p>Images are signed by the worker's key, so a store need not be trusted with their integrity; it must keep what it was
 * given at least as long as a workflow may name it, and every worker of a task queue must reach the same store.
 */
public interface ImageStore {
    /** Keeps {@code image}; answers the reference a workflow holds instead. */
    String put(String image);

    /** The image {@code reference} names; throws {@link IllegalArgumentException} when the store has none. */
    String get(String reference);

    /** No store: the reference is the image itself. */
    static ImageStore inline() {
        return new ImageStore() {
            @Override public String put(String image) { return image; }
            @Override public String get(String reference) { return reference; }
        };
    }

    /** A content-addressed store in this process's memory ({@code sha256:<hex>} references), for tests and one process. */
    static ImageStore inMemory() {
        ConcurrentHashMap<String, String> images = new ConcurrentHashMap<>();
        return new ImageStore() {
            @Override public String put(String image) {
                String reference = "sha256:" + sha256(image);
                images.putIfAbsent(reference, image);
                return reference;
            }

            @Override public String get(String reference) {
                String image = images.get(reference);
                if (image == null) throw new IllegalArgumentException("no image " + reference + " in the store");
                return image;
            }
        };
    }

    /**
     * Images in a Finch store's images ({@code store.images()}, under {@code sha256:<hex>} content addresses): every
     * worker on the store reaches them, whatever their size — no payload limit; the workflow carries the reference.
     */
    static ImageStore of(dev.finch.store.FinchStore store) {
        java.util.Objects.requireNonNull(store, "store");
        return new ImageStore() {
            @Override public String put(String image) {
                String reference = "sha256:" + sha256(image);
                // Content-addressed: an image already kept under its address is the same image.
                if (store.images().get(reference).isEmpty()) store.images().replace(reference, 0, image);
                return reference;
            }

            @Override public String get(String reference) {
                return store.images().get(reference).map(dev.finch.store.Images.Stored::image)
                        .orElseThrow(() -> new IllegalArgumentException("no image " + reference + " in the store"));
            }
        };
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes, in lowercase hex: a content address. */
    static String sha256(String text) { return dev.finch.ir.Sha256.hex(text); }
}
