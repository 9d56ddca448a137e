package dev.finch.hostwords;

import static dev.finch.hostwords.HostFixture.assertFailed;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.finch.Finch;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.SessionOptions;
import dev.finch.Submission;
import dev.finch.capabilities.Scope;
import dev.finch.net.LocalNetHost;
import dev.finch.vm.boundary.HostResponse;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 39, item 1: the HTTP words through the public Session API against a real local server (the JDK's HttpServer
 * on 127.0.0.1) and Finch's own net host. The requirement is the concrete URL (inferred from a literal by the
 * verifier, required again at the boundary), a missing grant pauses before anything is sent, a redirect to a host no
 * grant names is refused with E-NET-004, a name that resolves to loopback needs a grant naming it, plain HTTP needs a
 * grant naming http://, and deferred mode answers with a typed result. These are also the paired no-grant cases of
 * the HTTP words (NoGrantTest.PAIRED_WITH_THEIR_HOST).
 */
class NetTest {
    static HttpServer server;
    static int port;
    static final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", e -> {
            String path = e.getRequestURI().getPath();
            hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            String body = switch (path) {
                case "/hello" -> "hello " + e.getRequestMethod();
                case "/echo" -> e.getRequestHeaders().getFirst("X-Note") + ":" + new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                case "/big" -> "x".repeat(5000);
                default -> "";
            };
            if (path.equals("/to-localhost")) e.getResponseHeaders().add("Location", "http://localhost:" + port + "/hello");
            int status = path.equals("/to-localhost") ? 302 : path.equals("/missing") ? 404 : 200;
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            e.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) e.getResponseBody().write(b);
            e.close();
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterAll
    static void stop() { server.stop(0); }

    private static int hitsOf(String path) { return hits.getOrDefault(path, new AtomicInteger()).get(); }

    private static String url(String path) { return "http://127.0.0.1:" + port + path; }

    private static Session session(Finch.Tier tier, String... grants) {
        return Finch.builder().tier(tier).build().newSession(SessionOptions.builder().grants(List.of(grants)).build()
                .withNetHost(LocalNetHost.builder().maxResponseBytes(1000).build()));
    }

    private static Session session(String... grants) { return session(Finch.Tier.AUTO, grants); }

    /** Says "STATUS BODY" of the response, or the failure's code. */
    private static String fetch(String call) {
        return "(match-result " + call + "\n"
                + "  (ok r (match r (record ((body b) (headers h) (status s) (url u))\n"
                + "    (match-result (bytes-to-string b) (ok t (say (string-append (int-to-string s) \" \" t))) (err e (say \"not utf-8\"))))))\n"
                + "  (err e (match e (record ((code c) (message m)) (say c)))))";
    }

    private static Outcome lisp(Session s, String program) { return s.submit(Submission.of(program, "get.lisp")); }

    @ParameterizedTest
    @EnumSource(Finch.Tier.class)
    void aGrantedGetFetchesTheResponse(Finch.Tier tier) {
        Session s = session(tier, "net.http(http://127.0.0.1:" + port + "/**)");
        Outcome o = lisp(s, fetch("(http-get \"" + url("/hello") + "\")"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("200 hello GET");
        assertThat(lisp(s, fetch("(http-get \"" + url("/missing") + "\")")).output()).as("any status is a response").isEqualTo("404 ");
    }

    @Test
    void withoutAGrantTheRunPausesAtTheConcreteUrlAndSendsNothing() {
        Session s = session();
        int before = hitsOf("/hello");
        Outcome o = lisp(s, "(say \"before\") " + fetch("(http-get \"" + url("/hello?q=1") + "\")"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        String required = "net.http(http://127.0.0.1:" + port + "/hello,method=GET)";
        assertThat(o.requiredCapabilities()).containsExactly(required);
        assertThat(o.inferredCapabilities()).as("the verifier infers the concrete URL from the literal").contains(required);
        assertThat(o.output()).isEqualTo("before");
        assertThat(hitsOf("/hello")).isEqualTo(before);
        Outcome approved = s.approve(o.executionId(), Scope.ONCE);
        assertThat(approved.status()).as("%s", approved).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(approved.output()).isEqualTo("before200 hello GET");
        assertThat(hitsOf("/hello")).isEqualTo(before + 1);

        Outcome again = lisp(s, fetch("(http-get \"" + url("/hello") + "\")"));
        Outcome denied = s.deny(again.executionId(), "no");
        assertFailed(denied, "host", "E-HOST-001");
        assertThat(hitsOf("/hello")).isEqualTo(before + 1);
    }

    @Test
    void aRedirectToAHostNoGrantNamesIsRefusedAtTheBoundary() {
        Session s = session("net.http(http://127.0.0.1:" + port + "/**)");
        int before = hitsOf("/hello");
        Outcome o = lisp(s, fetch("(http-get \"" + url("/to-localhost") + "\")"));
        assertFailed(o, "host", "E-NET-004");
        assertThat(o.diagnostics().get(0).message()).contains("redirected to http://localhost:" + port + "/hello, which no grant in force permits");
        assertThat(hitsOf("/hello")).isEqualTo(before);
    }

    @Test
    void aNameThatResolvesToLoopbackNeedsAGrantNamingIt() {
        int before = hitsOf("/hello");
        Outcome wildcard = lisp(session("net.http(http://*:" + port + "/**)"), fetch("(http-get \"http://localhost:" + port + "/hello\")"));
        assertFailed(wildcard, "host", "E-NET-003");
        assertThat(hitsOf("/hello")).isEqualTo(before);
        Outcome named = lisp(session("net.http(http://localhost:" + port + "/**)"), fetch("(http-get \"http://localhost:" + port + "/hello\")"));
        assertThat(named.output()).as("%s", named).isEqualTo("200 hello GET");
    }

    @Test
    void plainHttpNeedsAGrantNamingHttp() {
        Outcome o = lisp(session("net.http(**)"), fetch("(http-get \"" + url("/hello") + "\")"));
        assertFailed(o, "host", "E-NET-002");
    }

    @Test
    void aRequestRecordSendsItsMethodHeadersAndBody() {
        Session s = session("net.http(http://127.0.0.1:" + port + "/echo,method=POST)");
        String request = "{ :method \"POST\" :url \"" + url("/echo") + "\" :headers (list { :name \"X-Note\" :value \"n\" }) :body (string-to-bytes \"payload\") }";
        Outcome o = lisp(s, fetch("(http-request " + request + ")"));
        assertThat(o.output()).as("%s", o).isEqualTo("200 n:payload");
    }

    @Test
    void headersTheProgramMayNotSetAreRefusedBeforeAnythingIsAsked() {
        Session s = session("net.http(http://127.0.0.1:" + port + "/**)");
        int before = hitsOf("/echo");
        for (String header : List.of("Host", "Connection", "Transfer-Encoding", "Content-Length", "Proxy-Authorization")) {
            String request = "{ :method \"POST\" :url \"" + url("/echo") + "\" :headers (list { :name \"" + header + "\" :value \"x\" }) :body (string-to-bytes \"p\") }";
            Outcome o = lisp(s, fetch("(http-request " + request + ")"));
            assertFailed(o, "host", "E-NET-001");
            assertThat(o.requiredCapabilities()).as(header).isEmpty();
        }
        assertFailed(lisp(s, fetch("(http-get \"ftp://127.0.0.1/x\")")), "host", "E-NET-001");
        assertThat(hitsOf("/echo")).isEqualTo(before);
    }

    @Test
    void aResponseOverTheSizeBoundIsAnErrTheProgramHandles() {
        Outcome o = lisp(session("net.http(http://127.0.0.1:" + port + "/**)"), fetch("(http-get \"" + url("/big") + "\")"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("E-NET-007");
    }

    @Test
    void withoutANetHostTheWordsFailBeforeAnythingIsAsked() {
        Session s = Finch.builder().build().newSession(SessionOptions.builder().build());
        Outcome o = lisp(s, fetch("(http-get \"" + url("/hello") + "\")"));
        assertFailed(o, "host", "E-HOST-013");
        assertThat(o.requiredCapabilities()).isEmpty();
    }

    @Test
    void coForthCallsTheSameWord() {
        Session s = session("net.http(http://127.0.0.1:" + port + "/**)");
        Outcome o = s.submit(Submission.of("\"" + url("/hello") + "\" http-get", "get.fs").withLanguage(dev.finch.Language.FORTH));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.stack()).hasSize(1);
        assertThat(o.stack().get(0).type()).startsWith("result<record{body:bytes,");
    }

    @Test
    void deferredModeCarriesTheRequestAndTakesATypedResult() {
        Session s = Finch.builder().build().newSession(SessionOptions.builder().grants(List.of("net.http(https://api.example.com/**)")).build().withDeferredHost(true));
        Outcome o = lisp(s, fetch("(http-get \"https://api.example.com/v1/items\")"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.SUSPENDED);
        assertThat(o.requiredCapabilities()).isEmpty();
        var request = s.pendingRequest(o.executionId()).orElseThrow();
        assertThat(request.requirement().toString()).isEqualTo("net.http(https://api.example.com/v1/items,method=GET)");
        assertThat(request.operation()).isEqualTo("http-get");
        Object response = ResultValue.ok(new RecordValue(new Object[] {Bytes.wrap("[1,2]".getBytes(StandardCharsets.UTF_8)),
                ListValue.from(List.of(new RecordValue(new Object[] {"Content-Type", "application/json"}))), 200L, "https://api.example.com/v1/items"}));
        Outcome done = s.respond(o.executionId(), new HostResponse.Result(request.sequence(), response));
        assertThat(done.status()).as("%s", done).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(done.output()).isEqualTo("200 [1,2]");
    }

    @Test
    void theRequestIsJournaledWithItsConcreteRequirement() {
        Session s = session("net.http(http://127.0.0.1:" + port + "/**)");
        HostFixture.Recorder rec = new HostFixture.Recorder();
        Outcome o = s.submit(Submission.of(fetch("(http-get \"" + url("/hello?page=2") + "\")"), "get.lisp").withObserver(rec));
        assertThat(o.output()).as("%s", o).isEqualTo("200 hello GET");
        assertThat(rec.requests).singleElement().satisfies(r -> {
            assertThat(r.operation()).isEqualTo("http-get");
            assertThat(r.requirement().toString()).isEqualTo("net.http(http://127.0.0.1:" + port + "/hello,method=GET)");
        });
        assertThat(rec.states()).containsExactly(dev.finch.vm.boundary.EffectJournal.State.ACKNOWLEDGED);
    }

    @Test
    void anInternationalHostIsRequiredAndSentInAscii() {
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        Session s = Finch.builder().build().newSession(SessionOptions.builder().grants(List.of("net.http(https://xn--bcher-kva.example/**)")).build()
                .withNetHost(LocalNetHost.builder().resolver(host -> {
                    asked.add(host);
                    throw new java.net.UnknownHostException(host);
                }).build()));
        Outcome o = lisp(s, fetch("(http-get \"https://Bücher.example/x\")"));
        assertThat(o.status()).as("%s", o).isEqualTo(Outcome.Status.COMPLETED);
        assertThat(o.output()).isEqualTo("E-NET-005");
        assertThat(asked).containsExactly("xn--bcher-kva.example");
    }
}
