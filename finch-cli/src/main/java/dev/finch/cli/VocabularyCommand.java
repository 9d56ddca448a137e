package dev.finch.cli;

import dev.finch.Discovery;
import dev.finch.DiscoveryJson;
import dev.finch.Finch;
import dev.finch.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code finch vocabulary}: every core word with its signature by category, and the source syntax. */
@Command(name = "vocabulary", mixinStandardHelpOptions = true, description = "List the core words (by category) and the source syntax.")
final class VocabularyCommand implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print the typed vocabulary as the vm-vocabulary word returns it, plus the syntax.")
    boolean json;

    @picocli.CommandLine.Mixin
    McpOptions mcp = new McpOptions();

    VocabularyCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        Finch finch;
        try {
            finch = mcp.install(Finch.builder()).build();
        } catch (UsageException e) {
            return Main.usage(io, "vocabulary", e.getMessage());
        }
        // With --mcp-config, the words of the servers' tools are listed too (the servers are started to list them).
        try (finch) {
            return list(finch.newSession());
        }
    }

    private int list(Session session) {
        if (json) io.out().println(DiscoveryJson.write(DiscoveryJson.vocabularyTree(session.vocabulary(), session.getVmState())));
        else io.out().print(DiscoveryText.vocabulary(Discovery.languageDefinition(), session.getVmState()));
        io.out().flush();
        return Main.EXIT_OK;
    }
}
