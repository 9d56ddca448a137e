package dev.finch.store.jdbc;

import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.capabilities.Scope;
import dev.finch.store.FinchStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One of the processes of {@link TwoFinchRestoreTest}: a {@code Finch} over the store it is given restores the image in
 * IMAGE_FILE, says {@code ready}, waits for the go file, approves the request the restored execution waits for, and
 * prints the outcome's status and its first diagnostic's code ({@code completed -}, {@code failed E-SESSION-008}).
 *
 * <p>Arguments: {@code sqlite STATE_DIR | postgresql JDBC_URL USER}, then {@code IMAGE_FILE WORKSPACE GO_FILE}.
 */
public final class FinchRestorer {
    private FinchRestorer() { }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        int i = 0;
        FinchStore store = switch (args[i++]) {
            case "sqlite" -> FinchStores.embedded(Path.of(args[i++]));
            case "postgresql" -> FinchStores.postgres(args[i++], args[i++], null);
            default -> throw new IllegalArgumentException("sqlite or postgresql");
        };
        String image = Files.readString(Path.of(args[i++]));
        Path workspace = Path.of(args[i++]);
        Path go = Path.of(args[i]);
        try (store; Finch finch = Finch.builder().store(store).imageKey(TwoFinchRestoreTest.KEY).build()) {
            Session s = finch.restore(image, SessionOptions.DEFAULT.withWorkspace(workspace));
            String execution = s.suspendedExecutions().iterator().next();
            out.println("ready");
            while (!Files.exists(go)) Thread.sleep(5);
            Outcome o = s.approve(execution, Scope.ONCE);
            out.println(o.status().name().toLowerCase(java.util.Locale.ROOT) + " " + (o.diagnostics().isEmpty() ? "-" : o.diagnostics().get(0).code()));
        }
    }
}
