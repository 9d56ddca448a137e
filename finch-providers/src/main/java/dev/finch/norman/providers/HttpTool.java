package dev.finch.norman.providers;

import dev.finch.ir.diag.Origin;
import dev.finch.norman.harness.ToolResults;
import dev.finch.host.ToolCapability;
import dev.finch.host.ToolHost;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code http} tool binding on {@code java.net.http} (issue 8 item 8), limited to what the embedder configures:
 * one fixed origin and path prefix ({@code https://api.example.org/v1}) and, per operation, a method and a path
 * template under that prefix ({@code /search?q={0}}). Each placeholder {@code {i}} takes the call's argument
 * {@code i}, percent-encoded (every byte but RFC 3986's unreserved characters, so {@code /}, {@code ?}, {@code #},
 * {@code @} and {@code :} never reach the URL as syntax, and an argument that is {@code .} or {@code ..} is refused);
 * nothing a program passes can change the scheme, host, port or prefix. A POST operation may send one argument as
 * its body. Redirects are not followed; there are a connect and a request timeout and a bound on the response body.
 *
 * <p>The response body (strict UTF-8) is the call's text, typed by the grant's declaration (which each call carries);
 * a non-2xx status, a timeout, an I/O error, an oversized or undecodable body, an operation this binding
 * does not configure and a wrong number of arguments are {@code ToolError}.
 */
public final class HttpTool implements ToolHost {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)\\}");

    /** One configured operation: its method, its path template under the prefix, and which argument is the body (-1: none). */
    public record Op(String method, String template, int bodyArg, String contentType) {
        int arity() {
            int n = bodyArg + 1;
            Matcher m = PLACEHOLDER.matcher(template);
            while (m.find()) n = Math.max(n, Integer.parseInt(m.group(1)) + 1);
            return n;
        }
    }

    private final URI base;
    private final Map<String, Op> ops;
    private final Duration timeout;
    private final long maxResponseBytes;
    private final Map<String, String> headers;
    private final HttpClient client;

    private HttpTool(Builder b) {
        this.base = b.base;
        this.ops = Map.copyOf(b.ops);
        this.timeout = b.timeout;
        this.maxResponseBytes = b.maxResponseBytes;
        this.headers = Map.copyOf(b.headers);
        this.client = HttpClient.newBuilder().connectTimeout(b.connectTimeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * A builder for the binding of one origin and path prefix, such as {@code https://api.example.org/v1}: an http or
     * https URI with a host, no user info, query or fragment.
     */
    public static Builder builder(String base) { return new Builder(base); }

    /** The configuration of an {@link HttpTool}. */
    public static final class Builder {
        private final URI base;
        private final Map<String, Op> ops = new LinkedHashMap<>();
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration timeout = Duration.ofSeconds(30);
        private long maxResponseBytes = 1 << 20;
        private final Map<String, String> headers = new LinkedHashMap<>();

        private Builder(String base) {
            URI u = URI.create(base);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) throw new IllegalArgumentException("not an http(s) URI: " + base);
            if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
                throw new IllegalArgumentException("the base must be scheme://host[:port][/prefix] only: " + base);
            }
            String path = u.getRawPath() == null ? "" : u.getRawPath();
            while (path.endsWith("/")) path = path.substring(0, path.length() - 1);
            for (String s : path.split("/")) if (s.equals(".") || s.equals("..")) throw new IllegalArgumentException("a dot segment in the prefix: " + base);
            this.base = URI.create(scheme + "://" + u.getRawAuthority() + path);
        }

        /** A GET operation: {@code template} is the path (and query) under the prefix, starting with {@code /}. */
        public Builder get(String op, String template) { return op(op, new Op("GET", template, -1, null)); }

        /** A POST operation sending argument {@code bodyArg} as its body of {@code contentType}. */
        public Builder post(String op, String template, int bodyArg, String contentType) {
            return op(op, new Op("POST", template, bodyArg, contentType));
        }

        /** Any operation (GET, POST, PUT, DELETE …; a body only with {@code bodyArg >= 0}). */
        public Builder op(String op, Op spec) {
            String t = spec.template();
            if (!t.startsWith("/") || t.startsWith("//") || t.contains("#") || t.contains("\\")) {
                throw new IllegalArgumentException("a template is a path under the prefix, starting with a single /: " + t);
            }
            String literal = PLACEHOLDER.matcher(t).replaceAll("");
            if (literal.contains("{") || literal.contains("}")) throw new IllegalArgumentException("a placeholder is {0}, {1} …: " + t);
            String path = literal.contains("?") ? literal.substring(0, literal.indexOf('?')) : literal;
            for (String s : path.split("/")) if (s.equals(".") || s.equals("..")) throw new IllegalArgumentException("a dot segment in " + t);
            URI.create(base + literal);   // rejects characters a URI cannot hold
            if (!spec.method().matches("[A-Z]+")) throw new IllegalArgumentException("not a method: " + spec.method());
            ops.put(op, spec);
            return this;
        }

        /** The connect timeout (default 10 s). */
        public Builder connectTimeout(Duration d) { this.connectTimeout = d; return this; }

        /** The whole request's timeout, until the response headers (default 30 s). */
        public Builder timeout(Duration d) { this.timeout = d; return this; }

        /** The most bytes of a response body (default 1 MiB); a longer body is a ToolError. */
        public Builder maxResponseBytes(long n) { this.maxResponseBytes = n; return this; }

        /** A header sent with every request (an API key, Accept …), fixed by the embedder. */
        public Builder header(String name, String value) { headers.put(name, value); return this; }


        public HttpTool build() { return new HttpTool(this); }
    }

    /** Percent-encodes an argument: every UTF-8 byte but RFC 3986's unreserved characters. */
    static String encode(String arg) {
        StringBuilder sb = new StringBuilder();
        for (byte b : arg.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /** Calls are real I/O and thread-safe, so concurrent steps' calls overlap. */
    @Override public boolean concurrent() { return true; }

    @Override public Object call(ToolCapability cap, String op, List<String> args, String key, Origin origin) {
        if (ToolResults.isFork(key)) return ToolResults.toolError("an http tool has no state to fork");
        Op spec = ops.get(op);
        if (spec == null) return ToolResults.toolError("`" + cap.grant() + "` has no operation " + op + " configured (it has " + String.join(", ", ops.keySet()) + ")");
        if (args.size() != spec.arity()) return ToolResults.toolError(op + " takes " + spec.arity() + " argument(s), not " + args.size());
        StringBuilder path = new StringBuilder();
        Matcher m = PLACEHOLDER.matcher(spec.template());
        while (m.find()) {
            String a = args.get(Integer.parseInt(m.group(1)));
            if (a.equals(".") || a.equals("..")) return ToolResults.toolError("the argument `" + a + "` is refused (a dot segment)");
            m.appendReplacement(path, Matcher.quoteReplacement(encode(a)));
        }
        m.appendTail(path);
        URI uri = URI.create(base + path.toString());
        if (!uri.getScheme().equals(base.getScheme()) || !uri.getRawAuthority().equals(base.getRawAuthority())
                || !uri.getRawPath().startsWith(base.getRawPath())) {
            return ToolResults.toolError("the request would leave " + base);   // unreachable with encoded arguments; kept as the last guard
        }
        HttpRequest.Builder rb = HttpRequest.newBuilder(uri).timeout(timeout);
        headers.forEach(rb::header);
        if (spec.bodyArg() >= 0) {
            if (spec.contentType() != null) rb.header("Content-Type", spec.contentType());
            rb.method(spec.method(), HttpRequest.BodyPublishers.ofString(args.get(spec.bodyArg()), StandardCharsets.UTF_8));
        } else {
            rb.method(spec.method(), HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<InputStream> r;
        try {
            r = client.send(rb.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (java.net.http.HttpTimeoutException e) {
            return ToolResults.toolError(op + " timed out after " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            return ToolResults.toolError(op + " failed: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + ToolResults.brief(e.getMessage(), 200)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResults.toolError(op + " was interrupted");
        }
        byte[] body;
        try (InputStream in = r.body()) {
            body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxResponseBytes + 1));
        } catch (IOException e) {
            return ToolResults.toolError(op + " failed reading the response: " + e.getClass().getSimpleName());
        }
        if (body.length > maxResponseBytes) return ToolResults.toolError(op + ": the response is over the bound of " + maxResponseBytes + " bytes");
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return ToolResults.toolError(op + ": the response is not UTF-8 text");
        }
        if (r.statusCode() / 100 != 2) return ToolResults.toolError("HTTP " + r.statusCode() + (text.isBlank() ? "" : ": " + ToolResults.brief(text, 200)));
        return ToolResults.typed(cap, op, key, text, origin);
    }
}
