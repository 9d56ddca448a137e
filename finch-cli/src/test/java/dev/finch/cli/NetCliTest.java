package dev.finch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39's first "done when": {@code finch run --grant 'net.http(http://127.0.0.1:PORT/**)' get.lisp} fetches from
 * a local server, and the same program without the grant pauses with the concrete URL as the required capability,
 * having sent nothing; {@code --no-net} leaves the run without a network.
 */
class NetCliTest {
    @TempDir Path dir;
    HttpServer server;
    int port;
    final AtomicInteger hits = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/release.json", e -> {
            byte[] b = "{\"version\": \"1.2.3\"}".getBytes(StandardCharsets.UTF_8);
            e.sendResponseHeaders(200, b.length);
            e.getResponseBody().write(b);
            e.close();
        });
        server.createContext("/greeting", e -> {
            hits.incrementAndGet();
            byte[] b = "hello from the server".getBytes(StandardCharsets.UTF_8);
            e.sendResponseHeaders(200, b.length);
            e.getResponseBody().write(b);
            e.close();
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterEach
    void stop() { server.stop(0); }

    private String run(String... flags) throws IOException {
        Path p = dir.resolve("get.lisp");
        Files.writeString(p, "(match-result (http-get \"http://127.0.0.1:" + port + "/greeting\")\n"
                + "  (ok r (match r (record ((body b) (headers h) (status s) (url u))\n"
                + "    (match-result (bytes-to-string b) (ok t (say t)) (err e (say \"not utf-8\"))))))\n"
                + "  (err e (say \"the network failed\")))\n");
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(List.of(flags));
        args.add(p.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.execute(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), out, err, Map.of(), false);
        return exit + " " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aGrantedRunFetchesFromTheLocalServer() throws IOException {
        assertThat(run("--grant", "net.http(http://127.0.0.1:" + port + "/**)")).startsWith("0 hello from the server");
        assertThat(hits).hasValue(1);
    }

    @Test
    void withoutTheGrantTheRunPausesWithTheConcreteUrlAndSendsNothing() throws IOException {
        String r = run();
        assertThat(r).startsWith("3 ").contains("net.http(http://127.0.0.1:" + port + "/greeting,method=GET)");
        assertThat(hits).hasValue(0);
    }

    @Test
    void noNetLeavesTheRunWithoutANetwork() throws IOException {
        assertThat(run("--no-net", "--grant", "net.http(http://127.0.0.1:" + port + "/**)")).startsWith("1 ").contains("E-HOST-013");
        assertThat(hits).hasValue(0);
    }

    @Test
    void theWorkedExampleFetchesAndReadsItsJson() throws IOException {
        // docs/examples/fetch.lisp names port 8000; here it is this test's server's port.
        String example = Files.readString(Path.of("..", "docs", "examples", "fetch.lisp"), StandardCharsets.UTF_8);
        assertThat(example).contains("http://127.0.0.1:8000/release.json");
        Path p = dir.resolve("fetch.lisp");
        Files.writeString(p, example.replace(":8000", ":" + port));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.execute(new String[] {"run", "--grant", "net.http(http://127.0.0.1:" + port + "/**)", p.toString()},
                new ByteArrayInputStream(new byte[0]), out, new ByteArrayOutputStream(), Map.of(), false);
        assertThat(exit + " " + out.toString(StandardCharsets.UTF_8)).isEqualTo("0 version 1.2.3");
    }
}
