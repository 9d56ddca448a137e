package dev.finch.norman.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.finch.ir.diag.Origin;
import dev.finch.norman.harness.ToolResults;
import dev.finch.host.ToolCapability;
import dev.finch.host.ToolHost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A live {@code kernel} tool binding (issue 8 item 8): one persistent {@code python3} process (started directly, no
 * shell) running the small loop {@code kernel.py} shipped beside this class, which reads one JSON request per line and
 * runs it in one persistent globals dict, so definitions survive from call to call.
 *
 * <ul>
 *   <li>{@code (call py exec "x = 2\nprint(x + 1)")} — runs the code and answers its captured stdout and stderr
 *   ({@code "3\n"}); an exception is {@code ToolError} with the output so far and the exception's last line;</li>
 *   <li>{@code (call py eval "x * 21")} — answers the expression's value as JSON when it has a JSON form
 *   ({@code 42}), else its {@code str}, so a declared {@code Num} or record reads it directly;</li>
 *   <li>{@code (call py fork)} — {@code ToolError}: a live kernel cannot copy its state.</li>
 * </ul>
 * Each call has a timeout (starting the process is not counted in it); a call that runs past it kills the process (the next call starts a fresh one, with its
 * state lost, and the ToolError says so). The output is cut at a bound. {@link #close()} kills the process.
 */
public final class PythonKernel implements ToolHost, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LOOP = loadLoop();
    /** How long a starting kernel may take to say it is ready (not counted in a call's timeout). */
    private static final Duration STARTUP = Duration.ofSeconds(30);

    private final String python;
    private final Duration timeout;
    private final int maxOutputChars;
    private final ExecutorService reader = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "python-kernel-reader");
        t.setDaemon(true);
        return t;
    });
    private Process process;
    private BufferedReader replies;
    private OutputStream requests;
    private boolean closed;

    /** A kernel run by the executable {@code python} (such as {@code "python3"}), with a per-call timeout and an output bound. */
    public PythonKernel(String python, Duration timeout, int maxOutputChars) {
        this.python = python;
        this.timeout = timeout;
        this.maxOutputChars = maxOutputChars;
    }

    /** {@code python3} from the PATH, 30 s per call, 64 Ki characters of output. */
    public PythonKernel() { this("python3", Duration.ofSeconds(30), 65536); }

    private static String loadLoop() {
        try (InputStream in = PythonKernel.class.getResourceAsStream("kernel.py")) {
            if (in == null) throw new IllegalStateException("kernel.py is missing beside PythonKernel");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True while the process is running. */
    public synchronized boolean alive() { return process != null && process.isAlive(); }

    /** Starts the process and waits (at most {@link #STARTUP}) for its ready line, so a call's timeout counts only the call. */
    private void start() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(python, "-u", "-I", "-c", LOOP);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        process = pb.start();
        requests = process.getOutputStream();
        replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedReader in = replies;
        Future<String> ready = reader.submit(in::readLine);
        try {
            String line = ready.get(STARTUP.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null || !JSON.readTree(line).path("ready").asBoolean(false)) throw new IOException("the kernel did not start");
        } catch (TimeoutException e) {
            ready.cancel(true);
            throw new IOException("the kernel did not start within " + STARTUP.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IOException("the kernel did not start: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the kernel started");
        }
    }

    private void kill() {
        if (process != null) {
            process.destroyForcibly();
            try { process.waitFor(5, TimeUnit.SECONDS); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
        process = null;
        replies = null;
        requests = null;
    }

    /** Calls are real I/O and thread-safe, so concurrent steps' calls overlap. */
    @Override public boolean concurrent() { return true; }

    @Override public synchronized Object call(ToolCapability cap, String op, List<String> args, String key, Origin origin) {
        if (ToolResults.isFork(key) || op.equals("fork")) return ToolResults.toolError("a live kernel cannot copy its state, so `" + cap.grant() + "` cannot be forked");
        if (!op.equals("exec") && !op.equals("eval")) return ToolResults.toolError("a python kernel has exec and eval, not " + op);
        if (args.size() != 1) return ToolResults.toolError(op + " takes 1 argument (the code), not " + args.size());
        if (closed) return ToolResults.toolError("the kernel is closed");
        try {
            if (process == null || !process.isAlive()) {
                kill();
                start();
            }
            ObjectNode req = JSON.createObjectNode().put("op", op).put("code", args.get(0)).put("max", maxOutputChars);
            requests.write((JSON.writeValueAsString(req) + "\n").getBytes(StandardCharsets.UTF_8));
            requests.flush();
        } catch (IOException e) {
            kill();
            return ToolResults.toolError("cannot run " + python + ": " + ToolResults.brief(e.getMessage(), 200));
        }
        BufferedReader in = replies;
        Future<String> line = reader.submit(in::readLine);
        String text;
        try {
            text = line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            line.cancel(true);
            kill();
            return ToolResults.toolError(op + " ran past " + timeout.toMillis() + " ms: the kernel was stopped and its state is lost");
        } catch (ExecutionException e) {
            kill();
            return ToolResults.toolError("the kernel failed: " + e.getCause().getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            return ToolResults.toolError(op + " was interrupted: the kernel was stopped");
        }
        if (text == null) {
            kill();
            return ToolResults.toolError("the kernel exited: its state is lost");
        }
        JsonNode reply;
        try {
            reply = JSON.readTree(text);
        } catch (IOException e) {
            kill();
            return ToolResults.toolError("the kernel answered something that is not its protocol");
        }
        String out = reply.path("out").asText("");
        if (!reply.path("ok").asBoolean(false)) {
            String err = reply.path("error").asText("an exception");
            return ToolResults.toolError((out.isEmpty() ? "" : out + (out.endsWith("\n") ? "" : "\n")) + err);
        }
        String result = op.equals("eval") ? reply.path("value").asText("") : out;
        return ToolResults.typed(cap, op, key, result, origin);
    }

    /** Kills the process; later calls are ToolError. */
    @Override public synchronized void close() {
        closed = true;
        kill();
        reader.shutdownNow();
    }
}
