package dev.finch.norman.providers;

import static dev.finch.norman.providers.ToolTesting.O;
import static dev.finch.norman.providers.ToolTesting.TEXT;
import static dev.finch.norman.providers.ToolTesting.failure;
import static dev.finch.norman.providers.ToolTesting.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.finch.host.ToolCapability;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The http binding against a loopback server (127.0.0.1, an ephemeral port): each request is recorded and asserted,
 * each reply canned; an empty queue answers 500, so every exchange is bounded.
 */
class HttpToolTest {
    private record Seen(String method, String rawUri, String body, String contentType, String apiKey) { }

    private record Canned(int status, String body, long delayMillis) { }

    private static final ToolCapability WEB = new ToolCapability("web", 0);

    private HttpServer server;
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final Deque<Canned> replies = new ArrayDeque<>();

    @BeforeEach void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach void stop() { server.stop(0); }

    private void handle(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        seen.add(new Seen(x.getRequestMethod(), x.getRequestURI().getRawPath() + (x.getRequestURI().getRawQuery() == null ? "" : "?" + x.getRequestURI().getRawQuery()),
                body, x.getRequestHeaders().getFirst("Content-Type"), x.getRequestHeaders().getFirst("X-Api-Key")));
        Canned c;
        synchronized (replies) { c = replies.poll(); }
        if (c == null) c = new Canned(500, "nothing queued", 0);
        if (c.delayMillis() > 0) {
            try { Thread.sleep(c.delayMillis()); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
        byte[] b = c.body().getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(c.status(), b.length == 0 ? -1 : b.length);
        try (OutputStream out = x.getResponseBody()) { out.write(b); }
    }

    private void queue(int status, String body) { synchronized (replies) { replies.add(new Canned(status, body, 0)); } }

    private String base() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1"; }

    private HttpTool tool() {
        return HttpTool.builder(base())
                .get("search", "/search?q={0}&lang={1}")
                .get("page", "/pages/{0}")
                .post("save", "/notes/{0}", 1, "text/plain; charset=utf-8")
                .header("X-Api-Key", "k-test")
                .timeout(Duration.ofSeconds(5)).connectTimeout(Duration.ofSeconds(5))
                .maxResponseBytes(64)
                .build();
    }

    @Test void aGetFillsTheTemplateWithEncodedArgumentsAndAnswersTheBody() {
        queue(200, "<p>hi</p>");
        Object r = tool().call(WEB, "search", List.of("a b&c=d/é", "en"), TEXT, O);
        assertThat(ok(r)).isEqualTo("<p>hi</p>");
        assertThat(seen).hasSize(1);
        Seen s = seen.get(0);
        assertThat(s.method()).isEqualTo("GET");
        assertThat(s.rawUri()).isEqualTo("/api/v1/search?q=a%20b%26c%3Dd%2F%C3%A9&lang=en");
        assertThat(s.apiKey()).isEqualTo("k-test");
    }

    @Test void aPostSendsItsBodyArgument() {
        queue(201, "saved");
        assertThat(ok(tool().call(WEB, "save", List.of("n1", "some text"), TEXT, O))).isEqualTo("saved");
        Seen s = seen.get(0);
        assertThat(s.method()).isEqualTo("POST");
        assertThat(s.rawUri()).isEqualTo("/api/v1/notes/n1");
        assertThat(s.body()).isEqualTo("some text");
        assertThat(s.contentType()).startsWith("text/plain");
    }

    @Test void argumentsNeverChangeTheHostOrLeaveThePrefix() {
        queue(200, "a");
        queue(200, "b");
        HttpTool t = tool();
        assertThat(ok(t.call(WEB, "page", List.of("http://evil.example/x"), TEXT, O))).isEqualTo("a");
        assertThat(ok(t.call(WEB, "page", List.of("../../admin?x=1#f"), TEXT, O))).isEqualTo("b");
        assertThat(seen).extracting(Seen::rawUri).containsExactly(
                "/api/v1/pages/http%3A%2F%2Fevil.example%2Fx", "/api/v1/pages/..%2F..%2Fadmin%3Fx%3D1%23f");
        assertThat(failure(t.call(WEB, "page", List.of(".."), TEXT, O))).startsWith("ToolError: the argument `..` is refused");
        assertThat(seen).hasSize(2);   // refused before anything is sent
    }

    @Test void aNon2xxStatusIsAToolErrorWithTheStatus() {
        queue(404, "no such page");
        assertThat(failure(tool().call(WEB, "page", List.of("x"), TEXT, O))).isEqualTo("ToolError: HTTP 404: no such page");
        queue(503, "");
        assertThat(failure(tool().call(WEB, "page", List.of("x"), TEXT, O))).isEqualTo("ToolError: HTTP 503");
    }

    @Test void anOversizedResponseIsAToolError() {
        queue(200, "x".repeat(65));
        assertThat(failure(tool().call(WEB, "page", List.of("x"), TEXT, O))).contains("over the bound of 64 bytes");
        queue(200, "x".repeat(64));
        assertThat(ok(tool().call(WEB, "page", List.of("x"), TEXT, O))).isEqualTo("x".repeat(64));
    }

    @Test void aSlowServerTimesOut() {
        synchronized (replies) { replies.add(new Canned(200, "late", 1500)); }
        HttpTool t = HttpTool.builder(base()).get("page", "/pages/{0}").timeout(Duration.ofMillis(200)).build();
        assertThat(failure(t.call(WEB, "page", List.of("x"), TEXT, O))).isEqualTo("ToolError: page timed out after 200 ms");
    }

    @Test void unconfiguredOperationsWrongAritiesAndForkAreToolErrors() {
        HttpTool t = tool();
        assertThat(failure(t.call(WEB, "delete", List.of("x"), TEXT, O))).startsWith("ToolError: `web` has no operation delete");
        assertThat(failure(t.call(WEB, "search", List.of("x"), TEXT, O))).isEqualTo("ToolError: search takes 2 argument(s), not 1");
        assertThat(failure(t.call(WEB, "fork", List.of(), "fork", O))).startsWith("ToolError");
        assertThat(seen).isEmpty();
    }

    @Test void theEmbedderFixesTheOriginAndTemplatesStayUnderThePrefix() {
        assertThatThrownBy(() -> HttpTool.builder("ftp://127.0.0.1/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpTool.builder("http://u@127.0.0.1/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpTool.builder("http://127.0.0.1/x?q=1")).isInstanceOf(IllegalArgumentException.class);
        HttpTool.Builder b = HttpTool.builder(base());
        assertThatThrownBy(() -> b.get("a", "//evil.example/x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.get("a", "pages/{0}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.get("a", "/../admin")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.get("a", "/x/{name}")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test void encodingKeepsOnlyUnreservedCharacters() {
        assertThat(HttpTool.encode("aZ09-._~ /?#[]@!$&'()*+,;=%")).isEqualTo("aZ09-._~%20%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25");
    }
}
