package dev.finch.cli;

import dev.finch.Discovery;
import dev.finch.DiscoveryJson;
import dev.finch.Language;
import dev.finch.LanguageDefinition;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code finch language}: the language definition a model gets from {@code get_language_definition} — the full text, or
 * with {@code --primer} the primer (Lisp and Co-Forth, or with {@code --lang norman} µNorman's).
 */
@Command(name = "language", mixinStandardHelpOptions = true, description = {
        "Print the grammar of Lisp, Co-Forth and µNorman, the type spelling, the syntax forms and the core words.",
        "With --primer, the primer instead: the essentials of Lisp and Co-Forth (or, with --lang norman, of µNorman) in a quarter of the text."})
final class LanguageCommand implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print {protocol, detail, text} as the get_language_definition tool returns it.")
    boolean json;

    @Option(names = "--primer", description = "Print the primer (what get_language_definition answers with detail primer): Lisp and Co-Forth, or one language with --lang.")
    boolean primer;

    @Option(names = "--lang", paramLabel = "LANG", description = "lisp, forth or norman: only that language (and the shared parts).")
    String lang;

    LanguageCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        Language only = null;
        if (lang != null) {
            java.util.Optional<Language> l = Language.named(lang);
            if (l.isEmpty()) return Main.usage(io, "language", "--lang is lisp, forth or norman, not '" + lang + "'");
            only = l.get();
        }
        LanguageDefinition d = primer ? (only == null ? Discovery.primer() : Discovery.primer(only))
                : only == null ? Discovery.languageDefinition() : Discovery.languageDefinition(only);
        if (json) io.out().println(DiscoveryJson.write(DiscoveryJson.tree(d)));
        else io.out().print(d.text());
        io.out().flush();
        return Main.EXIT_OK;
    }
}
