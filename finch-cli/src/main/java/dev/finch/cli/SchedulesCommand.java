package dev.finch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.DiagnosticText;
import dev.finch.Finch;
import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.SessionOptions;
import dev.finch.host.ScheduleWhen;
import dev.finch.ir.diag.Diagnostic;
import dev.finch.schedule.SchedulePolicy;
import dev.finch.schedule.ScheduledRun;
import dev.finch.store.FinchStore;
import dev.finch.store.Schedules;
import dev.finch.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code finch schedules}: the schedules programs made ({@code schedule-create}) and kept in the state directory.
 * {@code run} runs them as they fall due, in the foreground, printing each run's outcome, until Ctrl-C (SIGINT);
 * {@code list} shows what is kept; {@code cancel} deletes schedules by id. A {@code finch run} or {@code finch repl}
 * only keeps the schedules its programs make: they run where {@code finch schedules run} runs on the same state.
 */
@Command(name = "schedules", mixinStandardHelpOptions = true, description = "Run, list or cancel the schedules kept in the state directory.")
final class SchedulesCommand implements Callable<Integer> {
    private final Io io;

    SchedulesCommand(Io io) { this.io = io; }

    /** The command with its three subcommands. */
    static CommandLine of(Io io) {
        return new CommandLine(new SchedulesCommand(io)).addSubcommand("run", new Run(io)).addSubcommand("list", new Listing(io))
                .addSubcommand("cancel", new Cancel(io));
    }

    @Override public Integer call() { return Main.usage(io, "schedules", "a subcommand is required: run, list or cancel"); }

    /** The state directory's store; {@code --no-state} has none, so it is a usage error here. */
    static FinchStore store(StateOptions state, Io io) throws UsageException {
        if (state.noState) throw new UsageException("the schedules are kept in a state directory: give --state DIR, or none for the default, not --no-state");
        return state.open(io.env()).orElseThrow();
    }

    /** {@code finch schedules run}: the foreground scheduler of a state directory. */
    @Command(name = "run", mixinStandardHelpOptions = true, description = "Run the schedules kept in the state directory as they fall due, each "
            + "in a new session with its policy's grants, printing each run's outcome; stops on Ctrl-C.")
    static final class Run implements Callable<Integer> {
        private final Io io;

        @Mixin RootOptions roots = new RootOptions();

        @Mixin StateOptions state = new StateOptions();

        @Mixin NetOptions net = new NetOptions();

        @Mixin ScheduleOptions schedules = new ScheduleOptions();

        @Mixin ProviderOptions providers = new ProviderOptions();

        @Option(names = "--json", description = "Print one object per run: schedule_id, policy, run, at, missed and its outcome (FINCH-VM-TYPED/1).")
        boolean json;

        @Option(names = "--refresh", paramLabel = "SECONDS", description = "How often to read the state directory again for schedules other processes kept (default: 2).")
        int refreshSeconds = 2;

        Run(Io io) { this.io = io; }

        @Override public Integer call() {
            try {
                return run();
            } catch (UsageException e) {
                return Main.usage(io, "schedules run", e.getMessage());
            }
        }

        private int run() throws UsageException {
            if (schedules.specs.isEmpty()) throw new UsageException("define the policies whose schedules run here with --schedule-policy NAME[:GRANT;…]");
            if (refreshSeconds < 1 || refreshSeconds > 3600) throw new UsageException("--refresh takes 1 to 3600 seconds, not " + refreshSeconds);
            SessionOptions base = net.install(roots.install(SessionOptions.DEFAULT));
            List<SchedulePolicy> policies = schedules.policies(base, this::print);
            var world = providers.world(io.env());
            FinchStore store = store(state, io);
            Finch finch;
            try {
                Finch.Builder b = Finch.builder().normanSources(dev.finch.norman.SourceLoader.under(java.nio.file.Path.of("").toAbsolutePath()))
                        .scheduleRefresh(Duration.ofSeconds(refreshSeconds));
                world.ifPresent(b::models);
                for (SchedulePolicy p : policies) b.schedulePolicy(p);
                finch = StateOptions.configure(b, Optional.of(store), roots).build();
            } catch (IllegalArgumentException | StoreException e) {
                store.close();
                throw new UsageException(e.getMessage());
            }
            List<String> names = new ArrayList<>();
            for (SchedulePolicy p : policies) names.add(p.name());
            io.err().println("finch schedules: running the schedules of " + String.join(", ", names) + " kept in " + store.description()
                    + " (Ctrl-C stops)");
            io.err().flush();
            CountDownLatch stopped = new CountDownLatch(1);
            Runnable stop = () -> {
                finch.close();
                store.close();
                io.err().println("finch schedules: stopped");
                io.err().flush();
                stopped.countDown();
            };
            // Ctrl-C ends the JVM: its shutdown hook stops the scheduler (a run in progress is cancelled) and closes the store.
            Thread hook = new Thread(stop, "finch-schedules-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                stopped.await();
            } catch (InterruptedException e) {
                // An embedding stopped this thread: stop as Ctrl-C would.
                Runtime.getRuntime().removeShutdownHook(hook);
                stop.run();
                Thread.currentThread().interrupt();
            }
            return Main.EXIT_OK;
        }

