package dev.finch.cli;

import dev.finch.DiagnosticText;
import dev.finch.Finch;
import dev.finch.store.FinchStore;
import dev.finch.FinchJson;
import dev.finch.Language;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.automation.AwtAutomationHost;
import dev.finch.Submission;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.vm.OutputSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code finch run}: every FILE is one submission to one session, in order (decisions D2), so the stack and the
 * dictionary persist between them exactly as between provider turns.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run programs; each FILE (or - for stdin) is one submission to one session.")
final class RunCommand implements Callable<Integer> {
    /** How many unit yields in a row are resumed before the run is reported as suspended. */
    static final int MAX_AUTO_RESUMES = 1_000_000;

    private final Io io;

    @Option(names = "--lang", paramLabel = "LANG", description = "lisp, forth or norman (default: by extension, else inferred)")
    String lang;

    @Option(names = "--json", description = "Print one outcome object (FINCH-VM-TYPED/1) per submission per line.")
    boolean json;

    @Option(names = "--source-id", paramLabel = "ID", description = "The source identity to attach (default: the file name).")
    String sourceId;

    @Mixin
    RootOptions roots = new RootOptions();

    @Mixin
    StateOptions state = new StateOptions();

    @Mixin
    NetOptions net = new NetOptions();

    @Mixin
    ScheduleOptions schedules = new ScheduleOptions();

    @Option(names = "--grant", paramLabel = "SPEC", description = "Grant a capability, e.g. fs.read($${workspace}/**); repeatable.")
    List<String> grants = new ArrayList<>();

    @Mixin
    ProviderOptions providers = new ProviderOptions();

    @Mixin
    McpOptions mcp = new McpOptions();

    @Option(names = "--script", paramLabel = "NAME", description = "Run one µNorman FILE's top level under its script NAME (the test harness's simulated world), printing each top-level value (with --json, one outcome object per val and top-level expression).")
    String script;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Program files, or - for standard input.")
    List<String> files = new ArrayList<>();

    RunCommand(Io io) { this.io = io; }

    @Override public Integer call() {
        try {
            return run();
        } catch (UsageException e) {
            return Main.usage(io, "run", e.getMessage());
        }
    }

    /** The editor of `finch run`: none; the REPL opens $EDITOR. */
    private static final class NoEditor implements dev.finch.host.EditorHost {
        @Override
        public dev.finch.host.EditorHost.Decision propose(String language, String title, String source) throws dev.finch.vm.boundary.HostFailure {
            throw new dev.finch.vm.boundary.HostFailure(dev.finch.vm.boundary.HostCode.NO_BINDING,
                    "finch run opens no editor for proposal-open: run the program in `finch repl` (with $EDITOR set), or answer it from an embedding");
        }
    }

    private int run() throws UsageException {
        Language override = Source.parseLanguage(lang);
        // Loops and a named class here, not streams and lambdas: `finch run` is a fresh JVM, where each lambda costs ~0.7 ms.
        int stdin = 0;
        for (String f : files) if (Source.STDIN.equals(f)) stdin++;
        if (stdin > 1) throw new UsageException("standard input (-) can be given only once");
        SessionOptions options = net.install(roots.install(SessionOptions.DEFAULT));
        for (String g : grants) options = options.withGrant(g);
        // A display this process can reach is a desktop the automation words may drive (each operation still needs its grant).
        if (AwtAutomationHost.displayLikely(io.env())) options = options.withAutomationHost(new AwtAutomationHost());
        // finch run opens no editor: an approved proposal is refused with a diagnostic (the REPL opens $EDITOR).
        options = options.withEditorHost(new NoEditor());
        // Read every file first: a missing file is a usage error, and nothing should have run by then.
        List<Source> sources = new ArrayList<>();
        for (String f : files) sources.add(Source.read(f, io.in()));
        if (script != null) {
            if (providers.given()) throw new UsageException("--script answers asks from the file's script; it does not combine with --provider");
            return runUnderScript(sources, override);
        }
        var world = providers.world(io.env());
        var agents = providers.agents(io.env());
        // The schedules a program makes are kept for `finch schedules run`; none runs in this process.
        var policies = schedules.policies(options, r -> { });

        var store = state.open(io.env());
        Session session;
        Finch finch = null;
        try {
            // The command line runs the user's own files: a µNorman use may read files below the working directory.
            Finch.Builder builder = Finch.builder().normanSources(dev.finch.norman.SourceLoader.under(java.nio.file.Path.of("").toAbsolutePath()));
            if (world.isPresent()) builder.models(world.get());
            if (agents.isPresent()) builder.agents(agents.get());
            builder.keepSchedulesOnly();
            for (var p : policies) builder.schedulePolicy(p);
            finch = mcp.install(StateOptions.configure(builder, store, roots)).build();
            session = finch.newSession(options);
        } catch (IllegalArgumentException e) {
            if (finch != null) finch.close();
            store.ifPresent(FinchStore::close);
            throw new UsageException(e.getMessage());
        }
        try {
            return runAll(session, sources, override);
        } finally {
            // Stops the MCP servers the session started.
            finch.close();
            store.ifPresent(FinchStore::close);
        }
    }

