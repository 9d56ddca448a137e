package dev.finch.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code finch} command line (decisions D2). Exit status: 0 every submission completed, 1 one failed,
 * 2 usage error, 3 one is suspended. It uses only the {@code finch-core} API. Nothing a program does prints a
 * Java stack trace: programs fail with diagnostics, and even a defect is reported in one line.
 */
@Command(name = "finch", mixinStandardHelpOptions = true, version = "finch 0.1.0 (FINCH-VM-TYPED/1)",
        description = "Run, check and inspect Finch programs (Lisp, Co-Forth, µNorman).")
public final class Main implements Callable<Integer> {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_SUSPENDED = 3;

    private final Io io;

    private Main(Io io) { this.io = io; }

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        // Say output is written byte for byte as UTF-8, whatever the platform's default encoding.
        // A console means standard input and output are a terminal: output handles are then drawn in place.
        int status = execute(args, System.in, new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err),
                System.getenv(), System.console() != null);
        System.exit(status);
    }

    /** Runs the command line on the given streams and returns the exit status; for embedding and tests. */
    public static int execute(String[] args, InputStream in, OutputStream out, OutputStream err) {
        return execute(args, in, out, err, System.getenv());
    }

    /** As above, with the environment variables the command line reads ({@code ANTHROPIC_API_KEY}, …). */
    public static int execute(String[] args, InputStream in, OutputStream out, OutputStream err, java.util.Map<String, String> env) {
        return execute(args, in, out, err, env, false);
    }

    /** As above, saying whether {@code out} is a terminal (then output handles are drawn in place, else as plain lines). */
    public static int execute(String[] args, InputStream in, OutputStream out, OutputStream err, java.util.Map<String, String> env, boolean terminal) {
        PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, false, StandardCharsets.UTF_8);
        Io io = new Io(in, o, e, java.util.Map.copyOf(env), terminal);
        try {
            RunCommand plain = plainRun(io, args);
            return plain != null ? plain.call() : commandLine(io, args).execute(args);
        } catch (RuntimeException | Error ex) {
            // picocli hands Errors (a broken class path, a JVM limit) back to us; still no stack trace.
            e.println("finch: internal error: " + ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage()));
            return EXIT_FAILED;
        } finally {
            o.flush();
            e.flush();
        }
    }

    /**
     * {@code finch run FILE…} with no option — the common run — made without picocli (whose command model, read from
     * the annotations, is ~170 classes and tens of milliseconds of a fresh JVM): every argument after {@code run} is a
     * file, or {@code -} for standard input, so what picocli would make of them is a {@link RunCommand} with those files
     * and every option at its default. Null for anything else (an option, {@code --}, an {@code @argfile}, no file),
     * which picocli parses; {@code MainTest} checks both ways answer alike.
     */
    static RunCommand plainRun(Io io, String[] args) {
        if (args.length < 2 || !args[0].equals("run")) return null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.isEmpty() || (a.startsWith("-") && !a.equals("-")) || a.startsWith("@")) return null;
        }
        RunCommand run = new RunCommand(io);
        run.files.addAll(java.util.Arrays.asList(args).subList(1, args.length));
        return run;
    }

    /** The subcommands' names, in the order {@code finch --help} lists them. */
    private static final java.util.List<String> SUBCOMMANDS = java.util.List.of("run", "check", "test", "repl", "chat", "schedules", "vocabulary", "inspect", "language", "mcp");

    /** The subcommand called {@code name}, or null when there is none. */
    private static Object subcommand(String name, Io io) {
        return switch (name) {
            case "run" -> new RunCommand(io);
            case "check" -> new CheckCommand(io);
            case "test" -> new TestCommand(io);
            case "repl" -> new ReplCommand(io);
            case "chat" -> new ChatCommand(io);
            case "schedules" -> SchedulesCommand.of(io);
            case "vocabulary" -> new VocabularyCommand(io);
            case "inspect" -> new InspectCommand(io);
            case "language" -> new LanguageCommand(io);
            case "mcp" -> new McpCommand(io);
            default -> null;
        };
    }

    /** The whole command tree. */
    static CommandLine commandLine(Io io) { return commandLine(io, new String[0]); }

    /**
     * The command tree {@code args} need: when the first argument names a subcommand, only that one is registered
     * (picocli reads each command's annotations, and a run of {@code finch run} should not pay for the REPL's or
     * MCP's); otherwise — no arguments, an option, a misspelt command that picocli suggests a name for — all of them.
     * What picocli parses and prints for {@code args} is the same either way.
     */
    static CommandLine commandLine(Io io, String[] args) {
        CommandLine cl = new CommandLine(new Main(io));
        Object only = args.length > 0 ? subcommand(args[0], io) : null;
        if (only != null) cl.addSubcommand(args[0], only);
        else for (String name : SUBCOMMANDS) cl.addSubcommand(name, subcommand(name, io));
        cl.setOut(new PrintWriter(io.out(), true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(io.err(), true, StandardCharsets.UTF_8));
        cl.setParameterExceptionHandler((ex, a) -> {
            String command = ex.getCommandLine().getCommandName();
            return usage(io, "finch".equals(command) ? null : command, ex.getMessage());
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            // Only a defect of Finch gets here; programs never throw. One line, no stack trace.
            io.err().println("finch: internal error: " + ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage()));
            io.err().flush();
            return EXIT_FAILED;
        });
        return cl;
    }

    /** Prints a short usage message for {@code command} and returns the usage exit status. */
    static int usage(Io io, String command, String message) {
        String prefix = command == null ? "finch: " : "finch " + command + ": ";
        io.err().println(prefix + message);
        io.err().println("Try 'finch " + (command == null ? "" : command + " ") + "--help' for more information.");
        io.err().flush();
        return EXIT_USAGE;
    }

    @Override public Integer call() {
        io.err().println("finch: a command is required: run, check, test, repl, chat, schedules, vocabulary, inspect, language or mcp");
        io.err().println("Try 'finch --help' for more information.");
        io.err().flush();
        return EXIT_USAGE;
    }
}