        /** One run's report, on the scheduler's thread: a line and its say text, or one JSON object with --json. */
        private void print(ScheduledRun r) {
            Outcome o = r.outcome();
            synchronized (io) {
                if (json) {
                    ObjectMapper m = new ObjectMapper();
                    ObjectNode line = m.createObjectNode().put("schedule_id", r.scheduleId()).put("policy", r.policy()).put("run", r.run())
                            .put("at", r.at().toString()).put("missed", r.missed());
                    try {
                        line.set("outcome", m.readTree(FinchJson.write(o)));
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        throw new IllegalStateException("an outcome's JSON does not read back", e);
                    }
                    io.out().println(line);
                } else {
                    String why = o instanceof Outcome.Suspended && !o.requiredCapabilities().isEmpty()
                            ? " (waiting for " + String.join(", ", o.requiredCapabilities()) + ", which its policy does not grant)" : "";
                    io.out().println("schedule " + r.scheduleId() + " (" + r.policy() + ") run " + r.run() + " at " + r.at()
                            + (r.missed() ? ", for runs missed" : "") + ": " + o.status().spelling() + why);
                    if (!o.output().isEmpty()) io.out().println(o.output().endsWith("\n") ? o.output().substring(0, o.output().length() - 1) : o.output());
                    for (Diagnostic d : o.diagnostics()) io.err().print(DiagnosticText.render(d, null));
                }
                io.out().flush();
                io.err().flush();
            }
        }
    }

    /** {@code finch schedules list}: what the state directory keeps. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the schedules kept in the state directory, in id order.")
    static final class Listing implements Callable<Integer> {
        private final Io io;

        @Mixin StateOptions state = new StateOptions();

        @Option(names = "--json", description = "Print one object per schedule.")
        boolean json;

        Listing(Io io) { this.io = io; }

        @Override public Integer call() {
            try (FinchStore store = store(state, io)) {
                ObjectMapper m = new ObjectMapper();
                for (Schedules.Schedule s : store.schedules().all()) {
                    // When it runs next by its when alone: its policy's limits (runs, lifetime) may end it sooner.
                    Optional<Instant> next = ScheduleWhen.parse(s.when()).flatMap(w -> w.due(s.created(), s.runs(), s.lastRun().orElse(s.created())));
                    String work = s.word().map(w -> "word " + w).orElse(s.language().orElse("by its text") + " program");
                    if (json) {
                        ObjectNode o = m.createObjectNode().put("id", s.id()).put("policy", s.policy()).put("when", s.when())
                                .put("language", s.language().orElse(null)).put("word", s.word().orElse(null)).put("program", s.program())
                                .put("created", s.created().toString()).put("runs", s.runs())
                                .put("last_run", s.lastRun().map(Instant::toString).orElse(null)).put("next", next.map(Instant::toString).orElse(null));
                        io.out().println(o);
                    } else {
                        io.out().println(s.id() + "  " + s.policy() + "  " + s.when() + "  " + work + "  runs " + s.runs()
                                + next.map(t -> "  next " + t).orElse(""));
                    }
                }
                io.out().flush();
                return Main.EXIT_OK;
            } catch (UsageException e) {
                return Main.usage(io, "schedules list", e.getMessage());
            }
        }
    }

    /** {@code finch schedules cancel ID…}: deletes schedules from the state directory. */
    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel schedules kept in the state directory by id.")
    static final class Cancel implements Callable<Integer> {
        private final Io io;

        @Mixin StateOptions state = new StateOptions();

        @Parameters(arity = "1..*", paramLabel = "ID", description = "The ids of the schedules to cancel.")
        List<String> ids = new ArrayList<>();

        Cancel(Io io) { this.io = io; }

        @Override public Integer call() {
            try (FinchStore store = store(state, io)) {
                boolean all = true;
                for (String id : ids) {
                    boolean gone = !id.isBlank() && id.length() <= 200 && store.schedules().remove(id);
                    if (gone) io.out().println("cancelled " + id);
                    else io.err().println("finch schedules cancel: no schedule " + id + " is kept");
                    all &= gone;
                }
                io.out().flush();
                io.err().flush();
                return all ? Main.EXIT_OK : Main.EXIT_FAILED;
            } catch (UsageException e) {
                return Main.usage(io, "schedules cancel", e.getMessage());
            }
        }
    }
}
