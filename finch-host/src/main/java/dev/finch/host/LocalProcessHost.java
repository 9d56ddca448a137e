package dev.finch.host;

import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.HostFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

/**
 * Local processes, contained. {@link ProcessBuilder} gets the executable and its arguments as separate strings (so
 * {@code ; $( ) `} and newlines reach the program verbatim; never a shell), standard input from the null device, and:
 *
 * <ul>
 *   <li><b>An explicit environment, never the JVM's</b>: only {@link #ALLOWLIST} — {@code PATH}
 *       ({@value #DEFAULT_PATH}), {@code LANG} and {@code LC_ALL} ({@value #DEFAULT_LOCALE}), and {@code HOME} and
 *       {@code TMPDIR} both set to a private scratch directory made for the call (mode 700, deleted after it, so
 *       nothing a program leaves in its home reaches the next call or the workspace) — plus the variables the host
 *       configures ({@link #withEnvironment}, {@code Finch.Builder.processEnvironment}), which override these. An API
 *       key in the host's environment never reaches a child.</li>
 *   <li><b>Contained, killed whole</b>, in the strongest way this machine allows, probed once per JVM
 *       ({@link #containment()}): {@link Containment#PID_NAMESPACE} — util-linux {@code unshare --pid --fork
 *       --kill-child}, where the kernel lets this user make a PID namespace (root, {@code CAP_SYS_ADMIN}) — makes the
 *       child process 1 of a namespace of its own, and when the call ends the kernel kills every process in it, even one
 *       that called {@code setsid} and double-forked. Otherwise {@link Containment#SESSION} (util-linux {@code setsid},
 *       Linux with {@code /proc}): the child leads a new session, and when the call ends every process still in that
 *       session (found through {@code /proc}, so one that made its own process group is found too) and every
 *       descendant is sent {@code SIGKILL}, repeatedly until none is left; a process that leaves the session
 *       ({@code setsid} and a double fork) escapes. Elsewhere ({@link Containment#DESCENDANTS}) only the process and
 *       its descendants at the moment of the kill are killed. In every case the call ends them normally, at the
 *       timeout, at the run's cancellation or deadline, when output overflows, and when the JVM shuts down (a
 *       shutdown hook: {@code SIGTERM}, {@code System.exit}); a JVM killed outright ({@code SIGKILL}) runs no hook,
 *       and what it started runs on until it ends by itself. A host running
 *       untrusted code needs a container or a sandbox as its {@link ProcessHost} for more (files, network).</li>
 *   <li><b>Prompt stops</b>: the wait looks at the run's {@link dev.finch.vm.boundary.Watch} every {@value #POLL_MS} ms, so
 *       {@code Session.cancel} or the run's deadline ends the process (and its session) at once; the host's own
 *       timeout applies as well.</li>
 *   <li><b>Bounds as the bytes arrive</b>: each captured stream holds at most {@code maxOutputBytes}; the moment one
 *       would exceed it, reading stops and the process is killed ({@code E-HOST-010}), rather than after it ends.</li>
 * </ul>
 *
 * <p>The working directory is the one given (the session's workspace), else the scratch directory. Thread-safe: each
 * call has its own process, scratch directory and reader threads.
 */
public final class LocalProcessHost implements ProcessHost {
    /** The {@code PATH} a child gets unless the host sets its own. */
    public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";
    /** The {@code LANG} and {@code LC_ALL} a child gets unless the host sets its own. */
    public static final String DEFAULT_LOCALE = "C.UTF-8";
    /** The variables every child gets from Finch itself; the host adds (or overrides) with {@link #withEnvironment}. */
    public static final List<String> ALLOWLIST = List.of("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR");
    /** How often, in milliseconds, a waiting call looks at its run's stop, its timeout and its output bounds. */
    public static final int POLL_MS = 10;

