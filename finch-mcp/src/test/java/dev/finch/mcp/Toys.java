package dev.finch.mcp;

import dev.finch.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** How the tests start the toy server as a real subprocess: {@code java -cp <this test class path> dev.finch.mcp.ToyServer}. */
final class Toys {
    private Toys() { }

    static String java() { return Path.of(System.getProperty("java.home"), "bin", "java").toString(); }

    /** JVM flags for a quick start of a small server. */
    static final List<String> QUICK = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xss512k");

    /** The toy server over stdio, named {@code name}, writing its pid to {@code pidFile}. */
    static McpServerSpec.Stdio stdio(String name, Path pidFile, String mainClass) {
        List<String> args = new java.util.ArrayList<>(QUICK);
        // A mark to find the server's process by: the pid it writes is its own namespace's where servers get one.
        if (pidFile != null) args.add("-Dtoy.pidfile=" + pidFile);
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        return new McpServerSpec.Stdio(name, java(), args, pidFile == null ? Map.of() : Map.of("TOY_PID_FILE", pidFile.toString()));
    }

    static McpServerSpec.Stdio stdio(String name, Path pidFile) { return stdio(name, pidFile, ToyServer.class.getName()); }

    /** The live (not zombie) processes of toy servers started with {@code pidFile}, by their host pids. */
    static java.util.Set<Long> servers(Path pidFile) {
        return withArgument("-Dtoy.pidfile=" + pidFile);
    }

    /** The live (not zombie) processes with {@code argument} among their arguments, read from /proc (the JDK's may be cut). */
    static java.util.Set<Long> withArgument(String argument) {
        java.util.Set<Long> out = new java.util.TreeSet<>();
        ProcessHandle.allProcesses().forEach(h -> {
            try {
                byte[] cmd = java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "cmdline"));
                List<String> args = List.of(new String(cmd, java.nio.charset.StandardCharsets.UTF_8).split("\0"));
                if (args.contains(argument) && notZombie(h.pid())) out.add(h.pid());
            } catch (java.io.IOException | RuntimeException gone) {
                // Gone, or not readable.
            }
        });
        return out;
    }

    static boolean notZombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"), java.nio.charset.StandardCharsets.ISO_8859_1);
            char state = stat.substring(stat.lastIndexOf(')') + 1).trim().charAt(0);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException | RuntimeException gone) {
            return !java.nio.file.Files.isDirectory(Path.of("/proc")) && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
    }

    /**
     * Ends every argument a test looks processes up by ({@code sleep 300.361…}), so that the same tests running in another
     * JVM on the machine at the same time (another build) never see each other's processes.
     */
    static final String PID = Long.toString(ProcessHandle.current().pid());

    /** The hang guard of every wait here: a minute, for what takes milliseconds when all is well (never an assertion about speed). */
    static final long HANG_GUARD_MILLIS = 60_000;

    /** Waits until {@code condition} holds, or the hang guard passes; whether it holds. */
    static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + HANG_GUARD_MILLIS * 1_000_000;
        while (System.nanoTime() - end < 0) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    /** The outcome's one diagnostic code, for failure assertions. */
    static String code(Outcome o) { return o.diagnostics().isEmpty() ? "none" : o.diagnostics().get(0).code(); }
}
