package dev.finch.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, items 1 and 4: Finch's net host against real local HTTP and HTTPS servers. The address checked is the
 * address connected to (a resolver the test controls maps names to 127.0.0.1, which only a permit naming the host
 * may reach), every redirect is asked of the permit, and the size and time bounds end the exchange with their codes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class LocalNetHostTest {
    @TempDir static Path dir;
    static KeyStore store;
    static HttpServer http;
    static HttpsServer https;
    static final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    static final List<String> hostHeaders = new CopyOnWriteArrayList<>();
    static final List<String> cookies = new CopyOnWriteArrayList<>();
    static final CountDownLatch release = new CountDownLatch(1);

    @BeforeAll
    static void servers() throws Exception {
        store = Servers.keyStore(dir);
        com.sun.net.httpserver.HttpHandler handler = e -> {
            String path = e.getRequestURI().getPath();
            hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            hostHeaders.add(e.getRequestHeaders().getFirst("Host"));
            int port = e.getLocalAddress().getPort();
            switch (path) {
                case "/hello" -> Servers.reply(e, 200, "hello " + e.getRequestMethod(), "X-Test", "yes");
                case "/echo" -> Servers.reply(e, 201, new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                case "/to-internal" -> Servers.reply(e, 302, "", "Location", "http://internal.example.test:" + port + "/secret");
                case "/to-elsewhere" -> Servers.reply(e, 301, "", "Location", "http://elsewhere.example.test:" + port + "/hello");
                case "/to-hello" -> Servers.reply(e, 303, "", "Location", "/hello", "Set-Cookie", "session=abc");
                case "/check-cookie" -> {
                    cookies.add(String.valueOf(e.getRequestHeaders().getFirst("Cookie")));
                    Servers.reply(e, 200, "ok");
                }
                case "/loop" -> Servers.reply(e, 302, "", "Location", "/loop");
                case "/big" -> Servers.reply(e, 200, "x".repeat(1000));
                case "/big-chunked" -> {
                    e.sendResponseHeaders(200, 0);
                    for (int i = 0; i < 10; i++) e.getResponseBody().write("y".repeat(100).getBytes(StandardCharsets.UTF_8));
                    e.close();
                }
                case "/slow" -> {
                    try {
                        release.await(5, TimeUnit.MINUTES);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                    Servers.reply(e, 200, "late");
                }
                default -> Servers.reply(e, 404, "no");
            }
        };
        http = Servers.http(handler);
        https = Servers.https(store, handler);
    }

    @AfterAll
    static void stop() {
        release.countDown();
        http.stop(0);
        https.stop(0);
    }

    static final NetHost.Permit ANY_ADDRESS = (url, method) -> new NetHost.Verdict.Granted(true);
    static final NetHost.Permit PUBLIC_ONLY = (url, method) -> new NetHost.Verdict.Granted(false);

    private static LocalNetHost host() throws Exception {
        return LocalNetHost.builder().tls(Servers.trusting(store))
                .resolver(Servers.loopbackFor("localhost", "api.example.test", "internal.example.test", "elsewhere.example.test")).build();
    }

    private static NetHost.Request get(String url) { return new NetHost.Request("GET", URI.create(url), List.of(), new byte[0]); }

    private static int hitsOf(String path) { return hits.getOrDefault(path, new AtomicInteger()).get(); }

    @Test
    void fetchesOverHttpsWithTheHostNameAsSniAndCertificateName() throws Exception {
        NetHost.Response r = host().exchange(get("https://api.example.test:" + https.getAddress().getPort() + "/hello"), ANY_ADDRESS);
        assertThat(r.status()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello GET");
        assertThat(r.headers()).contains(new NetHost.Header("X-test", "yes"));
        assertThat(hostHeaders).contains("api.example.test:" + https.getAddress().getPort());
    }

    @Test
    void fetchesOverPlainHttpAndSendsABody() throws Exception {
        NetHost.Response r = host().exchange(new NetHost.Request("POST", URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/echo"),
                List.of(new NetHost.Header("Content-Type", "text/plain")), "payload".getBytes(StandardCharsets.UTF_8)), ANY_ADDRESS);
        assertThat(r.status()).isEqualTo(201);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("payload");
    }

    @Test
    void aCertificateTheTrustStoreDoesNotHoldFailsTheHandshake() {
        NetFailure f = catchThrowableOfType(NetFailure.class, () -> LocalNetHost.builder().resolver(Servers.loopbackFor("api.example.test")).build()
                .exchange(get("https://api.example.test:" + https.getAddress().getPort() + "/hello"), ANY_ADDRESS));
        assertThat(f.code()).isEqualTo(NetCode.UNREACHABLE);
        assertThat(f.getMessage()).contains("TLS handshake");
    }

    @Test
    void aNameThatResolvesToLoopbackIsRefusedUnlessThePermitNamesTheHost() throws Exception {
        int before = hitsOf("/hello");
        NetFailure f = catchThrowableOfType(NetFailure.class,
                () -> host().exchange(get("http://api.example.test:" + http.getAddress().getPort() + "/hello"), PUBLIC_ONLY));
        assertThat(f.code()).isEqualTo(NetCode.PRIVATE_ADDRESS);
        assertThat(f.getMessage()).contains("api.example.test resolves to a loopback, link-local or private address (127.0.0.1)");
        assertThat(hitsOf("/hello")).as("nothing was sent").isEqualTo(before);
        assertThat(host().exchange(get("http://api.example.test:" + http.getAddress().getPort() + "/hello"), ANY_ADDRESS).status()).isEqualTo(200);
    }

    @Test
    void aRedirectToAPrivateAddressIsRefusedBeforeAnythingIsSentThere() throws Exception {
        // The first hop's grant names its host (so it may reach 127.0.0.1); the redirect's host is permitted by name only.
        NetHost.Permit permit = (url, method) -> new NetHost.Verdict.Granted(url.host().equals("api.example.test"));
        NetFailure f = catchThrowableOfType(NetFailure.class,
                () -> host().exchange(get("http://api.example.test:" + http.getAddress().getPort() + "/to-internal"), permit));
        assertThat(f.code()).isEqualTo(NetCode.PRIVATE_ADDRESS);
        assertThat(f.getMessage()).startsWith("internal.example.test resolves to");
        assertThat(hitsOf("/secret")).isZero();
    }

    @Test
    void everyRedirectIsAskedOfThePermitAndARefusalStopsIt() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        NetHost.Permit permit = (url, method) -> {
            asked.add(method + " " + url);
            return url.host().equals("elsewhere.example.test")
                    ? new NetHost.Verdict.Refused(NetCode.REDIRECT, "not granted: " + url)
                    : new NetHost.Verdict.Granted(true);
        };
        int port = http.getAddress().getPort();
        NetFailure f = catchThrowableOfType(NetFailure.class, () -> host().exchange(get("http://127.0.0.1:" + port + "/to-elsewhere"), permit));
        assertThat(f.code()).isEqualTo(NetCode.REDIRECT);
        assertThat(asked).containsExactly("GET http://127.0.0.1:" + port + "/to-elsewhere", "GET http://elsewhere.example.test:" + port + "/hello");
    }

    @Test
    void aRedirectIsFollowedWithoutStoringItsCookie() throws Exception {
        int port = http.getAddress().getPort();
        NetHost.Response r = host().exchange(new NetHost.Request("POST", URI.create("http://127.0.0.1:" + port + "/to-hello"), List.of(),
                "x".getBytes(StandardCharsets.UTF_8)), ANY_ADDRESS);
        assertThat(r.status()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).as("303 turns POST into GET").isEqualTo("hello GET");
        assertThat(r.url().toString()).isEqualTo("http://127.0.0.1:" + port + "/hello");
        host().exchange(get("http://127.0.0.1:" + port + "/check-cookie"), ANY_ADDRESS);
        assertThat(cookies).containsOnly("null");
    }

    @Test
    void redirectsAreBounded() {
        NetFailure f = catchThrowableOfType(NetFailure.class, () -> host().exchange(get("http://127.0.0.1:" + http.getAddress().getPort() + "/loop"), ANY_ADDRESS));
        assertThat(f.code()).isEqualTo(NetCode.REDIRECT);
        assertThat(f.getMessage()).isEqualTo("the server redirected more than 5 times");
    }

    @Test
    void theSizeBoundStopsALargeBodyWithLengthOrChunked() throws Exception {
        LocalNetHost small = LocalNetHost.builder().maxResponseBytes(100).resolver(Servers.loopbackFor()).build();
        for (String path : List.of("/big", "/big-chunked")) {
            NetFailure f = catchThrowableOfType(NetFailure.class, () -> small.exchange(get("http://127.0.0.1:" + http.getAddress().getPort() + path), ANY_ADDRESS));
            assertThat(f.code()).as(path).isEqualTo(NetCode.TOO_LARGE);
            assertThat(f.getMessage()).isEqualTo("the response's body exceeds the host's bound of 100 bytes");
        }
    }

    @Test
    void theTimeBoundEndsAnExchangeTheServerDoesNotFinish() {
        LocalNetHost quick = LocalNetHost.builder().timeout(Duration.ofMillis(300)).resolver(Servers.loopbackFor()).build();
        NetFailure f = catchThrowableOfType(NetFailure.class, () -> quick.exchange(get("http://127.0.0.1:" + http.getAddress().getPort() + "/slow"), ANY_ADDRESS));
        assertThat(f.code()).isEqualTo(NetCode.TIMEOUT);
        assertThat(f.getMessage()).isEqualTo("the exchange with 127.0.0.1 did not finish within 300 ms");
    }

    @Test
    void aNameThatDoesNotResolveIsUnreachable() {
        NetFailure f = catchThrowableOfType(NetFailure.class, () -> host().exchange(get("https://nowhere.example.test/"), ANY_ADDRESS));
        assertThat(f.code()).isEqualTo(NetCode.UNREACHABLE);
        assertThat(f.getMessage()).isEqualTo("the host name nowhere.example.test does not resolve");
    }

    @Test
    void specialAddresses() throws Exception {
        for (String a : List.of("127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
                "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:c0a8:101::1")) {
            assertThat(Addresses.special(java.net.InetAddress.getByName(a))).as(a).isTrue();
        }
        for (String a : List.of("93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1")) {
            assertThat(Addresses.special(java.net.InetAddress.getByName(a))).as(a).isFalse();
        }
    }
}
