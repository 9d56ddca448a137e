/**
 * The store SPI: what outlives a process — session images, continue-once claims, the effect journal, remembered grants
 * and memory trees — behind {@link dev.finch.store.FinchStore}. Stores live in modules of their own (finch-core has no
 * database driver): {@code finch-store} has the embedded SQLite store and the PostgreSQL one.
 */
package dev.finch.store;
