package dev.finch.net;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Real local servers for the tests: the JDK's HttpServer and HttpsServer on 127.0.0.1, the HTTPS one with a
 * certificate generated at test time by the JDK's keytool (for localhost, api.example.test and 127.0.0.1).
 */
final class Servers {
    private Servers() { }

    static final char[] PASSWORD = "changeit".toCharArray();

    /** A fresh PKCS#12 key store with one self-signed certificate, made by keytool in {@code dir}. */
    static KeyStore keyStore(Path dir) throws Exception {
        Path ks = dir.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,dns:api.example.test,ip:127.0.0.1", "-validity", "2",
                "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.log").toFile()).start();
        // A hang guard, not a time bound on the work.
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) throw new IllegalStateException("keytool failed: " + Files.readString(dir.resolve("keytool.log")));
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    /** A TLS context that trusts exactly the certificate of {@code store}. */
    static SSLContext trusting(KeyStore store) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, tmf.getTrustManagers(), null);
        return c;
    }

    static HttpServer http(HttpHandler handler) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.createContext("/", handler);
        s.setExecutor(Executors.newCachedThreadPool());
        s.start();
        return s;
    }

    static HttpsServer https(KeyStore store, HttpHandler handler) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, PASSWORD);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), null, null);
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        s.setHttpsConfigurator(new HttpsConfigurator(c));
        s.createContext("/", handler);
        s.setExecutor(Executors.newCachedThreadPool());
        s.start();
        return s;
    }

    static void reply(HttpExchange e, int status, String body, String... headers) throws IOException {
        for (int i = 0; i + 1 < headers.length; i += 2) e.getResponseHeaders().add(headers[i], headers[i + 1]);
        byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        e.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) e.getResponseBody().write(b);
        e.close();
    }

    /** A resolver that answers {@code names} with 127.0.0.1 and refuses every other name. */
    static LocalNetHost.Resolver loopbackFor(String... names) {
        return host -> {
            if (host.equals("127.0.0.1") || List.of(names).contains(host)) return List.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1}));
            throw new java.net.UnknownHostException(host);
        };
    }
}
