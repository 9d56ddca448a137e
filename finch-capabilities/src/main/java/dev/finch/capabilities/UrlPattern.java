package dev.finch.capabilities;

import dev.finch.ir.diag.Origin;
import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The URL selector of {@code net.http(…)}: a scheme ({@code https} or {@code http}), a host (an exact name or address,
 * {@code *.example.com} for its subdomains, or {@code *} for any), a port (explicit, {@code *}, or the scheme's default
 * when omitted) and a path selector ({@link SegmentPattern}: {@code /v1/**}); or {@code **} alone, any URL.
 *
 * <p>Two spellings come here. A grant's or a requirement's ({@link #parse}) is already canonical. A program's URL
 * ({@link #concrete}) is read as a URL and reduced to what authority is decided on: its query and fragment are dropped,
 * its host lower-cased (and an international name spelled in ASCII), its default port omitted, its path normalised
 * ({@code .} and {@code ..} resolved, empty segments and a trailing slash dropped), and every character capability
 * syntax or a selector would read ({@code *}, {@code ,}, {@code (}, {@code )}, {@code $}) percent-encoded. So a printed
 * requirement reads back as the same requirement, and a concrete URL never widens into a pattern.
 *
 * <p>Containment is over names; what a name resolves to is decided where the request is made (the net host checks the
 * address it connects to: only a grant that names the host exactly may reach a loopback, link-local or private
 * address, and only one that names {@code http://} may send plain HTTP).
 */
public final class UrlPattern {
    /** Any URL: the bound of a word whose URL is not known before it runs. */
    public static final UrlPattern ANY = new UrlPattern(null, null, -1, SegmentPattern.EMPTY);

    private static final Pattern SPELLING = Pattern.compile(
            "(https?)://(\\*|\\*\\.[a-z0-9.-]+|[a-z0-9.-]+|\\[[0-9a-f:.]+\\])(?::(\\*|[0-9]{1,5}))?(/.*)?");
    private static final Pattern HOST_NAME = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    /** Characters percent-encoded in a concrete path: capability syntax, selector wildcards and template marks. */
    private static final String ENCODED = "*?,()[]{}<>\"$";

    private final String scheme;
    private final String host;
    private final int port;
    private final SegmentPattern path;

    private UrlPattern(String scheme, String host, int port, SegmentPattern path) {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.path = path;
    }

    /** {@code https} or {@code http}; null for {@link #ANY}. */
    public String scheme() { return scheme; }

    /** The host: an exact name or address ({@code [::1]} for IPv6), {@code *.suffix} or {@code *}; null for {@link #ANY}. */
    public String host() { return host; }

    /** The port, or -1 for any. */
    public int port() { return port; }

    /** The path selector. */
    public SegmentPattern path() { return path; }

    /** Whether this is {@code **}, any URL. */
    public boolean isAny() { return scheme == null; }

    /** Whether the host is one exact name or address (not {@code *} or {@code *.suffix}). */
    public boolean exactHost() { return host != null && !host.startsWith("*"); }

    /** The scheme's port: 443 for https, 80 for http. */
    public static int defaultPort(String scheme) { return scheme.equals("https") ? 443 : 80; }

    /** Parses a grant's or requirement's spelling ({@code https://api.example.com/v1/**}, {@code **}). */
    public static Attempt<UrlPattern> parse(String text, Origin origin) {
        if (text.equals("**")) return Attempt.ok(ANY);
        Matcher m = SPELLING.matcher(text);
        if (!m.matches()) {
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin,
                    "net.http takes a URL selector such as https://api.example.com/v1/** (scheme https or http, a lower-case host, "
                            + "*.domain or *, an optional port or :*, a path selector), or ** for any URL",
                    "https://HOST[:PORT]/PATH", text));
        }
        String scheme = m.group(1);
        String host = m.group(2);
        if (!host.equals("*") && !host.startsWith("[") && !HOST_NAME.matcher(host.startsWith("*.") ? host.substring(2) : host).matches()) {
            return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "net.http's host '" + host + "' is not a host name", "a host name", host));
        }
        int port;
        if (m.group(3) == null) port = defaultPort(scheme);
        else if (m.group(3).equals("*")) port = -1;
        else {
            port = Integer.parseInt(m.group(3));
            if (port < 1 || port > 65535 || m.group(3).startsWith("0")) {
                return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "net.http's port must be 1 to 65535 or *", "1..65535", m.group(3)));
            }
        }
        String p = m.group(4) == null ? "" : m.group(4).substring(1);
        if (p.isEmpty()) return Attempt.ok(new UrlPattern(scheme, host, port, SegmentPattern.EMPTY));
        return SegmentPattern.parse(p, origin).map(s -> new UrlPattern(scheme, host, port, s));
    }

    /**
     * A program's URL, reduced to what authority is decided on (see the class comment); refused when it is not an
     * absolute {@code https} or {@code http} URL with a host, or carries user information.
     */
    public static Attempt<UrlPattern> concrete(String url, Origin origin) {
        URI u;
        try {
            u = new URI(asciiHost(url));
        } catch (URISyntaxException e) {
            return badUrl(origin, "is not a URL (" + e.getReason() + ")", url);
        }
        String scheme = u.getScheme() == null ? null : u.getScheme().toLowerCase(Locale.ROOT);
        if (scheme == null || !(scheme.equals("https") || scheme.equals("http"))) return badUrl(origin, "is not an https:// or http:// URL", url);
        if (u.getRawUserInfo() != null) return badUrl(origin, "carries user information (credentials never go in a URL)", url);
        String host = u.getHost();
        if (host == null || host.isEmpty()) return badUrl(origin, "has no host", url);
        if (host.startsWith("[")) {
            host = host.toLowerCase(Locale.ROOT);
        } else {
            try {
                host = IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
            } catch (IllegalArgumentException e) {
                return badUrl(origin, "has a host that is not a valid name", url);
            }
            if (host.endsWith(".")) host = host.substring(0, host.length() - 1);
            if (!HOST_NAME.matcher(host).matches()) return badUrl(origin, "has a host that is not a valid name", url);
        }
        int port = u.getPort() < 0 ? defaultPort(scheme) : u.getPort();
        if (port < 1 || port > 65535) return badUrl(origin, "has a port outside 1 to 65535", url);
        String raw = u.normalize().getRawPath();
        List<String> segments = new ArrayList<>();
        for (String s : (raw == null ? "" : raw).split("/")) {
            if (s.isEmpty()) continue;
            if (s.equals("..") || s.equals(".")) return badUrl(origin, "climbs above its root with '..'", url);
            segments.add(encode(s));
        }
        String name = host;
        if (segments.isEmpty()) return Attempt.ok(new UrlPattern(scheme, name, port, SegmentPattern.EMPTY));
        return SegmentPattern.parse(String.join("/", segments), origin).map(p -> new UrlPattern(scheme, name, port, p));
    }

    private static final Pattern AUTHORITY = Pattern.compile("(?i)(https?://)([^/?#@]*@)?([^/?#:\\[]+)(.*)", Pattern.DOTALL);

    /**
     * {@code url} with an international host name spelled in ASCII ({@code java.net.URI} reads no other), as it is sent;
     * as given otherwise.
     */
    public static String asciiHost(String url) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.matches() || m.group(3).chars().allMatch(c -> c < 0x80)) return url;
        try {
            return m.group(1) + (m.group(2) == null ? "" : m.group(2)) + IDN.toASCII(m.group(3), IDN.USE_STD3_ASCII_RULES) + m.group(4);
        } catch (IllegalArgumentException e) {
            return url;
        }
    }

    private static Attempt<UrlPattern> badUrl(Origin origin, String why, String url) {
        String shown = url.length() > 200 ? url.substring(0, 200) + "…" : url;
        return Attempt.refused(CapabilityCode.BAD_PARAMETER.at(origin, "the URL " + why, "an absolute https:// or http:// URL", shown));
    }

    private static String encode(String segment) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (ENCODED.indexOf(c) >= 0 || c <= ' ' || c == 0x7f) b.append(String.format("%%%02X", (int) c));
            else b.append(c);
        }
        return b.toString();
    }

    /** Whether every URL {@code inner} selects is selected by this pattern; false when unsure. */
    public boolean contains(UrlPattern inner) {
        if (isAny()) return true;
        if (inner.isAny()) return false;
        if (!scheme.equals(inner.scheme)) return false;
        if (port != -1 && port != inner.port) return false;
        return hostContains(host, inner.host) && path.contains(inner.path);
    }

    private static boolean hostContains(String outer, String inner) {
        if (outer.equals("*")) return true;
        if (outer.startsWith("*.")) {
            String suffix = outer.substring(1);
            if (inner.startsWith("*.")) return inner.substring(1).endsWith(suffix);
            return !inner.equals("*") && inner.endsWith(suffix);
        }
        return outer.equals(inner);
    }

    @Override public boolean equals(Object o) {
        return o instanceof UrlPattern u && java.util.Objects.equals(scheme, u.scheme) && java.util.Objects.equals(host, u.host)
                && port == u.port && path.equals(u.path);
    }

    @Override public int hashCode() { return java.util.Objects.hash(scheme, host, port, path); }

    /** Canonical: {@code **}, or {@code scheme://host[:port]/path} with the scheme's default port omitted. */
    @Override public String toString() {
        if (isAny()) return "**";
        String p = port == -1 ? ":*" : port == defaultPort(scheme) ? "" : ":" + port;
        return scheme + "://" + host + p + "/" + path;
    }
}
