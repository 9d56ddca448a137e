package dev.finch.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * MCP's stdio framing — one JSON-RPC message per line — read defensively, for both ends of Finch's stdio transports
 * ({@link StdioServerFrames}, {@link StdioClientFrames}): a line is at most {@link #MAX_FRAME_BYTES} bytes (a longer
 * one is skipped to its end and reported as oversized, never buffered whole), and is parsed strictly with bounded
 * depth, number length and string length, so a hostile peer's frame costs bounded memory and time and never stops the
 * reader.
 */
final class Frames {
    private Frames() { }

    /** The largest frame read: 16 MiB. */
    static final int MAX_FRAME_BYTES = 16 << 20;
    /** The deepest JSON nesting a frame may have. */
    static final int MAX_DEPTH = 1_000;
    /** The longest number (in characters) a frame may hold. */
    static final int MAX_NUMBER_CHARS = 1_000;

    /** Strict and bounded: no duplicate keys, no trailing tokens. */
    static final ObjectMapper STRICT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(MAX_NUMBER_CHARS).maxStringLength(MAX_FRAME_BYTES).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** One line read: its bytes (without the newline), or {@code oversized} with its length when it was skipped. */
    record Line(byte[] bytes, boolean oversized, long length) {
        String text() { return new String(bytes, StandardCharsets.UTF_8); }

        boolean blank() { return !oversized && text().isBlank(); }
    }

    /** Reads lines of at most {@code max} bytes from {@code in}. Not thread-safe: one reader thread. */
    static final class Reader {
        private final InputStream in;
        private final int max;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int end;

        Reader(InputStream in, int max) {
            this.in = in;
            this.max = max;
        }

        /** The next line, or empty at the end of the stream (a last line without a newline is still a line). */
        Optional<Line> next() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long length = 0;
            boolean any = false;
            while (true) {
                if (pos == end) {
                    end = in.read(buf, 0, buf.length);
                    pos = 0;
                    if (end <= 0) {
                        end = 0;
                        if (!any) return Optional.empty();
                        return Optional.of(finish(line, length));
                    }
                }
                any = true;
                int start = pos;
                while (pos < end && buf[pos] != '\n') pos++;
                int n = pos - start;
                if (length + n <= max) line.write(buf, start, n);
                length += n;
                if (pos < end) {
                    pos++;
                    return Optional.of(finish(line, length));
                }
            }
        }

        private Line finish(ByteArrayOutputStream line, long length) {
            if (length > max) return new Line(new byte[0], true, length);
            byte[] b = line.toByteArray();
            int n = b.length;
            if (n > 0 && b[n - 1] == '\r') n--;
            return new Line(n == b.length ? b : java.util.Arrays.copyOf(b, n), false, length);
        }
    }

    /** The frame as one JSON value, or empty when it is not one (malformed, too deep, a number too long, trailing text). */
    static Optional<JsonNode> parse(Line line) {
        try {
            JsonNode n = STRICT.readTree(line.bytes());
            return Optional.ofNullable(n);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code id} can be a JSON-RPC id: a string or an integral number. */
    static boolean validId(JsonNode id) {
        return id != null && (id.isTextual() || id.isIntegralNumber());
    }

    /** The depth of {@code n}'s nesting (1 for a scalar), counted without recursion. */
    static int depth(JsonNode n) {
        int deepest = 0;
        java.util.ArrayDeque<java.util.Map.Entry<JsonNode, Integer>> todo = new java.util.ArrayDeque<>();
        todo.push(java.util.Map.entry(n, 1));
        while (!todo.isEmpty()) {
            var e = todo.pop();
            deepest = Math.max(deepest, e.getValue());
            if (e.getKey().isContainerNode()) for (JsonNode c : e.getKey()) todo.push(java.util.Map.entry(c, e.getValue() + 1));
        }
        return deepest;
    }
}
