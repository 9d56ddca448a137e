package dev.finch.vm.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Local processes: {@link ProcessBuilder} with the executable and its arguments as separate strings (so
 * {@code ; $( ) `} and newlines reach the program verbatim), a working directory, a timeout after which the
 * process tree is killed, and a bound on each captured stream.
 */
public final class LocalProcessHost implements ProcessHost {
    private final Path workingDirectory;
    private final Duration timeout;
    private final int maxOutputBytes;

    public LocalProcessHost(Path workingDirectory, Duration timeout, int maxOutputBytes) {
        this.workingDirectory = workingDirectory;
        this.timeout = timeout;
        this.maxOutputBytes = maxOutputBytes;
    }

    @Override public Completed run(String executable, List<String> arguments) throws HostFailure {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(arguments);
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        if (workingDirectory != null) pb.directory(workingDirectory.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new HostFailure(HostCode.PROCESS, "cannot start " + executable + ": " + e.getMessage());
        }
        Capture out = new Capture(p.getInputStream(), maxOutputBytes);
        Capture err = new Capture(p.getErrorStream(), maxOutputBytes);
        out.start();
        err.start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new HostFailure(HostCode.PROCESS, executable + " did not finish within " + timeout.toMillis() + " ms and was killed");
            }
            out.join(1000);
            err.join(1000);
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new HostFailure(HostCode.PROCESS, "interrupted while waiting for " + executable);
        }
        if (out.overflow || err.overflow) {
            throw new HostFailure(HostCode.PROCESS, executable + " wrote more than " + maxOutputBytes + " bytes to one stream");
        }
        return new Completed(p.exitValue(), out.text(), err.text());
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** Drains a stream into a bounded buffer on its own thread. */
    private static final class Capture extends Thread {
        private final InputStream in;
        private final int max;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        volatile boolean overflow;

        Capture(InputStream in, int max) {
            this.in = in;
            this.max = max;
            setDaemon(true);
        }

        @Override public void run() {
            byte[] chunk = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(chunk)) >= 0) {
                    if (buf.size() + n > max) { overflow = true; continue; }
                    buf.write(chunk, 0, n);
                }
            } catch (IOException ignored) {
                // The process ended or was killed; what was read stays.
            }
        }

        String text() { return buf.toString(StandardCharsets.UTF_8); }
    }
}
