package dev.finch.store.jdbc;

import dev.finch.store.FinchStore;
import dev.finch.store.StoreFactory;
import java.nio.file.Path;

/** The {@link StoreFactory} service of this module: {@code Finch.builder().stateDirectory(dir)} opens {@link FinchStores#embedded(Path)}. */
public final class EmbeddedStores implements StoreFactory {
    @Override public FinchStore embedded(Path stateDir) { return FinchStores.embedded(stateDir); }
}
