package dev.finch.net.words;

import dev.finch.capabilities.CapabilitySpec;
import dev.finch.capabilities.Grant;
import dev.finch.capabilities.NamePattern;
import dev.finch.capabilities.UrlPattern;
import dev.finch.ir.cap.Capability;
import dev.finch.ir.diag.Origin;
import dev.finch.ir.type.Type;
import dev.finch.ir.vocab.WordSpec.Category;
import dev.finch.net.NetCode;
import dev.finch.net.NetFailure;
import dev.finch.net.NetHost;
import dev.finch.vm.boundary.EffectRequest;
import dev.finch.vm.boundary.HostCode;
import dev.finch.vm.boundary.RunHost;
import dev.finch.vm.runtime.Ctx;
import dev.finch.vm.runtime.FinchTrap;
import dev.finch.vm.value.Bytes;
import dev.finch.vm.value.ListValue;
import dev.finch.vm.value.RecordValue;
import dev.finch.vm.value.ResultValue;
import dev.finch.vm.declare.Overload;
import dev.finch.vm.declare.Word;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The HTTP words. Each checks the program's request first ({@code E-NET-001}, nothing asked), then passes the host
 * boundary under the concrete {@code net.http(URL,method=M)} — the URL reduced as {@link UrlPattern#concrete} reduces
 * it, the same requirement the verifier infers from a literal URL — and is dispatched to the run's {@link NetHost}
 * only once authorized, with a {@link NetHost.Permit} over the authorizing grant and the grants in force for every hop.
 *
 * <p>The answer is a {@code result}: {@code ok} with the response, whatever its status ({@code status}, {@code
 * headers} as name/value records in the order received, {@code body} as bytes, {@code url} after redirects), or {@code
 * err} with {@code {code, message}} when the network failed ({@code E-NET-005} to {@code E-NET-008}). A refusal —
 * plain HTTP or a private address the grant does not name, a redirect no grant permits — stops the run with its code.
 */
public final class NetWords {
    private NetWords() { }

    /** The response record's type, fields in canonical order. */
    static final String RESPONSE = "record{body:bytes,headers:list<record{name:string,value:string}>,status:int,url:string}";
    /** The failure record's type. */
    static final String FAILURE = "record{code:string,message:string}";

    /** The most headers a program sends, and the largest body. */
    static final int MAX_HEADERS = 100;
    static final int MAX_BODY = 10 << 20;

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}");
    /** Headers the program may not set: the host's own (Host, Content-Length) and the hop-by-hop ones. */
    static final Set<String> FORBIDDEN = Set.of("host", "content-length", "connection", "keep-alive", "proxy-connection",
            "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade", "expect");

    @Word(name = "http-get", category = Category.NETWORK,
            doc = "GET a URL: ok response (any status) or err (the network failed); needs net.http(URL,method=GET).")
    @Overload(sig = "string -> result<" + RESPONSE + "," + FAILURE + "> ! {net.http(**,method=GET)}", requires = "net.http($0,method=GET)")
    public static Object get(Ctx ctx, String url, Type.Fn site, Origin o) {
        NetHost.Request r = request("http-get", "GET", url, List.of(), new byte[0], o);
        return exchange(ctx, "http-get", r, EffectRequest.inputs(site, url), site, o);
    }

    @Word(name = "http-request", category = Category.NETWORK,
            doc = "Send a request (no Host, Content-Length or hop-by-hop header); as http-get.")
    @Overload(sig = "record{body:bytes,headers:list<record{name:string,value:string}>,method:string,url:string} -> result<"
            + RESPONSE + "," + FAILURE + "> ! {net.http(**)}")
    public static Object request(Ctx ctx, Object record, Type.Fn site, Origin o) {
        RecordValue f = (RecordValue) record;
        byte[] body = ((Bytes) f.get(0)).toArray();
        List<NetHost.Header> headers = new ArrayList<>();
        for (Object h : (ListValue) f.get(1)) {
            RecordValue nv = (RecordValue) h;
            headers.add(new NetHost.Header((String) nv.get(0), (String) nv.get(1)));
        }
        NetHost.Request r = request("http-request", ((String) f.get(2)).toUpperCase(Locale.ROOT), (String) f.get(3), headers, body, o);
        return exchange(ctx, "http-request", r, EffectRequest.inputs(site, record), site, o);
    }

    /** The checked request, or {@code E-NET-001} before anything is asked. */
    static NetHost.Request request(String word, String method, String url, List<NetHost.Header> headers, byte[] body, Origin o) {
        if (!CapabilitySpec.NetHttp.METHODS.contains(method)) {
            throw new FinchTrap(NetCode.BAD_REQUEST, o, word + " sends one of " + CapabilitySpec.NetHttp.METHODS + ", not '" + shorten(method) + "'");
        }
        var at = UrlPattern.concrete(url, o);
        if (!at.isOk()) throw new FinchTrap(NetCode.BAD_REQUEST, o, word + ": " + at.refusal().orElseThrow().message() + ": " + shorten(url));
        if (headers.size() > MAX_HEADERS) throw new FinchTrap(NetCode.BAD_REQUEST, o, word + " sends at most " + MAX_HEADERS + " headers, not " + headers.size());
        for (NetHost.Header h : headers) {
            if (!TOKEN.matcher(h.name()).matches()) throw new FinchTrap(NetCode.BAD_REQUEST, o, "'" + shorten(h.name()) + "' is not a header name");
            if (FORBIDDEN.contains(h.name().toLowerCase(Locale.ROOT))) {
                throw new FinchTrap(NetCode.BAD_REQUEST, o, "a program may not set the " + h.name() + " header (the host sets Host and Content-Length; hop-by-hop headers are the connection's)");
            }
            for (int i = 0; i < h.value().length(); i++) {
                char c = h.value().charAt(i);
                if (c == '\r' || c == '\n' || c == 0 || c > 0xff) throw new FinchTrap(NetCode.BAD_REQUEST, o, "the value of header " + h.name() + " holds a line break, NUL or a character outside Latin-1");
            }
        }
        if (body.length > MAX_BODY) throw new FinchTrap(NetCode.BAD_REQUEST, o, word + " sends a body of at most 10 MiB, not " + body.length + " bytes");
        if (method.equals("GET") || method.equals("HEAD")) {
            if (body.length > 0) throw new FinchTrap(NetCode.BAD_REQUEST, o, "a " + method + " request has no body");
        }
        String text = url.indexOf('#') >= 0 ? url.substring(0, url.indexOf('#')) : url;
        // The URL as it is sent: an international host in ASCII (it parsed so above, or E-NET-001 stopped the run).
        return new NetHost.Request(method, URI.create(UrlPattern.asciiHost(text)), headers, body);
    }

    /** The concrete requirement of {@code r}: {@code net.http(URL,method=M)}. */
    static Capability requirement(NetHost.Request r) {
        UrlPattern at = UrlPattern.concrete(r.url().toString(), Origin.UNKNOWN).toOptional().orElseThrow();
        return new CapabilitySpec.NetHttp(at, new NamePattern(r.method())).toCapability();
    }

    /** A refusal the dispatch found, turned into the run's stop once the boundary has settled the request. */
    private record Refusal(NetCode code, String message) { }

    private static Object exchange(Ctx ctx, String word, NetHost.Request r, List<dev.finch.vm.TypedValue> inputs, Type.Fn site, Origin o) {
        RunHost boundary = RunHost.of(ctx);
        if (host(ctx) == null && !boundary.config().deferred() && !ctx.takeResumePeek()) {
            throw new FinchTrap(HostCode.NO_BINDING, o, "no net host is installed in this session, so " + word + " cannot reach "
                    + r.url().getHost() + " (on the command line, finch run installs one unless --no-net; embedded, SessionOptions.withNetHost)");
        }
        Object v = boundary.await(ctx, word, requirement(r), inputs, site.outs(), o, () -> {
            NetHost host = host(ctx);
            if (host == null) throw new dev.finch.vm.boundary.HostFailure(HostCode.NO_BINDING, "no net host is installed in this session");
            Grant authorizing = boundary.authorizing().orElse(null);
            List<Grant> inForce = boundary.grants().grants();
            // The exchange touches none of the run's state (the grants are read above), so other steps go on meanwhile.
            return dev.finch.vm.runtime.Strands.offBaton(() -> {
                try {
                    return response(host.exchange(r, (url, method) -> verdict(authorizing, inForce, url, method)));
                } catch (NetFailure f) {
                    if (f.code().refusal()) return new Refusal(f.code(), f.getMessage());
                    return ResultValue.err(new RecordValue(new Object[] {f.code().code(), f.getMessage()}));
                }
            });
        });
        if (v instanceof Refusal refused) throw new FinchTrap(refused.code(), o, refused.message());
        return v;
    }

    /**
     * What the grants say of one hop: the authorizing grant first, then every grant in force. A grant permits plain HTTP
     * only when it names {@code http://}, and any address only when it names the host exactly.
     */
    static NetHost.Verdict verdict(Grant authorizing, List<Grant> inForce, UrlPattern url, String method) {
        CapabilitySpec.NetHttp need = new CapabilitySpec.NetHttp(url, new NamePattern(method));
        List<Grant> candidates = new ArrayList<>();
        if (authorizing != null) candidates.add(authorizing);
        candidates.addAll(inForce);
        boolean plainRefused = false;
        NetHost.Verdict.Granted best = null;
        for (Grant g : candidates) {
            if (!(g.spec() instanceof CapabilitySpec.NetHttp n) || !n.contains(need)) continue;
            if (url.scheme().equals("http") && n.url().isAny()) {
                plainRefused = true;
                continue;
            }
            if (n.url().exactHost()) return new NetHost.Verdict.Granted(true);
            if (best == null) best = new NetHost.Verdict.Granted(false);
        }
        if (best != null) return best;
        if (plainRefused) {
            return new NetHost.Verdict.Refused(NetCode.PLAIN_HTTP, need + " is plain http://, and the grant that permits it does not name http://");
        }
        return new NetHost.Verdict.Refused(NetCode.REDIRECT, "the server redirected to " + url + ", which no grant in force permits ("
                + need + "); the redirect was not followed");
    }

    private static Object response(NetHost.Response r) {
        List<Object> headers = new ArrayList<>();
        for (NetHost.Header h : r.headers()) headers.add(new RecordValue(new Object[] {h.name(), h.value()}));
        return ResultValue.ok(new RecordValue(new Object[] {Bytes.wrap(r.body()), ListValue.from(headers), (long) r.status(), r.url().toString()}));
    }

    private static NetHost host(Ctx ctx) { return RunHost.of(ctx).config().binding(NetHost.class); }

    private static String shorten(String s) { return s.length() > 80 ? s.substring(0, 80) + "…" : s; }
}
