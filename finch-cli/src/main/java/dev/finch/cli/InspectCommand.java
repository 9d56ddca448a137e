package dev.finch.cli;

import dev.finch.DiagnosticText;
import dev.finch.DiscoveryJson;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.Submission;
import dev.finch.WordInfo;
import dev.finch.ir.diag.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code finch inspect WORD}: a core word's signature and doc, source syntax with its form (no signature), or,
 * with {@code --load FILE}, a definition those files made, with its canonical Co-Forth. Exit 1 when the name
 * denotes nothing (with close names), or when a loaded file fails.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, description = "Show one core word, syntax, (with --load) definition or (with --mcp-config) MCP tool word.")
final class InspectCommand implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print the object the inspect_word tool returns.")
    boolean json;

    @Option(names = "--load", paramLabel = "FILE", description = "Submit FILE to the session first (repeatable), to inspect its definitions.")
    List<String> load = new ArrayList<>();

    @Option(names = "--lang", paramLabel = "LANG", description = "lisp, forth or norman: that language's form first when several have one.")
    String lang;

    @picocli.CommandLine.Mixin
    McpOptions mcp = new McpOptions();

    @Parameters(arity = "1", paramLabel = "WORD", description = "The name to inspect, e.g. list-get, while, define, datatype.")
    String word;

    InspectCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        try {
            return inspect();
        } catch (UsageException e) {
            return Main.usage(io, "inspect", e.getMessage());
        }
    }

    private int inspect() throws UsageException {
        if (load.stream().filter(Source.STDIN::equals).count() > 1) throw new UsageException("standard input (-) can be given only once");
        List<Source> sources = new ArrayList<>();
        for (String f : load) sources.add(Source.read(f, io.in()));
        try (Finch finch = mcp.install(Finch.builder()).build()) {
            return inspect(finch.newSession(), sources);
        }
    }

    private int inspect(Session session, List<Source> sources) throws UsageException {
        for (Source src : sources) {
            Outcome o = session.submit(Submission.of(src.text(), src.defaultSourceId()).withLanguage(src.language(null)));
            if (o.status() != Outcome.Status.COMPLETED) {
                for (Diagnostic d : o.diagnostics()) io.err().print(DiagnosticText.render(d, src.text()));
                io.err().println("finch inspect: " + src.defaultSourceId() + " did not complete (" + o.status() + "); nothing to inspect");
                io.err().flush();
                return Main.EXIT_FAILED;
            }
        }
        Language language = null;
        if (lang != null) language = Language.named(lang).orElseThrow(() -> new UsageException("--lang is lisp, forth or norman, not '" + lang + "'"));
        Optional<WordInfo> info = language == null ? session.inspectWord(word) : session.inspectWord(word, language);
        if (info.isEmpty()) {
            List<String> close = session.suggestWords(word, 5);
            io.err().println("finch inspect: " + dev.finch.Discovery.notFound(session.vocabulary(), word, language, close));
            io.err().flush();
            return Main.EXIT_FAILED;
        }
        if (json) io.out().println(DiscoveryJson.write(DiscoveryJson.tree(info.get())));
        else io.out().print(DiscoveryText.inspect(info.get()));
        io.out().flush();
        return Main.EXIT_OK;
    }
}