    /** How a local process and what it started are ended (see the class documentation). */
    public enum Containment {
        /**
         * The child is process 1 of a PID namespace of its own (util-linux {@code unshare --pid --fork --kill-child}):
         * when it ends, or is killed, the kernel kills every process in the namespace, whatever it did to leave its
         * session or process group ({@code setsid}, double forks). Needs a kernel and user that may make PID namespaces
         * (root, or {@code CAP_SYS_ADMIN}); probed once per JVM.
         */
        PID_NAMESPACE,
        /** The child leads its own session ({@code setsid}); every process in it and every descendant is killed. */
        SESSION,
        /** No {@code setsid} or no {@code /proc}: the child and its descendants at the moment of the kill. */
        DESCENDANTS
    }

    private static final Path PROC = Path.of("/proc");

    /**
     * What is probed or compiled once per JVM, when a process is first started, its containment asked or a variable
     * named: not when a session makes its host (every session has one; most never start a process).
     */
    private static final class Probed {
        static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
        static final Optional<Path> SETSID = findSetsid();
        static final Optional<Path> UNSHARE = SETSID.isPresent() ? findUnshare() : Optional.empty();
        static final Containment CONTAINMENT = UNSHARE.isPresent() ? Containment.PID_NAMESPACE
                : SETSID.isPresent() ? Containment.SESSION : Containment.DESCENDANTS;
        /** The wrapper a contained command starts with. */
        static final List<String> PREFIX = UNSHARE.map(u -> List.of(u.toString(), "--pid", "--fork", "--kill-child"))
                .orElse(SETSID.map(p -> List.of(p.toString())).orElse(List.of()));
        /** The processes started and not yet ended, killed (with what they started) if the JVM shuts down first. */
        static final Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

