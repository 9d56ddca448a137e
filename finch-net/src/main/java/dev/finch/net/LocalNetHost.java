package dev.finch.net;

import dev.finch.capabilities.UrlPattern;
import dev.finch.ir.diag.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Finch's {@link NetHost}: HTTP/1.1 over the JDK's sockets and TLS (JSSE), one connection per hop.
 *
 * <p>Why not {@code java.net.http.HttpClient}: it resolves host names itself with no hook, so the address it connects
 * to cannot be the address that was checked (a DNS answer can change between a check and the connect: rebinding), and
 * {@code Host} is a restricted header it lets no caller set per request. Here each hop resolves the name once through
 * the {@link Resolver}, refuses a special address ({@link Addresses}) unless the permitting grant names the host
 * exactly, and connects to that very address; TLS then runs over that socket with the URL's host name as SNI and as
 * the name the certificate must carry ({@code HTTPS} endpoint identification). No proxy is consulted (no
 * {@code ProxySelector}, no proxy credentials), no cookie is stored or sent but the program's own headers, and
 * redirects are followed here — at most {@value #MAX_REDIRECTS} — each one asked of the {@link NetHost.Permit} first.
 *
 * <p>Bounds: the whole exchange, redirects included, within {@link Builder#timeout} (the connection is closed when it
 * runs out); each response body within {@link Builder#maxResponseBytes}; headers within 64 KiB.
 */
public final class LocalNetHost implements NetHost {
    /** The most redirects one exchange follows. */
    public static final int MAX_REDIRECTS = 5;

    /** Resolves a host name to its addresses: once per hop, and the address connected to is one of these. */
    @FunctionalInterface
    public interface Resolver {
        List<InetAddress> resolve(String host) throws UnknownHostException;

        /** The system's resolver ({@link InetAddress#getAllByName}). */
        Resolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));
    }

    private static final ScheduledExecutorService DEADLINES = deadlines();

    private final Resolver resolver;
    private final SSLContext tls;
    private final Duration timeout;
    private final long maxResponseBytes;

    private LocalNetHost(Builder b) {
        this.resolver = b.resolver;
        this.tls = b.tls;
        this.timeout = b.timeout;
        this.maxResponseBytes = b.maxResponseBytes;
    }

    /** The defaults: the system resolver and trust store, 30 seconds, 10 MiB. */
    public static LocalNetHost create() { return builder().build(); }

    public static Builder builder() { return new Builder(); }

    /** How a {@link LocalNetHost} is made. */
    public static final class Builder {
        private Resolver resolver = Resolver.SYSTEM;
        private SSLContext tls;
        private Duration timeout = Duration.ofSeconds(30);
        private long maxResponseBytes = 10L << 20;

        private Builder() { }

        /** The resolver each hop asks once (a test maps names to its own server). */
        public Builder resolver(Resolver r) { resolver = Objects.requireNonNull(r, "resolver"); return this; }

        /** The TLS context (its trust store decides which certificates are accepted); the JDK's default otherwise. */
        public Builder tls(SSLContext context) { tls = Objects.requireNonNull(context, "context"); return this; }

        /** The bound on one exchange, redirects included (at least 1 ms). */
        public Builder timeout(Duration d) {
            if (d.isNegative() || d.toMillis() < 1) throw new IllegalArgumentException("timeout must be at least 1 ms");
            timeout = d;
            return this;
        }

        /** The bound on one response's body, in bytes (1 to 1 GiB). */
        public Builder maxResponseBytes(long n) {
            if (n < 1 || n > (1L << 30)) throw new IllegalArgumentException("maxResponseBytes must be 1 to 1 GiB");
            maxResponseBytes = n;
            return this;
        }

        public LocalNetHost build() {
            if (tls == null) {
                try {
                    tls = SSLContext.getDefault();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("the JDK has no default TLS context", e);
                }
            }
            return new LocalNetHost(this);
        }
    }

    /** The bound on one response's body. */
    public long maxResponseBytes() { return maxResponseBytes; }

    @Override public Response exchange(Request request, Permit permit) throws NetFailure {
        long deadline = System.nanoTime() + timeout.toNanos();
        String method = request.method();
        URI url = request.url();
        List<Header> headers = request.headers();
        byte[] body = request.body();
        for (int hop = 0; ; hop++) {
            UrlPattern at = UrlPattern.concrete(url.toString(), Origin.UNKNOWN).toOptional()
                    .orElseThrow(() -> new NetFailure(NetCode.REDIRECT, "the server redirected to a URL Finch does not follow"));
            Verdict v = permit.check(at, method);
            if (v instanceof Verdict.Refused r) throw new NetFailure(r.code(), r.message());
            boolean anyAddress = ((Verdict.Granted) v).anyAddress();
            Hop result = hop(method, url, at, headers, body, anyAddress, deadline);
            String location = result.head().first("Location");
            int s = result.head().status();
            if (!(s == 301 || s == 302 || s == 303 || s == 307 || s == 308) || location == null) {
                return new Response(s, result.head().headers(), result.body(), url);
            }
            if (hop >= MAX_REDIRECTS) throw new NetFailure(NetCode.REDIRECT, "the server redirected more than " + MAX_REDIRECTS + " times");
            URI next;
            try {
                next = url.resolve(new URI(location.strip()));
            } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                throw new NetFailure(NetCode.PROTOCOL, "the server redirected to a malformed Location");
            }
            if (s == 303 || ((s == 301 || s == 302) && method.equals("POST"))) {
                method = "GET";
                body = new byte[0];
            }
            UrlPattern to = UrlPattern.concrete(next.toString(), Origin.UNKNOWN).toOptional().orElse(null);
            if (to == null || !sameOrigin(at, to)) headers = withoutCredentials(headers);
            url = URI.create(UrlPattern.asciiHost((next.getRawFragment() == null ? next : stripFragment(next)).toString()));
        }
    }

    private record Hop(Http1.Head head, byte[] body) { }

    /** One request on a fresh connection to the one checked address. */
    private Hop hop(String method, URI url, UrlPattern at, List<Header> headers, byte[] body, boolean anyAddress, long deadline) throws NetFailure {
        // The canonical host (lower-case, ASCII), never the raw URI's: a redirect's Location may spell it otherwise.
        String host = at.host();
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        InetAddress address = address(bare, at.host(), anyAddress);
        int port = at.port();
        Socket socket = new Socket(java.net.Proxy.NO_PROXY);
        ScheduledFuture<?> guard = DEADLINES.schedule(() -> closeQuietly(socket), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        try {
            socket.connect(new InetSocketAddress(address, port), remaining(deadline));
            Socket s = socket;
            if (at.scheme().equals("https")) s = tls(socket, at.host(), port);
            s.setSoTimeout(remaining(deadline));
            OutputStream out = s.getOutputStream();
            String target = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                    + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
            String hostHeader = at.host() + (port == UrlPattern.defaultPort(at.scheme()) ? "" : ":" + port);
            Http1.write(out, method, target, hostHeader, headers, body);
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            Http1.Head head = Http1.readHead(in);
            byte[] received = Http1.readBody(in, head, method, maxResponseBytes);
            return new Hop(head, received);
        } catch (IOException e) {
            if (Http1.timedOut(e) || System.nanoTime() - deadline >= 0) {
                throw new NetFailure(NetCode.TIMEOUT, "the exchange with " + at.host() + " did not finish within " + timeout.toMillis() + " ms");
            }
            if (e instanceof SSLException) throw new NetFailure(NetCode.UNREACHABLE, "the TLS handshake with " + at.host() + " failed (its certificate is not trusted or is not for this name)");
            throw new NetFailure(NetCode.UNREACHABLE, "cannot connect to " + at.host() + ":" + port);
        } finally {
            guard.cancel(false);
            closeQuietly(socket);
        }
    }

    /** Resolves once and picks the address to connect to: the first one the grant lets this run reach. */
    private InetAddress address(String host, String shown, boolean anyAddress) throws NetFailure {
        List<InetAddress> all;
        try {
            all = resolver.resolve(host);
        } catch (UnknownHostException | RuntimeException e) {
            throw new NetFailure(NetCode.UNREACHABLE, "the host name " + shown + " does not resolve");
        }
        if (all == null || all.isEmpty()) throw new NetFailure(NetCode.UNREACHABLE, "the host name " + shown + " does not resolve");
        for (InetAddress a : all) if (anyAddress || !Addresses.special(a)) return a;
        boolean literal = host.equalsIgnoreCase(all.get(0).getHostAddress()) || host.contains(":");
        throw new NetFailure(NetCode.PRIVATE_ADDRESS, shown + (literal ? " is a loopback, link-local or private address"
                : " resolves to a loopback, link-local or private address (" + all.get(0).getHostAddress() + ")")
                + ", which only a grant naming " + shown + " exactly may reach; nothing was sent");
    }

    private SSLSocket tls(Socket plain, String host, int port) throws IOException {
        SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
        SSLParameters p = s.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        if (!host.startsWith("[") && !Character.isDigit(host.charAt(host.length() - 1))) p.setServerNames(List.of(new SNIHostName(host)));
        s.setSSLParameters(p);
        s.setSoTimeout(Math.max(1, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        s.startHandshake();
        return s;
    }

    private static boolean sameOrigin(UrlPattern a, UrlPattern b) {
        return a.scheme().equals(b.scheme()) && a.host().equals(b.host()) && a.port() == b.port();
    }

    /** The headers without the program's credentials, for a redirect to another origin. */
    private static List<Header> withoutCredentials(List<Header> headers) {
        List<Header> out = new ArrayList<>();
        for (Header h : headers) if (!h.name().equalsIgnoreCase("Authorization") && !h.name().equalsIgnoreCase("Cookie")) out.add(h);
        return out;
    }

    private static URI stripFragment(URI u) {
        String text = u.toString();
        return URI.create(text.substring(0, text.indexOf('#')));
    }

    private static int remaining(long deadline) throws java.net.SocketTimeoutException {
        long ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (ms <= 0) throw new java.net.SocketTimeoutException("deadline");
        return (int) Math.min(Integer.MAX_VALUE, ms);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private static ScheduledExecutorService deadlines() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "finch-net-deadlines");
            t.setDaemon(true);
            return t;
        });
        e.setRemoveOnCancelPolicy(true);
        return e;
    }
}
