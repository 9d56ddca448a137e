package dev.finch.store.jdbc;

import dev.finch.store.FinchStore;
import dev.finch.store.Journal;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * One of the processes of {@link TwoProcessStoreTest}: opens the store it is given, says {@code ready}, waits for the
 * go file, then claims pauses 1..N of one execution and records requests 1..N of another, in an order of its own
 * (shuffled by SEED), printing {@code claim P} and {@code record P} for each it won (and settling what it recorded),
 * and {@code done} at the end.
 *
 * <p>Arguments: {@code sqlite STATE_DIR | postgresql JDBC_URL USER}, then {@code EXECUTION N SEED GO_FILE}.
 */
public final class ClaimRacer {
    private ClaimRacer() { }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        int i = 0;
        FinchStore store = switch (args[i++]) {
            case "sqlite" -> FinchStores.embedded(Path.of(args[i++]));
            case "postgresql" -> FinchStores.postgres(args[i++], args[i++], null);
            default -> throw new IllegalArgumentException("sqlite or postgresql");
        };
        String execution = args[i++];
        int n = Integer.parseInt(args[i++]);
        long seed = Long.parseLong(args[i++]);
        Path go = Path.of(args[i]);
        List<Long> order = new ArrayList<>();
        for (long p = 1; p <= n; p++) order.add(p);
        Collections.shuffle(order, new Random(seed));
        try (store) {
            out.println("ready");
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!Files.exists(go)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("no go file");
                Thread.sleep(1);
            }
            for (long p : order) {
                if (store.claims().claim(execution, p)) out.println("claim " + p);
                Journal.Intent intent = new Journal.Intent(execution + "-effects", p, "fs.write(${workspace}/out.txt)", "file-write",
                        Journal.digest("request " + p));
                if (store.journal().record(intent).kind() == Journal.Recording.Kind.RECORDED) {
                    out.println("record " + p);
                    store.journal().settle(intent.executionId(), p, new Journal.Receipt.Acknowledged("{\"type\":\"unit\"}"));
                }
            }
            out.println("done");
        }
    }
}