        static {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(LocalProcessHost::end), "finch-process-shutdown"));
            } catch (IllegalStateException alreadyShuttingDown) {
                // Nothing new starts now anyway.
            }
        }
    }

    /**
     * The command that starts {@code command} (an executable and its arguments) contained as this JVM contains
     * processes ({@link #containment()}): behind {@code unshare --pid --fork --kill-child}, {@code setsid}, or as it is.
     * For other hosts that start processes (an MCP client's stdio servers); {@link #track} and {@link #end} finish the job.
     */
    public static List<String> containedCommand(List<String> command) {
        List<String> out = new ArrayList<>(Probed.PREFIX);
        out.addAll(command);
        return out;
    }

    /** Registers {@code p} (started from {@link #containedCommand}) to be ended if the JVM shuts down while it runs. */
    public static void track(Process p) {
        Probed.LIVE.add(p);
        p.onExit().thenRun(() -> Probed.LIVE.remove(p));
    }

    /**
     * Ends {@code p} and everything it started, as a call's end does (see {@link Containment}); false when some of it
     * still lived after every round. Idempotent.
     */
    public static boolean endContained(Process p) {
        boolean ended = end(p);
        Probed.LIVE.remove(p);
        return ended;
    }
    /** Kill rounds before giving up on a session that keeps forking. */
    private static final int MAX_ROUNDS = 200;
    /** How long the reader threads may take to see the end of their streams once the processes are gone. */
    private static final long DRAIN_MS = 2_000;

    private final Path workingDirectory;
    private final Duration timeout;
    private final int maxOutputBytes;
    private final Map<String, String> environment;

    /** A host with only the allowlisted environment: {@code workingDirectory} may be null (the scratch directory). */
    public LocalProcessHost(Path workingDirectory, Duration timeout, int maxOutputBytes) {
        this(workingDirectory, timeout, maxOutputBytes, Map.of());
    }

    /**
     * A host whose children also get {@code environment} (over the allowlisted variables). A name is letters, digits
     * and {@code _}, not starting with a digit; a value holds no NUL; otherwise {@link IllegalArgumentException}.
     */
    public LocalProcessHost(Path workingDirectory, Duration timeout, int maxOutputBytes, Map<String, String> environment) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive");
        if (maxOutputBytes < 0) throw new IllegalArgumentException("maxOutputBytes must not be negative");
        this.workingDirectory = workingDirectory;
        this.timeout = timeout;
        this.maxOutputBytes = maxOutputBytes;
        this.environment = checkedEnvironment(environment);
    }

    /** This host with {@code variables} added to what its children get (replacing variables of the same name). */
    public LocalProcessHost withEnvironment(Map<String, String> variables) {
        Map<String, String> all = new TreeMap<>(environment);
        all.putAll(checkedEnvironment(variables));
        return new LocalProcessHost(workingDirectory, timeout, maxOutputBytes, all);
    }

    /** The variables the host configured (the allowlisted ones are added per call, under these). */
    public Map<String, String> environment() { return environment; }

    /** How processes are contained on this machine. */
    public static Containment containment() { return Probed.CONTAINMENT; }

    /**
     * {@code variables} as a sorted, unmodifiable copy, checked: a name is letters, digits and {@code _}, not starting
     * with a digit; a value holds no NUL; otherwise {@link IllegalArgumentException}.
     */
    public static Map<String, String> checkedEnvironment(Map<String, String> variables) {
        Objects.requireNonNull(variables, "environment");
        Map<String, String> out = new TreeMap<>();
        for (var e : variables.entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (name == null || !Probed.NAME.matcher(name).matches()) throw new IllegalArgumentException("not an environment variable name: " + name);
            if (value == null || value.indexOf('\0') >= 0) throw new IllegalArgumentException("the value of " + name + " is null or holds NUL");
            out.put(name, value);
        }
        return Collections.unmodifiableMap(out);
    }

    /** The environment of one call: the allowlist, then the host's variables over it. */
    private Map<String, String> environmentFor(Path scratch) {
        Map<String, String> env = new TreeMap<>();
        env.put("PATH", DEFAULT_PATH);
        env.put("LANG", DEFAULT_LOCALE);
        env.put("LC_ALL", DEFAULT_LOCALE);
        env.put("HOME", scratch.toString());
        env.put("TMPDIR", scratch.toString());
        env.putAll(environment);
        return env;
    }

    @Override public Completed run(String executable, List<String> arguments) throws HostFailure {
        return run(executable, arguments, dev.finch.vm.boundary.Watch.NONE);
    }

    @Override public Completed run(String executable, List<String> arguments, dev.finch.vm.boundary.Watch watch) throws HostFailure {
        Objects.requireNonNull(watch, "watch");
        requireExecutable(executable);
        Path scratch = scratch();
        try {
            return contained(executable, arguments, watch, scratch);
        } finally {
            delete(scratch);
        }
    }

    /**
     * Refuses a name that is not an executable file before anything starts: under {@code setsid} a missing program
     * would otherwise be {@code setsid}'s own exit 127, not the "cannot start" failure it is.
     */
    private static void requireExecutable(String executable) throws HostFailure {
        Path program;
        try {
            program = Path.of(executable);
        } catch (InvalidPathException e) {
            throw new HostFailure(HostCode.PROCESS, "cannot start " + executable + ": not a file name");
        }
        if (!program.isAbsolute()) throw new HostFailure(HostCode.PROCESS, "cannot start " + executable + ": not an absolute path");
        if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
            throw new HostFailure(HostCode.PROCESS, "cannot start " + executable + ": no such executable file");
        }
    }

    private Completed contained(String executable, List<String> arguments, dev.finch.vm.boundary.Watch watch, Path scratch) throws HostFailure {
        List<String> program = new ArrayList<>();
        program.add(executable);
        program.addAll(arguments);
        List<String> command = containedCommand(program);
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        pb.directory((workingDirectory != null ? workingDirectory : scratch).toFile());
        pb.environment().clear();
        pb.environment().putAll(environmentFor(scratch));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new HostFailure(HostCode.PROCESS, "cannot start " + executable + ": " + e.getMessage());
        }
        track(p);
        Capture out = new Capture(p.getInputStream(), maxOutputBytes, "finch-process-" + p.pid() + "-stdout");
        Capture err = new Capture(p.getErrorStream(), maxOutputBytes, "finch-process-" + p.pid() + "-stderr");
        out.start();
        err.start();
        String failure;
        try {
            failure = watchOver(p, out, err, watch, executable);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted while waiting for " + executable;
        } finally {
            boolean ended = endContained(p);
            out.finish();
            err.finish();
            if (!ended) failure = executable + " kept starting processes faster than they could be killed";
        }
        if (failure == null && (out.overflowed() || err.overflowed())) failure = overflow(executable);
        if (failure != null) throw new HostFailure(HostCode.PROCESS, failure);
        return new Completed(p.exitValue(), out.text(), err.text());
    }

    /** Waits for the process in short slices; the reason it must be killed, or null once it exited by itself. */
    private String watchOver(Process p, Capture out, Capture err, dev.finch.vm.boundary.Watch watch, String executable) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!p.waitFor(POLL_MS, TimeUnit.MILLISECONDS)) {
            if (out.overflowed() || err.overflowed()) return overflow(executable);
            Optional<String> stop = watch.stop();
            if (stop.isPresent()) return executable + " was killed: " + stop.get();
            if (System.nanoTime() - deadline > 0) return executable + " did not finish within " + timeout.toMillis() + " ms and was killed";
        }
        return null;
    }

    private String overflow(String executable) {
        return executable + " wrote more than " + maxOutputBytes + " bytes to one stream and was killed";
    }

    // ---- ending a process and everything it started -----------------------------------------------------------------

    /**
     * Kills {@code p}, its descendants and (under {@link Containment#SESSION}) every process left in its session,
     * looking again until none is left; false when the session still had live processes after {@link #MAX_ROUNDS}.
     * Zombies are not counted: they are dead, waiting only for their parent (or init) to reap them.
     */
    private static boolean end(Process p) {
        long session = p.pid();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Set<ProcessHandle> live = new LinkedHashSet<>();
            if (p.isAlive()) live.add(p.toHandle());
            p.descendants().filter(LocalProcessHost::living).forEach(live::add);
            // In a PID namespace the kernel kills the rest once its process 1 (the child of unshare) is gone.
            if (Probed.CONTAINMENT == Containment.SESSION) sessionMembers(session).forEach(live::add);
            if (live.isEmpty()) return true;
            live.forEach(ProcessHandle::destroyForcibly);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return false;
    }

    /** True for a process that is neither gone nor a zombie. */
    private static boolean living(ProcessHandle h) {
        if (!h.isAlive()) return false;
        if (Probed.CONTAINMENT == Containment.DESCENDANTS) return true;
        Stat s = stat(h.pid());
        return s != null && s.living();
    }

    /**
     * The living processes of {@code session} other than its leader (the leader is the {@link Process} itself, ended
     * through it). Linux does not reuse a number while any process still has it as its session id, so while one of
     * ours lives nobody else's can be found here; the first empty scan ends the kill.
     */
    private static List<ProcessHandle> sessionMembers(long session) {
        List<ProcessHandle> members = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(PROC)) {
            for (Path entry : all) {
                String name = entry.getFileName().toString();
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) continue;
                long pid;
                try {
                    pid = Long.parseLong(name);
                } catch (NumberFormatException notAProcess) {
                    continue;
                }
                if (pid == session) continue;
                Stat s = stat(pid);
                if (s == null || s.session() != session || !s.living()) continue;
                ProcessHandle.of(pid).ifPresent(members::add);
            }
        } catch (IOException | RuntimeException e) {
            // /proc unreadable right now: the descendants are still ended.
        }
        return members;
    }

    /** The fields of {@code /proc/PID/stat} that containment needs. */
    private record Stat(char state, long session) {
        boolean living() { return state != 'Z' && state != 'X' && state != 'x'; }
    }

    /** A process's state and session from {@code /proc}, or null when it is gone or unreadable. */
    private static Stat stat(long pid) {
        try {
            String text = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1);
            // "pid (comm) state ppid pgrp session …": the command may hold spaces and parentheses, so split after the last ')'.
            int close = text.lastIndexOf(')');
            if (close < 0) return null;
            String[] f = text.substring(close + 1).trim().split(" ");
            if (f.length < 4 || f[0].isEmpty()) return null;
            return new Stat(f[0].charAt(0), Long.parseLong(f[3]));
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    /**
     * util-linux {@code unshare} at a fixed system path, when it can make a PID namespace here: probed by running
     * {@code unshare --pid --fork --kill-child /bin/true} once (a user without {@code CAP_SYS_ADMIN}, or a kernel or
     * container that forbids it, fails the probe, and {@code setsid} is used instead).
     */
    private static Optional<Path> findUnshare() {
        if (Boolean.getBoolean("finch.process.noPidNamespace")) return Optional.empty();
        Path t = Path.of("/bin/true");
        if (!Files.isExecutable(t)) t = Path.of("/usr/bin/true");
        for (String candidate : List.of("/usr/bin/unshare", "/bin/unshare")) {
            Path p = Path.of(candidate);
            if (!Files.isRegularFile(p) || !Files.isExecutable(p)) continue;
            try {
                Process probe = new ProcessBuilder(p.toString(), "--pid", "--fork", "--kill-child", t.toString())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
                if (!probe.waitFor(5, TimeUnit.SECONDS)) {
                    probe.destroyForcibly();
                    return Optional.empty();
                }
                return probe.exitValue() == 0 ? Optional.of(p) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * util-linux {@code setsid} at a fixed system path (never looked up through the JVM's {@code PATH}), when this is
     * Linux with {@code /proc}. A JVM's child is never a process-group leader, so {@code setsid} makes the new session
     * in place and executes the program as that session's leader: the {@link Process}'s pid is the session id.
     */
    private static Optional<Path> findSetsid() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) return Optional.empty();
        if (!Files.isReadable(PROC.resolve("self").resolve("stat"))) return Optional.empty();
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            Path p = Path.of(candidate);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    // ---- the call's scratch directory -------------------------------------------------------------------------------

    private static Path scratch() throws HostFailure {
        try {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                return Files.createTempDirectory("finch-process-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            return Files.createTempDirectory("finch-process-");
        } catch (IOException e) {
            throw new HostFailure(HostCode.PROCESS, "cannot make a scratch directory for the process: " + e.getMessage());
        }
    }

    /** Deletes the scratch directory after its processes are gone, never following a link out of it. */
    private static void delete(Path scratch) {
        try {
            Files.walkFileTree(scratch, new SimpleFileVisitor<>() {
                @Override public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException leftBehind) {
            // Best effort: what a program made undeletable stays in the temp directory, private to this user.
        }
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** Drains a stream into a bounded buffer on its own thread, and stops reading at the bound. */
    private static final class Capture extends Thread {
        private final InputStream in;
        private final int max;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private volatile boolean overflow;

        Capture(InputStream in, int max, String name) {
            super(name);
            this.in = in;
            this.max = max;
            setDaemon(true);
        }

        @Override public void run() {
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    synchronized (this) {
                        int room = max - buf.size();
                        if (n > room) {
                            // Stop at the bound: the writer blocks on the full pipe (or fails on the closed one) until killed.
                            buf.write(chunk, 0, room);
                            overflow = true;
                            return;
                        }
                        buf.write(chunk, 0, n);
                    }
                }
            } catch (IOException ended) {
                // The process ended or was killed; what was read stays.
            }
        }

        boolean overflowed() { return overflow; }

        /** Waits (boundedly) for the end of the stream; its writers are dead by now unless one escaped containment. */
        void finish() {
            if (Thread.currentThread().isInterrupted()) return;
            try {
                join(DRAIN_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized String text() { return buf.toString(StandardCharsets.UTF_8); }
    }
}
