package dev.finch.cli;

import dev.finch.Discovery;
import dev.finch.DiscoveryJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code finch language}: the language definition a model gets from {@code get_language_definition}. */
@Command(name = "language", mixinStandardHelpOptions = true, description = "Print the grammar of Lisp and Co-Forth, the type spelling and the core words.")
final class LanguageCommand implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print {protocol, text} as the get_language_definition tool returns it.")
    boolean json;

    LanguageCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        if (json) io.out().println(DiscoveryJson.write(DiscoveryJson.tree(Discovery.languageDefinition())));
        else io.out().print(Discovery.languageDefinition().text());
        io.out().flush();
        return Main.EXIT_OK;
    }
}
