package dev.finch.norman.providers;

import static dev.finch.norman.providers.ToolTesting.O;
import static dev.finch.norman.providers.ToolTesting.TEXT;
import static dev.finch.norman.providers.ToolTesting.failure;
import static dev.finch.norman.providers.ToolTesting.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.norman.NormanTests;
import dev.finch.host.ToolCapability;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live kernel against a real python3; skipped, with the reason, where none is on the PATH. */
class PythonKernelTest {
    private static final ToolCapability PY = new ToolCapability("py", 0);

    private PythonKernel kernel;

    static boolean python3OnPath() {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "python3");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return true;
        }
        return false;
    }

    @BeforeEach void start() {
        Assumptions.assumeTrue(python3OnPath(), "python3 not installed: live kernel tests skipped");
        kernel = new PythonKernel("python3", Duration.ofSeconds(20), 1000);
    }

    @AfterEach void stop() { if (kernel != null) kernel.close(); }

    private Object exec(String code) { return kernel.call(PY, "exec", List.of(code), TEXT, O); }

    @Test void stateSurvivesFromCallToCall() {
        assertThat(ok(exec("x = 20\ndef f(y):\n    return x + y\n"))).isEqualTo("");
        assertThat(ok(exec("print(f(22))"))).isEqualTo("42\n");
        assertThat(ok(kernel.call(PY, "eval", List.of("{'n': f(1), 'ok': True}"), TEXT, O))).isEqualTo("{\"n\": 21, \"ok\": true}");
        assertThat(kernel.alive()).isTrue();
    }

    @Test void anExceptionIsAToolErrorWithTheOutputSoFar() {
        assertThat(failure(exec("print('before')\n1/0"))).isEqualTo("ToolError: before\nZeroDivisionError: division by zero");
        assertThat(failure(exec("def ("))).startsWith("ToolError: ").contains("SyntaxError");
        assertThat(ok(exec("print('still alive')"))).isEqualTo("still alive\n");
    }

    @Test void forkFails() {
        assertThat(failure(kernel.call(PY, "fork", List.of(), "fork", O))).isEqualTo("ToolError: a live kernel cannot copy its state, so `py` cannot be forked");
    }

    @Test void theProtocolCannotBeCorruptedByTheCode() {
        assertThat(ok(exec("import os, sys\nos.write(1, b'raw\\n')\nsys.__stdout__.write('x\\n')\nprint(sys.stdin.read())"))).isEqualTo("\n");
        assertThat(ok(exec("print('ok')"))).isEqualTo("ok\n");
    }

    @Test void outputIsBounded() {
        assertThat((String) ok(exec("print('y' * 5000)"))).hasSize(1000 + "\n[output truncated]".length()).endsWith("[output truncated]");
    }

    @Test void aCallPastTheTimeoutStopsTheKernelAndTheNextCallStartsAFreshOne() {
        kernel.close();
        kernel = new PythonKernel("python3", Duration.ofMillis(500), 1000);
        assertThat(ok(exec("x = 1"))).isEqualTo("");
        assertThat(failure(exec("import time\ntime.sleep(30)"))).isEqualTo("ToolError: exec ran past 500 ms: the kernel was stopped and its state is lost");
        assertThat(kernel.alive()).isFalse();
        assertThat(failure(exec("print(x)"))).contains("NameError");
    }

    @Test void closeKillsTheProcess() {
        assertThat(ok(exec("pass"))).isEqualTo("");
        kernel.close();
        assertThat(kernel.alive()).isFalse();
        assertThat(failure(exec("pass"))).isEqualTo("ToolError: the kernel is closed");
    }

    @Test void aMissingInterpreterIsAToolError() {
        try (PythonKernel k = new PythonKernel("/nonexistent/python3", Duration.ofSeconds(5), 100)) {
            assertThat(failure(k.call(PY, "exec", List.of("pass"), TEXT, O))).startsWith("ToolError: cannot run /nonexistent/python3");
        }
    }
}
