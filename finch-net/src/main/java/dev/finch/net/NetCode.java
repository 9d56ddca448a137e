package dev.finch.net;

import dev.finch.ir.diag.DiagnosticCode;
import dev.finch.ir.diag.Phase;

/**
 * Diagnostics of the HTTP words (phase {@code host}). The first four are refusals — the program's request is malformed
 * or the boundary will not send it — and stop the run; the others are how the network failed, and reach the program as
 * the {@code err} of the word's result ({@code {code, message}}), so it can retry or give up.
 */
public enum NetCode implements DiagnosticCode {
    BAD_REQUEST("E-NET-001", "The request is malformed: a URL that is not an absolute https:// or http:// URL, a method Finch does not send, or a header the program may not set (Host, Content-Length and the hop-by-hop headers) or cannot spell (a name that is not a token, a value with a line break)."),
    PLAIN_HTTP("E-NET-002", "The request (or a redirect) uses http:// but the grant that permits it does not name http://; a grant such as net.http(**) permits https only."),
    PRIVATE_ADDRESS("E-NET-003", "The host resolves to a loopback, link-local, private or otherwise special address, and the grant that permits the request does not name that host exactly; nothing was sent."),
    REDIRECT("E-NET-004", "The server redirected to a URL no grant in force permits, or redirected more than 5 times; the redirect was not followed."),
    UNREACHABLE("E-NET-005", "The host's name does not resolve, or the connection or the TLS handshake (certificate, host name) failed."),
    TIMEOUT("E-NET-006", "The exchange did not finish within the host's time bound; the connection was closed."),
    TOO_LARGE("E-NET-007", "The response's headers or body exceed the host's size bound; reading stopped there."),
    PROTOCOL("E-NET-008", "The server's response is not well-formed HTTP/1.1.");

    private final String code;
    private final String meaning;

    NetCode(String code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    @Override public String code() { return code; }

    @Override public Phase phase() { return Phase.HOST; }

    @Override public String meaning() { return meaning; }

    /** Whether a failure with this code stops the run (a refusal) rather than answering the program's {@code err}. */
    public boolean refusal() { return this == BAD_REQUEST || this == PLAIN_HTTP || this == PRIVATE_ADDRESS || this == REDIRECT; }
}
