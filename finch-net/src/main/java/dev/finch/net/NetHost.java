package dev.finch.net;

import dev.finch.capabilities.UrlPattern;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * Where {@code http-get} and {@code http-request} go once the boundary has authorized {@code net.http(URL,method=M)}:
 * one HTTP exchange, following redirects. The words give the host a {@link Permit} over the grants in force, and the
 * host must ask it again before each hop (the first request and every redirect) and obey what it answers: whether
 * plain HTTP is allowed and whether the host name may reach a loopback, link-local or private address — decided on the
 * address the host actually connects to, never on a second resolution. {@link LocalNetHost} is Finch's binding; an
 * embedder installs its own (a proxy-aware one, a recorder in a test) through {@code SessionOptions.withNetHost}.
 *
 * <p>Implementations must be thread-safe when several sessions share them, must not send ambient credentials or
 * cookies, and fail only with {@link NetFailure}.
 */
public interface NetHost {
    /** One header as sent or received (names as given; HTTP compares them without case). */
    record Header(String name, String value) {
        public Header {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A request the words checked: an absolute http(s) URL, a method of {@code NetHttp.METHODS}, headers the program may set. */
    record Request(String method, URI url, List<Header> headers, byte[] body) {
        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(url, "url");
            headers = List.copyOf(headers);
            body = body.clone();
        }

        @Override public byte[] body() { return body.clone(); }
    }

    /** The final response: its status, headers and body, and the URL it came from (after redirects). */
    record Response(int status, List<Header> headers, byte[] body, URI url) {
        public Response {
            Objects.requireNonNull(url, "url");
            headers = List.copyOf(headers);
            body = body.clone();
        }

        @Override public byte[] body() { return body.clone(); }
    }

    /** What the grants in force say of one hop. */
    sealed interface Verdict {
        /** Granted; {@code anyAddress} when the grant names the host exactly (so it may be a private address). */
        record Granted(boolean anyAddress) implements Verdict { }

        /** Refused, with why (a {@link NetCode#refusal()} code). */
        record Refused(NetCode code, String message) implements Verdict { }
    }

    /** The grants in force, asked once per hop. */
    @FunctionalInterface
    interface Permit {
        Verdict check(UrlPattern url, String method);
    }

    /** Performs {@code request}, asking {@code permit} before each hop; the final response, whatever its status. */
    Response exchange(Request request, Permit permit) throws NetFailure;
}
