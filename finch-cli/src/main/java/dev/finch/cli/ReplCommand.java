package dev.finch.cli;

import dev.finch.ApprovalText;
import dev.finch.DiagnosticText;
import dev.finch.Discovery;
import dev.finch.Finch;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.automation.AwtAutomationHost;
import dev.finch.SubmissionBuffer;
import dev.finch.WordInfo;
import dev.finch.capabilities.Scope;
import dev.finch.ir.diag.Diagnostic;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code finch repl}: one session, one entry at a time. Lines are buffered until the entry is complete (Co-Forth:
 * no definition, string, comment, bracket or control construct open; Lisp: delimiters balanced), then the entry
 * runs as one submission: the end of a complete line is the REPL's explicit program boundary. Commands start with
 * a colon glued to a letter ({@code :inspect dup}); a Co-Forth definition starts with {@code ": "}, so the two never
 * clash. A run that waits for a capability asks the person: once, for the session, or no.
 */
@Command(name = "repl", mixinStandardHelpOptions = true, description = "An interactive session with multi-line entries, history and the discovery tools.")
final class ReplCommand implements Callable<Integer> {
    /** Yields of a value other than unit shown and resumed in a row before the entry is left suspended. */
    static final int MAX_SHOWN_YIELDS = 1_000;
    /** Unit yields (cooperative timeslices) resumed in a row before the entry is left suspended. */
    static final int MAX_UNIT_YIELDS = 1_000_000;

    static final String PROMPT = "finch> ";
    static final String CONTINUATION = "  ...> ";

    private static final String HELP = String.join("\n",
            "Enter Lisp or Co-Forth (µNorman with --lang norman); an entry runs when it is complete (open definitions, strings and",
            "parentheses continue on the next line). Ctrl-C discards a partial entry, or cancels the entry that runs (nothing is",
            "committed); Ctrl-D or :quit leaves.",
            "  :state            the stack (bottom to top), revisions, definitions and constants",
            "  :vocabulary       core words by category, this session's definitions, syntax",
            "  :search QUERY     core words, definitions and syntax by name or by what they do",
            "  :inspect WORD     one word's signature and doc, a definition's Co-Forth, syntax's form",
            "  :language         the grammar of Lisp and Co-Forth and the type spelling",
            "  :help             this text",
            "  :quit             leave");

    private final Io io;

    @Option(names = "--lang", paramLabel = "LANG", description = "lisp or forth for every entry (default: inferred per entry).")
    String lang;

    @Mixin
    RootOptions roots = new RootOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Mixin
    NetOptions net = new NetOptions();

    @Mixin
    ScheduleOptions schedules = new ScheduleOptions();

    @Option(names = "--grant", paramLabel = "SPEC", description = "Grant a capability up front, e.g. fs.read($${workspace}/**); repeatable.")
    List<String> grants = new ArrayList<>();

    @Mixin
    ProviderOptions providers = new ProviderOptions();

    @Mixin
    McpOptions mcp = new McpOptions();

    @Option(names = "--history", paramLabel = "FILE", description = "Where to keep the line history (default: ~/.finch_history).")
    Path history;

    @Option(names = "--no-history", description = "Keep the history in memory only.")
    boolean noHistory;

    ReplCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        try {
            return repl();
        } catch (UsageException e) {
            return Main.usage(io, "repl", e.getMessage());
        }
    }

    private int repl() throws UsageException {
        Language language = Source.parseLanguage(lang);
        SessionOptions options = net.install(roots.install(SessionOptions.DEFAULT));
        for (String g : grants) options = options.withGrant(g);
        // A display this process can reach is a desktop the automation words may drive (each operation still needs its grant).
        if (AwtAutomationHost.displayLikely(io.env())) options = options.withAutomationHost(new AwtAutomationHost());
        // Proposals open the person's editor; it needs the terminal, which exists once the session does.
        ReplEditor editor = new ReplEditor(io.env(), io.in() == System.in && System.console() != null);
        options = options.withEditorHost(editor);
        var world = providers.world(io.env());
        var agents = providers.agents(io.env());
        // The schedules a program makes are kept for `finch schedules run`; none runs in this process.
        var policies = schedules.policies(options, r -> { });
        var store = state.open(io.env());
        Session session;
        Finch finch = null;
        try {
            Finch.Builder builder = Finch.builder();
            world.ifPresent(builder::models);
            agents.ifPresent(builder::agents);
            builder.keepSchedulesOnly();
            for (var p : policies) builder.schedulePolicy(p);
            finch = mcp.install(StateOptions.configure(builder, store, roots)).build();
            session = finch.newSession(options);
        } catch (IllegalArgumentException e) {
            if (finch != null) finch.close();
            store.ifPresent(dev.finch.store.FinchStore::close);
            throw new UsageException(e.getMessage());
        }
        // Closing the Finch stops the MCP servers the session started and the child agents still running; then the store.
        try (java.io.Closeable stored = () -> store.ifPresent(dev.finch.store.FinchStore::close); Finch owned = finch; Terminal terminal = terminal()) {
            LineReader reader = reader(terminal);
            editor.attach(reader, terminal.writer());
            // Ctrl-C while a program runs cancels that run (nothing is committed); the REPL and its session go on. While
            // a line is read, the reader has its own handler (it drops the partial entry) and puts this one back after.
            terminal.handle(Terminal.Signal.INT, signal -> session.runningExecution().ifPresent(session::cancel));
            new Loop(session, language, reader, terminal.writer()).run();
            saveHistory(reader);
        } catch (IOException e) {
            io.err().println("finch repl: cannot open the terminal: " + e.getMessage());
            io.err().flush();
            return Main.EXIT_FAILED;
        }
        return Main.EXIT_OK;
    }

    /**
     * The real terminal when the REPL talks to a person on the process's own console; otherwise (piped input, an
     * embedding, tests) a dumb terminal over the given streams, which never probes or waits for a console.
     */
    private Terminal terminal() throws IOException {
        if (io.in() == System.in && System.console() != null) {
            return TerminalBuilder.builder().system(true).encoding(StandardCharsets.UTF_8).build();
        }
        // Piped input is not typed by anyone: echoing it as it is read would print every line twice. The echo
        // flag is cleared before the terminal starts reading, so no early line slips through.
        Terminal t = TerminalBuilder.builder().system(false).streams(io.in(), io.out()).type(Terminal.TYPE_DUMB)
                .encoding(StandardCharsets.UTF_8).paused(true).build();
        t.echo(false);
        // Nor is its output a screen: keep "\n" as it is instead of the terminal's "\r\n".
        org.jline.terminal.Attributes a = t.getAttributes();
        a.setOutputFlag(org.jline.terminal.Attributes.OutputFlag.OPOST, false);
        t.setAttributes(a);
        t.resume();
        return t;
    }

    private LineReader reader(Terminal terminal) {
        DefaultParser parser = new DefaultParser();
        // Completeness is the frontends' business (ForthBuffer/LispBuffer), never JLine's quote or bracket rules.
        parser.setEofOnUnclosedQuote(false);
        parser.setEofOnEscapedNewLine(false);
        LineReaderBuilder b = LineReaderBuilder.builder().terminal(terminal).appName("finch").parser(parser)
                // "!" is ordinary program text (set!, comments); history expansion would rewrite it.
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_DUPS, true);
        Path file = historyFile();
        if (file != null) b.variable(LineReader.HISTORY_FILE, file);
        return b.build();
    }

    private Path historyFile() {
        if (noHistory) return null;
        if (history != null) return history;
        String home = System.getProperty("user.home");
        return home == null ? null : Path.of(home, ".finch_history");
    }

    private void saveHistory(LineReader reader) {
        try {
            reader.getHistory().save();
        } catch (IOException | RuntimeException e) {
            // Losing the history file is no reason to fail the session the person just finished.
            io.err().println("finch repl: history not saved: " + e.getMessage());
            io.err().flush();
        }
    }

    /** One REPL session's read-buffer-run loop. */
    private static final class Loop {
        private final Session session;
        private final Language language;
        private final LineReader reader;
        private final PrintWriter out;
        private int entries;
        private boolean endOfLine = true;

        Loop(Session session, Language language, LineReader reader, PrintWriter out) {
            this.session = session;
            this.language = language;
            this.reader = reader;
            this.out = out;
        }

        void run() {
            SubmissionBuffer buffer = newBuffer();
            print("Finch " + Outcome.PROTOCOL + " — Lisp or Co-Forth (µNorman with --lang norman); :help for commands, :quit to leave.\n");
            while (true) {
                String line;
                try {
                    line = reader.readLine(buffer.isBlank() ? PROMPT : CONTINUATION);
                } catch (UserInterruptException e) {
                    buffer.clear();       // Ctrl-C: drop the partial entry, keep the session
                    continue;
                } catch (EndOfFileException e) {
                    // End of input is a program boundary too: what is buffered runs (or reports its parse error).
                    if (!buffer.isBlank()) runEntry(buffer);
                    return;
                }
                if (line == null) return;
                if (buffer.isBlank() && isCommand(line)) {
                    if (!command(line.strip())) return;
                    continue;
                }
                buffer.feed(line).feed("\n");
                if (buffer.isComplete()) {
                    runEntry(buffer);
                    buffer = newBuffer();
                }
            }
        }

        private SubmissionBuffer newBuffer() {
            entries++;
            return session.buffer("repl#" + entries).withLanguage(language).withSink(new dev.finch.vm.OutputSink() {
                @Override public void say(String chunk) { event(new dev.finch.vm.OutputEvent.Say(chunk)); }

                @Override public void event(dev.finch.vm.OutputEvent e) { show(e); }
            });
        }

        /** say text as it is; output handles as plain lines (the REPL does not redraw in place). */
        private void show(dev.finch.vm.OutputEvent e) {
            if (view == null) view = new OutputView(out, false);
            view.cursorAtLineStart(endOfLine);
            view.event(e);
            endOfLine = view.atLineStart();
        }

        private OutputView view;

        private void print(String text) {
            out.print(text);
            out.flush();
        }

        static boolean isCommand(String line) {
            String s = line.strip();
            return s.length() >= 2 && s.charAt(0) == ':' && Character.isLetter(s.charAt(1));
        }

        /** Runs one command; false when it ends the REPL. */
        private boolean command(String line) {
            int space = line.indexOf(' ');
            String name = (space < 0 ? line.substring(1) : line.substring(1, space)).toLowerCase(Locale.ROOT);
            String arg = space < 0 ? "" : line.substring(space + 1).strip();
            switch (name) {
                case "quit": case "q": case "exit":
                    return false;
                case "help": case "h":
                    print(HELP + "\n");
                    return true;
                case "state":
                    print(DiscoveryText.state(session.getVmState()));
                    return true;
                case "vocabulary": case "vocab":
                    print(DiscoveryText.vocabulary(Discovery.languageDefinition(), session.getVmState()));
                    return true;
                case "language":
                    print(session.getLanguageDefinition().text());
                    return true;
                case "search":
                    if (arg.isEmpty()) print(":search needs a query, e.g. :search string\n");
                    else print(DiscoveryText.search(session.searchWord(arg), 30));
                    return true;
                case "inspect":
                    if (arg.isEmpty()) {
                        print(":inspect needs a name, e.g. :inspect list-get\n");
                        return true;
                    }
                    Optional<WordInfo> info = session.inspectWord(arg);
                    if (info.isPresent()) {
                        print(DiscoveryText.inspect(info.get()));
                    } else {
                        List<String> close = session.suggestWords(arg, 5);
                        print(dev.finch.Discovery.notFound(session.vocabulary(), arg, null, close) + "\n");
                    }
                    return true;
                default:
                    print("unknown command :" + name + "; :help lists the commands\n");
                    return true;
            }
        }

        /** The explicit boundary: runs the buffered entry and shows how it ended. */
        private void runEntry(SubmissionBuffer buffer) {
            endOfLine = true;
            String text = buffer.pending();
            report(text, buffer.flush().orElseThrow());
        }

        /** Shows an outcome; settles suspensions first (asks about capabilities, resumes yields). */
        private void report(String text, Outcome first) {
            Outcome o = settle(first);
            if (!endOfLine) print("\n");
            for (Diagnostic d : o.diagnostics()) print(DiagnosticText.render(d, text));
            switch (o.status()) {
                case COMPLETED: {
                    String stack = DiscoveryText.stackLine(o.stack());
                    if (!stack.isEmpty()) print(stack + "\n");
                    break;
                }
                case SUSPENDED:
                    print("suspended (" + o.executionId() + "); nothing was committed\n");
                    break;
                case CANCELLED:
                    print("cancelled; nothing was committed\n");
                    break;
                case REFUSED:
                    print("the answer was refused; " + o.executionId() + " is still suspended and nothing was committed\n");
                    break;
                case FAILED:
                    break;
            }
        }

        private Outcome settle(Outcome o) {
            int shown = 0;
            int units = 0;
            while (o instanceof Outcome.Suspended s) {
                if (!o.requiredCapabilities().isEmpty()) {
                    Optional<Outcome> decided = ask(o);
                    if (decided.isEmpty()) return o;
                    o = decided.get();
                } else if (s.waitingTask().isPresent()) {
                    // A join of a CPU task still computing: wait for it and go on.
                    Outcome next = session.awaitTasks(o);
                    if (next == o) return o;
                    o = next;
                } else if (s.isUnitYield()) {
                    if (++units > MAX_UNIT_YIELDS) return o;
                    o = session.resume(o.executionId());
                } else {
                    if (++shown > MAX_SHOWN_YIELDS) return o;
                    if (!endOfLine) print("\n");
                    endOfLine = true;
                    print("yield: " + s.yielded().map(v -> v.display() + " : " + v.type()).orElse("()") + "\n");
                    o = session.resume(o.executionId());
                }
            }
            return o;
        }

        /**
         * Asks the person about the awaited capability, showing what the program asks to do with it (the operation and
         * its arguments: the path, the first bytes of a write, the program and its argument list); empty when the
         * input ended without an answer.
         */
        private Optional<Outcome> ask(Outcome o) {
            String capability = ApprovalText.safe(String.join(", ", o.requiredCapabilities()));
            if (!endOfLine) print("\n");
            endOfLine = true;
            // On a screen, the program's say text may have left colours set (black on black): they are reset first.
            if (!Terminal.TYPE_DUMB.equals(reader.getTerminal().getType())) print("\u001b[0m");
            session.pendingRequest(o.executionId()).ifPresent(r -> print("the program asks: " + ApprovalText.describe(r) + "\n"));
            reader.setVariable(LineReader.DISABLE_HISTORY, true);
            try {
                while (true) {
                    String answer;
                    try {
                        answer = reader.readLine("allow " + capability + "? [o]nce/[s]ession/[p]roject/[a]lways/[n]o ");
                    } catch (UserInterruptException e) {
                        answer = "n";
                    } catch (EndOfFileException e) {
                        return Optional.of(session.deny(o.executionId(), "no answer: the input ended"));
                    }
                    String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
                    if (a.equals("o") || a.equals("once")) return Optional.of(session.approve(o.executionId(), Scope.ONCE));
                    if (a.equals("s") || a.equals("session")) return Optional.of(session.approve(o.executionId(), Scope.SESSION));
                    // Remembered for this project (every later run in it), or for every project: in the state store.
                    if (a.equals("p") || a.equals("project")) return Optional.of(session.approve(o.executionId(), Scope.PROJECT));
                    if (a.equals("a") || a.equals("always")) return Optional.of(session.approve(o.executionId(), Scope.GLOBAL));
                    if (a.equals("n") || a.equals("no")) return Optional.of(session.deny(o.executionId(), "denied by the person at the REPL"));
                    print("answer o (once), s (this session), p (this project, remembered), a (always, remembered) or n (no)\n");
                }
            } finally {
                reader.setVariable(LineReader.DISABLE_HISTORY, false);
            }
        }
    }
}
