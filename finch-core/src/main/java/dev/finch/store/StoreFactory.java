package dev.finch.store;

import java.nio.file.Path;

/**
 * Opens the embedded store of a state directory: the service {@code Finch.Builder.stateDirectory} finds on the class
 * or module path ({@code finch-store} provides it: SQLite in the directory's {@code finch.db}). finch-core itself holds
 * no database driver.
 */
public interface StoreFactory {
    /** The store of {@code stateDir} (created with the directory if absent); a {@link StoreException} when it cannot be used. */
    FinchStore embedded(Path stateDir);
}
