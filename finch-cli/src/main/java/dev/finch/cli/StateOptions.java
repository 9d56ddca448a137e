package dev.finch.cli;

import dev.finch.Finch;
import dev.finch.store.FinchStore;
import dev.finch.store.StoreException;
import dev.finch.store.jdbc.FinchStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where {@code run} and {@code repl} keep what outlives one run: the state directory's store (SQLite:
 * {@code finch.db}) with continue-once claims, {@code project} and {@code global} grants and the memory trees. The
 * default is {@code $FINCH_STATE}, else {@code ~/.finch/state}; {@code --no-state} keeps nothing. The project is the
 * {@code --project} directory, else the workspace, else the working directory: its id is derived from its canonical
 * path, so every run in one project shares its grants and its memory.
 */
final class StateOptions {
    @Option(names = "--state", paramLabel = "DIR", description = "Keep project and global grants, memory and continue-once claims in DIR "
            + "(default $FINCH_STATE, else ~/.finch/state).")
    Path state;

    @Option(names = "--no-state", description = "Keep nothing between runs: project and global approvals last this run, memory is this run's.")
    boolean noState;

    /** The store this run keeps its state in, opened (the caller closes it), or empty with {@code --no-state}. */
    Optional<FinchStore> open(Map<String, String> env) throws UsageException {
        if (noState) {
            if (state != null) throw new UsageException("--state and --no-state do not combine");
            return Optional.empty();
        }
        Path dir = state != null ? state
                : env.get("FINCH_STATE") != null && !env.get("FINCH_STATE").isBlank() ? Path.of(env.get("FINCH_STATE"))
                : Path.of(System.getProperty("user.home"), ".finch", "state");
        try {
            return Optional.of(FinchStores.embedded(dir));
        } catch (StoreException e) {
            throw new UsageException("the state directory " + dir + " cannot be used (" + e.getMessage() + "); give another with --state DIR, or --no-state");
        }
    }

    /** {@code builder} keeping its state in {@code store} (if any) for the project of {@code roots}. */
    static Finch.Builder configure(Finch.Builder builder, Optional<FinchStore> store, RootOptions roots) {
        store.ifPresent(builder::store);
        return builder.project(projectId(roots.project != null ? roots.project : roots.workspace != null ? roots.workspace : Path.of("")));
    }

    /** A project's id: its directory's name (letters, digits, {@code _ . -}) and a digest of its canonical path. */
    static String projectId(Path dir) {
        Path canonical;
        try {
            canonical = dir.toRealPath();
        } catch (java.io.IOException e) {
            canonical = dir.toAbsolutePath().normalize();
        }
        String name = canonical.getFileName() == null ? "root" : canonical.getFileName().toString().replaceAll("[^A-Za-z0-9_.-]", "_");
        if (name.length() > 40) name = name.substring(0, 40);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return name + "-" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
