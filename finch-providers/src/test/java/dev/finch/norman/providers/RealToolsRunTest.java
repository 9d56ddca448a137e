package dev.finch.norman.providers;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.finch.norman.harness.WorldRuns;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.GrantSet;
import dev.finch.capabilities.Scope;
import dev.finch.ir.checked.Environment;
import dev.finch.norman.Norman;
import dev.finch.norman.NormanProgram;
import dev.finch.norman.NormanTests;
import dev.finch.norman.SourceLoader;
import dev.finch.verifier.Verification;
import dev.finch.verifier.Verifier;
import dev.finch.vm.engine.CancelToken;
import dev.finch.vm.OutputSink;
import dev.finch.vm.engine.RunResult;
import dev.finch.vm.engine.Vm;
import dev.finch.vm.engine.VmState;
import dev.finch.vm.boundary.HostConfig;
import dev.finch.host.ToolHost;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real tool bindings installed on a µNorman run the way docs/norman.md shows: HostConfig.with(ToolHost.class, Tools.of(…)). */
class RealToolsRunTest {
    @TempDir Path dir;

    private static RunResult run(String file, List<String> tools, java.util.function.Supplier<Map<String, ToolHost>> bindings) {
        Norman norman = new Norman(SourceLoader.inMemory(Map.of()));
        NormanProgram p = norman.check(file, "agent.nm");
        NormanTests lowered = norman.lowerTests(p, dev.finch.vm.engine.VmState.EMPTY.library().vocabulary());
        assertThat(lowered.diagnostics()).isEmpty();
        Verification v = Verifier.verify(lowered.module().orElseThrow(), dev.finch.vm.engine.VmState.EMPTY.environment());
        assertThat(v.diagnostics()).isEmpty();
        List<Grant> gs = new ArrayList<>();
        for (String t : tools) gs.add(Grant.of("g-" + t, "tool.call(" + t + ",*)", Scope.TASK).value());
        try (Tools installed = Tools.of(bindings.get()); Vm vm = new Vm()) {
            return vm.run("agent", v.module().get(), VmState.EMPTY, WorldRuns.LIMITS, OutputSink.NONE, new CancelToken(),
                    HostConfig.NONE.withGrants(GrantSet.of(gs).value()).with(ToolHost.class, installed));
        }
    }

    private static Object top(RunResult r) {
        assertThat(r).as("%s", r).isInstanceOf(RunResult.Completed.class);
        return ((RunResult.Completed) r).state().stack().get(0).value();
    }

    @Test void filesystemAndHttpCallsRunThroughTheRealBindings() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        server.createContext("/", x -> {
            seen.add(x.getRequestURI().getRawPath());
            byte[] b = "12".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            try (OutputStream out = x.getResponseBody()) { out.write(b); }
        });
        server.start();
        try {
            Files.writeString(dir.resolve("n.txt"), "hello");
            String file = """
                    (grant fs (filesystem [read Text] [write Num]))
                    (grant web (http [count Num]))
                    (define go () (let* ([n (call fs write "copy.txt" (call fs read "n.txt"))]
                                         [m (call web count "a b")])
                                    (+ n m)))
                    (go)
                    """;
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
            Object v = top(run(file, List.of("fs", "web"), () -> Map.of(
                    "fs", FileSystemTool.workspace(dir),
                    "web", HttpTool.builder(base).get("count", "/count/{0}").timeout(Duration.ofSeconds(5)).build())));
            // write answers 5 (bytes, declared Num), the server's "12" is read as a Num
            assertThat(v).isEqualTo(17.0);
            assertThat(Files.readString(dir.resolve("copy.txt"))).isEqualTo("hello");
            assertThat(seen).containsExactly("/v1/count/a%20b");
        } finally {
            server.stop(0);
        }
    }

    @Test void aLiveKernelAnswersATypedResult() {
        Assumptions.assumeTrue(PythonKernelTest.python3OnPath(), "python3 not installed: live kernel tests skipped");
        String file = """
                (grant py (kernel [exec Text] [eval Num]))
                (define go () (begin (call py exec "x = 40") (call py eval "x + 2")))
                (go)
                """;
        Object v = top(run(file, List.of("py"), () -> Map.of("py", new PythonKernel("python3", Duration.ofSeconds(20), 10_000))));
        assertThat(v).isEqualTo(42.0);
    }
}
