package dev.finch.store.jdbc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL server for the tests, started once per test JVM from the machine's own server binaries
 * ({@code initdb}, {@code pg_ctl}, {@code postgres}: Debian's {@code postgresql} package, or the directory in
 * {@code -Dfinch.postgres.bin}) on a temporary data directory and a free loopback port, and stopped when the test run
 * ends. PostgreSQL refuses to run as root: as root, it runs as the unprivileged user {@code postgres} (the package's),
 * else {@code nobody}, through {@code runuser}. When it cannot start — no binaries, no way to drop root, a failing
 * {@code initdb} — every test that needs it is skipped with the reason ({@link #require}), or fails when
 * {@code -Dfinch.postgres.required=true}.
 */
final class PostgresServer implements AutoCloseable {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PostgresServer.class);
    private static final String USER = "finch";
    private static final AtomicInteger DATABASES = new AtomicInteger();

    /**
     * Gives a test class the server ({@code @RegisterExtension static final PostgresServer.Extension PG = …}):
     * {@link #server()} starts it the first time a test of the run asks, or aborts the asking test (or, from a
     * {@code @BeforeAll} method, the class) with the reason there is none.
     */
    static final class Extension implements BeforeAllCallback {
        private volatile ExtensionContext context;

        @Override public void beforeAll(ExtensionContext context) { this.context = context; }

        /** The server. */
        PostgresServer server() { return require(context); }
    }

    /** The server, or why there is none. */
    private record Started(PostgresServer server, String failure) implements AutoCloseable {
        @Override public void close() { if (server != null) server.close(); }
    }

    private final Path base;
    private final Path bin;
    private final List<String> runAs;
    private final int port;
    private volatile boolean stopped;

    private PostgresServer(Path base, Path bin, List<String> runAs, int port) {
        this.base = base;
        this.bin = bin;
        this.runAs = runAs;
        this.port = port;
    }

    /**
     * The server of this test run (started by the first test class that asks, stopped when the run ends), or an aborted
     * test with the reason it could not start.
     */
    static PostgresServer require(ExtensionContext context) {
        Started s = context.getRoot().getStore(NS).getOrComputeIfAbsent(Started.class, k -> start(), Started.class);
        if (s.server() == null) {
            if (Boolean.getBoolean("finch.postgres.required")) throw new AssertionError("PostgreSQL is required: " + s.failure());
            Assumptions.abort("no PostgreSQL server for this test: " + s.failure());
        }
        return s.server();
    }

    /** A new, empty database on this server; its JDBC URL. */
    String createDatabase(String prefix) throws SQLException {
        String name = (prefix.replaceAll("[^a-z0-9]", "") + "_" + DATABASES.incrementAndGet()).toLowerCase(java.util.Locale.ROOT);
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, null); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    /** The JDBC URL of database {@code name}. */
    String url(String name) { return "jdbc:postgresql://127.0.0.1:" + port + "/" + name; }

    /** The login role (a superuser, trusted on loopback). */
    String user() { return USER; }

    @Override public void close() {
        if (stopped) return;
        stopped = true;
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", base.resolve("data").toString(), "-m", "immediate", "-w", "stop"),
                    base.resolve("stop.log"), 60);
        } catch (IOException | RuntimeException e) {
            // Still running or already gone: the directory goes either way.
        }
        deleteQuietly(base);
    }

    private static Started start() {
        Path bin = binaries();
        if (bin == null) {
            return new Started(null, "no PostgreSQL server binaries (initdb, pg_ctl, postgres) in -Dfinch.postgres.bin, "
                    + "/usr/lib/postgresql/*/bin or the PATH; install Debian's postgresql package");
        }
        List<String> runAs = new ArrayList<>();
        String user = null;
        if (isRoot()) {
            Path runuser = Stream.of("/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser").map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
            user = Stream.of("postgres", "nobody").filter(PostgresServer::userExists).findFirst().orElse(null);
            if (runuser == null || user == null) {
                return new Started(null, "running as root, and PostgreSQL refuses root; no runuser or no unprivileged user (postgres, nobody) to run it as");
            }
            runAs.addAll(List.of(runuser.toString(), "-u", user, "--"));
        }
        Path base = null;
        long started = System.nanoTime();
        try {
            base = Files.createTempDirectory("finch-pg-");
            Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
            if (user != null) {
                UserPrincipal owner = base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
                Files.setOwner(base, owner);
            }
            int port = freePort();
            PostgresServer server = new PostgresServer(base, bin, List.copyOf(runAs), port);
            server.run(List.of(bin.resolve("initdb").toString(), "-D", base.resolve("data").toString(), "-U", USER, "-A", "trust",
                    "-E", "UTF8", "--locale=C", "--no-sync"), base.resolve("initdb.log"), 120);
            server.run(List.of(bin.resolve("pg_ctl").toString(), "-D", base.resolve("data").toString(), "-l", base.resolve("server.log").toString(),
                    "-w", "-t", "60", "-o", "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1 -c fsync=off "
                            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200", "start"),
                    base.resolve("pg_ctl.log"), 90);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "finch-pg-stop"));
            // Shown, not asserted: what starting the server costs a test run.
            System.out.println("PostgresServer: " + bin + (user == null ? "" : " as " + user) + " on 127.0.0.1:" + port + ", initdb and start in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
            return new Started(server, null);
        } catch (IOException | RuntimeException e) {
            String log = base == null ? "" : tail(base);
            if (base != null) deleteQuietly(base);
            return new Started(null, "the server did not start: " + e.getMessage() + log);
        }
    }

    /** Runs {@code command} (as the server's user), its output to {@code log}; fails unless it exits 0 in time. */
    private void run(List<String> command, Path log, int seconds) throws IOException {
        List<String> full = new ArrayList<>(runAs);
        full.addAll(command);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish in " + seconds + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) throw new IOException(Path.of(command.get(0)).getFileName() + " exited " + p.exitValue());
    }

    private static Path binaries() {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getProperty("finch.postgres.bin");
        if (configured != null) candidates.add(Path.of(configured));
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                versions.map(v -> v.resolve("bin"))
                        .sorted(Comparator.comparing((Path v) -> versionOf(v.getParent().getFileName().toString())).reversed())
                        .forEach(candidates::add);
            } catch (IOException e) {
                // Not readable: the PATH may still have them.
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path initdb = Path.of(dir, "initdb");
            if (Files.isExecutable(initdb)) {
                try {
                    candidates.add(initdb.toRealPath().getParent());
                } catch (IOException e) {
                    // A dangling link: skip it.
                }
            }
        }
        for (Path c : candidates) {
            if (Stream.of("initdb", "pg_ctl", "postgres").allMatch(n -> Files.isExecutable(c.resolve(n)))) return c;
        }
        return null;
    }

    private static int versionOf(String name) {
        try {
            return Integer.parseInt(name.replaceAll("\\..*$", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid", LinkOption.NOFOLLOW_LINKS)) == 0;
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static boolean userExists(String name) {
        try {
            Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path base) {
        StringBuilder b = new StringBuilder();
        for (String name : List.of("initdb.log", "pg_ctl.log", "server.log")) {
            Path f = base.resolve(name);
            try {
                if (Files.isReadable(f)) {
                    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                    b.append("\n--- ").append(name).append(":\n").append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
                }
            } catch (IOException e) {
                // What could not be read is not shown.
            }
        }
        return b.toString();
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // Left for the system's temporary-file cleaning.
                }
            });
        } catch (IOException e) {
            // As above.
        }
    }
}