    private int runAll(Session session, List<Source> sources, Language override) {
        boolean failed = false;
        boolean suspended = false;
        for (Source src : sources) {
            // With --json the events are in the outcome; else say text goes out byte for byte, output handles drawn or as lines.
            // On a terminal handles are drawn in place; otherwise their lines go to stderr and stdout stays the say text (D2).
            OutputView view = json ? null : new OutputView(io.out(), io.err(), io.terminal());
            // Finch's own buffered sink: the run hands its events over and goes on (streamed by a delivery thread), so a
            // stdout that blocks cannot hold it past its deadline, and it may run on this thread (no hand-off).
            OutputSink sink = view == null ? OutputSink.NONE : dev.finch.vm.BufferedSink.of(view);
            Submission sub = new Submission(src.text(), src.language(override), sourceId != null ? sourceId : src.defaultSourceId(),
                    java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), sink);
            // A join of a CPU task still computing pauses the run: the command line waits for the task and goes on.
            Outcome o = session.awaitTasks(session.submit(sub));
            // The contract's interactive rule: a plain unit yield is a cooperative timeslice, resumed at once.
            for (int i = 0; i < MAX_AUTO_RESUMES && o instanceof Outcome.Suspended s && s.isUnitYield(); i++) {
                o = session.awaitTasks(session.resume(o.executionId()));
            }
            if (sink instanceof dev.finch.vm.BufferedSink buffered) delivered(buffered);
            if (view != null) view.finish();
            report(src, o);
            switch (o.status()) {
                // A refused answer is not success: the host's answer was wrong (the execution still waits).
                case FAILED, CANCELLED, REFUSED -> failed = true;
                case SUSPENDED -> suspended = true;
                case COMPLETED -> { }
            }
        }
        io.out().flush();
        return failed ? 1 : suspended ? 3 : 0;
    }

    /**
     * {@code --script NAME}: one µNorman file's top level, once, in the test harness's world under its script NAME
     * (its grants granted, asks and calls answered by the script); {@code say} output to stdout; diagnostics, then
     * what the world spent and took and each ask and call (as {@code finch test --trace} shows them) to stderr.
     */
    private int runUnderScript(List<Source> sources, Language override) throws UsageException {
        if (sources.size() != 1) throw new UsageException("--script runs exactly one µNorman file");
        Source src = sources.get(0);
        if (src.language(override) != Language.NORMAN) throw new UsageException("--script needs a µNorman file (.nm, or --lang norman)");
        String id = sourceId != null ? sourceId : src.defaultSourceId();
        dev.finch.norman.test.TestHarness.ScriptedRun r;
        try (var harness = new dev.finch.norman.test.TestHarness(dev.finch.norman.SourceLoader.under(java.nio.file.Path.of("").toAbsolutePath()))) {
            // With --json stdout is the outcome objects alone: a failing val is reported by its own object, not by say text.
            r = harness.runUnder(src.text(), id, script, json ? dev.finch.vm.OutputSink.NONE : chunk -> { io.out().print(chunk); io.out().flush(); });
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        for (Diagnostic d : r.diagnostics()) io.err().print(DiagnosticText.render(d, src.text()));
        if (json) ScriptRunReport.json(r, id, io.out());
        else ScriptRunReport.text(r, io.out(), io.err());
        if (r.world() != null) {
            io.err().println("finch: " + id + " ran under script " + script + ": spent " + dev.finch.vm.value.Money.ofMicros(r.world().spent())
                    + ", took " + dev.finch.vm.value.Duration.ofMillis(r.world().elapsed()));
            for (var e : r.world().trace()) io.err().println("    " + TestCommand.traceLine(e));
        }
        io.out().flush();
        io.err().flush();
        return r.ok() ? 0 : 1;
    }

    /** Waits until the say text and events of the run are on stdout (and stderr), before its report follows them. */
    private static void delivered(dev.finch.vm.BufferedSink sink) {
        try {
            sink.awaitDelivered();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void report(Source src, Outcome o) {
        if (json) {
            io.out().println(FinchJson.write(o));
            io.out().flush();
            return;
        }
        for (Diagnostic d : o.diagnostics()) io.err().print(DiagnosticText.render(d, src.text()));
        if (o instanceof Outcome.Suspended s) {
            String why = !o.requiredCapabilities().isEmpty()
                    ? "waiting for a grant of " + String.join(", ", o.requiredCapabilities())
                    : s.waitingTask().isPresent() ? "waiting for a CPU task or child agent (interrupted)"
                    : "it yielded " + s.yielded().map(v -> v.display() + " : " + v.type()).orElse("a value");
            io.err().println("finch: " + src.defaultSourceId() + " is suspended (" + o.executionId() + "): " + why);
            if (!o.requiredCapabilities().isEmpty()) io.err().println("   = help: " + CommandLineHints.forMissingGrants(o.requiredCapabilities()));
        } else if (o instanceof Outcome.Refused) {
            io.err().println("finch: an answer to " + src.defaultSourceId() + " was refused (" + o.executionId() + "); it is still suspended");
        } else if (o instanceof Outcome.Cancelled) {
            io.err().println("finch: " + src.defaultSourceId() + " was cancelled; nothing was committed");
        }
        io.err().flush();
    }
}
