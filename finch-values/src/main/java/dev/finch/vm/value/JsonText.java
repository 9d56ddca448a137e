package dev.finch.vm.value;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;

/**
 * Compact JSON text of a json value, written through a writer that counts what it writes: the work is charged to a
 * {@link Meter} as the text grows (so the run's deadline and cancellation are checked while a large document is
 * written), and writing stops at a length — {@link #write} reports a cut, {@link Values#jsonText} refuses a text
 * over the run's memory limit before it exists as a string.
 */
final class JsonText {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonText() { }

    /**
     * Appends the compact text of {@code node} to {@code out}, at most {@code maxChars} of it; false when the text
     * was longer (what fits is appended). A trap of the meter (deadline, cancellation, steps) propagates.
     */
    static boolean write(JsonNode node, StringBuilder out, long maxChars, Meter meter) {
        Bounded w = new Bounded(out, maxChars, new Work(meter));
        try (JsonGenerator g = JSON.getFactory().createGenerator(w)) {
            JSON.writeTree(g, node);
        } catch (IOException | RuntimeException e) {
            if (w.stop != null) throw w.stop;
            if (!w.full) throw new IllegalStateException("json text failed: " + e, e);
        } finally {
            w.work.done();
        }
        return !w.full;
    }

    /** A writer into a string builder that stops at a length and charges its work. */
    private static final class Bounded extends Writer {
        private final StringBuilder out;
        private final long max;
        private final Work work;
        private long written;
        private boolean full;
        private RuntimeException stop;

        Bounded(StringBuilder out, long max, Work work) {
            this.out = out;
            this.max = max;
            this.work = work;
        }

        @Override public void write(char[] cbuf, int off, int len) throws IOException {
            if (full) throw new IOException("json text limit");
            try {
                work.chars(len);
            } catch (RuntimeException trap) {
                stop = trap;
                throw new IOException("stopped");
            }
            long room = max - written;
            if (len > room) {
                out.append(cbuf, off, (int) Math.max(0, room));
                written = max;
                full = true;
                throw new IOException("json text limit");
            }
            out.append(cbuf, off, len);
            written += len;
        }

        @Override public void flush() { }

        @Override public void close() { }
    }
}
