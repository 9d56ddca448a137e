package dev.finch.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 on one connection, one exchange per connection ({@code Connection: close}): the request written, the
 * response read within a size bound. Bodies are {@code Content-Length}, chunked or read to the close; no compression is
 * asked for ({@code Accept-Encoding: identity}), so the bound counts what the program receives.
 */
final class Http1 {
    private Http1() { }

    static final int MAX_LINE = 8 << 10;
    static final int MAX_HEADER_BYTES = 64 << 10;
    static final int MAX_HEADERS = 200;

    /** Parsed status and headers. */
    record Head(int status, List<NetHost.Header> headers) {
        String first(String name) {
            for (NetHost.Header h : headers) if (h.name().equalsIgnoreCase(name)) return h.value();
            return null;
        }
    }

    /** Writes the request line, the host's headers, the program's headers and the body. */
    static void write(OutputStream out, String method, String target, String hostHeader, List<NetHost.Header> headers, byte[] body) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        b.append("Host: ").append(hostHeader).append("\r\n");
        b.append("Connection: close\r\n");
        b.append("Accept-Encoding: identity\r\n");
        boolean agent = false;
        for (NetHost.Header h : headers) {
            agent |= h.name().equalsIgnoreCase("User-Agent");
            b.append(h.name()).append(": ").append(h.value()).append("\r\n");
        }
        if (!agent) b.append("User-Agent: finch\r\n");
        if (body.length > 0 || method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            b.append("Content-Length: ").append(body.length).append("\r\n");
        }
        b.append("\r\n");
        out.write(b.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    /** Reads the final head (interim 1xx responses skipped). */
    static Head readHead(InputStream in) throws IOException, NetFailure {
        while (true) {
            String status = line(in, MAX_LINE);
            if (status == null) throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection without a response");
            if (!status.startsWith("HTTP/1.") || status.length() < 12 || status.charAt(8) != ' ') {
                throw new NetFailure(NetCode.PROTOCOL, "the server's status line is not HTTP/1.x");
            }
            int code;
            try {
                code = Integer.parseInt(status.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new NetFailure(NetCode.PROTOCOL, "the server's status code is not a number");
            }
            if (code < 100 || code > 599) throw new NetFailure(NetCode.PROTOCOL, "the server's status code " + code + " is out of range");
            List<NetHost.Header> headers = new ArrayList<>();
            int bytes = 0;
            String l;
            while (!(l = headerLine(in)).isEmpty()) {
                bytes += l.length() + 2;
                if (bytes > MAX_HEADER_BYTES || headers.size() >= MAX_HEADERS) {
                    throw new NetFailure(NetCode.TOO_LARGE, "the response's headers exceed 64 KiB or 200 fields");
                }
                int colon = l.indexOf(':');
                if (colon <= 0 || l.charAt(0) == ' ' || l.charAt(0) == '\t') throw new NetFailure(NetCode.PROTOCOL, "the server sent a malformed header line");
                headers.add(new NetHost.Header(l.substring(0, colon), l.substring(colon + 1).strip()));
            }
            if (code >= 100 && code < 200) continue;
            return new Head(code, headers);
        }
    }

    private static String headerLine(InputStream in) throws IOException, NetFailure {
        String l = line(in, MAX_LINE);
        if (l == null) throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection inside the response's headers");
        return l;
    }

    /** Reads the body the head announces, at most {@code max} bytes. */
    static byte[] readBody(InputStream in, Head head, String method, long max) throws IOException, NetFailure {
        if (method.equals("HEAD") || head.status() == 204 || head.status() == 304) return new byte[0];
        String te = head.first("Transfer-Encoding");
        if (te != null) {
            if (!te.toLowerCase(Locale.ROOT).equals("chunked")) throw new NetFailure(NetCode.PROTOCOL, "the server used the transfer coding '" + te + "', which Finch does not read");
            return chunked(in, max);
        }
        String cl = head.first("Content-Length");
        if (cl != null) {
            long n;
            try {
                n = Long.parseLong(cl.strip());
            } catch (NumberFormatException e) {
                throw new NetFailure(NetCode.PROTOCOL, "the server's Content-Length is not a number");
            }
            if (n < 0) throw new NetFailure(NetCode.PROTOCOL, "the server's Content-Length is negative");
            if (n > max) throw tooLarge(max);
            byte[] out = in.readNBytes((int) n);
            if (out.length < n) throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection after " + out.length + " of " + n + " bytes");
            return out;
        }
        return bounded(in, max);
    }

    private static byte[] chunked(InputStream in, long max) throws IOException, NetFailure {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String size = line(in, MAX_LINE);
            if (size == null) throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection inside a chunked body");
            int semi = size.indexOf(';');
            long n;
            try {
                n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
            } catch (NumberFormatException e) {
                throw new NetFailure(NetCode.PROTOCOL, "the server sent a malformed chunk size");
            }
            if (n < 0) throw new NetFailure(NetCode.PROTOCOL, "the server sent a negative chunk size");
            if (n == 0) {
                String trailer;
                int trailers = 0;
                while ((trailer = line(in, MAX_LINE)) != null && !trailer.isEmpty()) {
                    if (++trailers > MAX_HEADERS) throw new NetFailure(NetCode.TOO_LARGE, "the response's trailers exceed 200 fields");
                }
                return out.toByteArray();
            }
            if (out.size() + n > max) throw tooLarge(max);
            byte[] chunk = in.readNBytes((int) n);
            if (chunk.length < n) throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection inside a chunk");
            out.write(chunk);
            String end = line(in, 2);
            if (end == null || !end.isEmpty()) throw new NetFailure(NetCode.PROTOCOL, "a chunk is not followed by CRLF");
        }
    }

    private static byte[] bounded(InputStream in, long max) throws IOException, NetFailure {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) >= 0) {
            if (out.size() + (long) n > max) throw tooLarge(max);
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    static NetFailure tooLarge(long max) { return new NetFailure(NetCode.TOO_LARGE, "the response's body exceeds the host's bound of " + max + " bytes"); }

    /** One line without its CRLF (a bare LF is accepted); null at the end of the stream before any byte. */
    private static String line(InputStream in, int max) throws IOException, NetFailure {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        boolean any = false;
        while ((c = in.read()) >= 0) {
            any = true;
            if (c == '\n') {
                byte[] l = b.toByteArray();
                int n = l.length > 0 && l[l.length - 1] == '\r' ? l.length - 1 : l.length;
                return new String(l, 0, n, StandardCharsets.ISO_8859_1);
            }
            if (b.size() >= max) throw new NetFailure(NetCode.TOO_LARGE, "a line of the response exceeds " + max + " bytes");
            b.write(c);
        }
        if (!any) return null;
        throw new NetFailure(NetCode.PROTOCOL, "the server closed the connection inside a line");
    }

    /** Whether {@code e} is a read that ran past its time. */
    static boolean timedOut(IOException e) { return e instanceof SocketTimeoutException; }
}
